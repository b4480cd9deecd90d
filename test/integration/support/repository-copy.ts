import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hermeticEnv } from '../../support/cli';
import type { WalkthroughStep } from '../../support/manual';
import { tempDir } from '../../support/temp-dir';

/* A copy of the repository for a page's walkthrough, and each of its steps done there as a user does it. */

const ROOT = join(__dirname, '../../..');

/** The repository's files as they stand (tracked and new, not ignored) in a new directory, beside a link to ../shared; what setup installed, linked. */
export function copyRepository(prefix: string): string {
  const base = tempDir(prefix);
  const copy = join(base, 'main');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0');
  for (const file of files.filter((f) => f && existsSync(join(ROOT, f)))) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(ROOT, file), join(copy, file));
  }
  // What npm run setup installed, shared: the packages and the linters' Python environments.
  for (const installed of ['node_modules', '.venv', '.venv-checkov']) symlinkSync(join(ROOT, installed), join(copy, installed));
  if (existsSync(join(ROOT, '../shared'))) symlinkSync(join(ROOT, '../shared'), join(base, 'shared'));
  return copy;
}

/** One step done in the copy: its outcome, with the output's tail when it failed (and its stdout, for what the page says it prints). */
export function perform(step: WalkthroughStep, copy: string): { step: string; status: number | null; output: string; stdout?: string } {
  if (step.kind === 'file') {
    mkdirSync(dirname(join(copy, step.path)), { recursive: true });
    writeFileSync(join(copy, step.path), step.content);
    return { step: `write ${step.path}`, status: 0, output: '' };
  }
  const [what, argv, input] =
    step.kind === 'patch'
      ? [`git apply (${step.patch.split('\n')[0]})`, ['git', 'apply', '-'], step.patch]
      : [step.command, ['bash', '-o', 'pipefail', '-c', step.command], undefined];
  const r = spawnSync(argv[0], argv.slice(1), { cwd: copy, input, env: hermeticEnv({ CI: 'true' }), encoding: 'utf8', timeout: 900_000 });
  return { step: what, status: r.status, output: r.status === 0 ? '' : `${r.stdout}\n${r.stderr}`.slice(-3000), stdout: r.stdout };
}
