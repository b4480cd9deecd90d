import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hermeticEnv } from '../../support/cli';
import { page, walkthroughSteps, type WalkthroughStep } from '../../support/manual';
import { tempDir } from '../../support/temp-dir';

/*
 * docs/configuration.md's walkthrough, run as written, in page order, on a copy of the repository
 * (its files as they stand, node_modules shared), with no AWS credentials: each ```diff
 * walkthrough block applied with `git apply`, each ```<lang> walkthrough <path> block written
 * to its path, each line of a ```sh walkthrough block run through a shell. What the page says a
 * newcomer does is what runs here: a step that fails, or steps that leave the copy without what
 * they promise, fail the test. `npm test` closes each section; it runs once, where it last
 * appears, on the copy with every section's changes (an earlier run would check a subset).
 */

const ROOT = join(__dirname, '../../..');
const steps = walkthroughSteps(page('docs/configuration.md'));
const commands = steps.flatMap((s) => (s.kind === 'sh' ? [s.command] : []));

/** The repository's files as they stand (tracked and new, not ignored) in a new directory, beside a link to ../shared; what setup installed, linked. */
function copyRepository(): string {
  const base = tempDir('walkthrough-');
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

/** One step done in the copy: its outcome, with the output's tail when it failed. */
function perform(step: WalkthroughStep, copy: string): { step: string; status: number | null; output: string } {
  if (step.kind === 'file') {
    writeFileSync(join(copy, step.path), step.content);
    return { step: `write ${step.path}`, status: 0, output: '' };
  }
  const [what, argv, input] =
    step.kind === 'patch' ? [`git apply (${step.patch.split('\n')[0]})`, ['git', 'apply', '-'], step.patch] : [step.command, ['bash', '-o', 'pipefail', '-c', step.command], undefined];
  const r = spawnSync(argv[0], argv.slice(1), { cwd: copy, input, env: hermeticEnv({ CI: 'true' }), encoding: 'utf8', timeout: 900_000 });
  return { step: what, status: r.status, output: r.status === 0 ? '' : `${r.stdout}\n${r.stderr}`.slice(-3000) };
}

test('the walkthrough has its steps: a module made routable and a phase, a preset proposed and written, checks, snapshots, campaigns', () => {
  expect(steps.filter((s) => s.kind === 'patch').map((s) => (s as { patch: string }).patch.split('\n')[0])).toEqual([
    '--- a/config/folio-modules.ts',
    '--- a/config/folio-phases.ts',
  ]);
  expect(commands).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^npm run capacity -- --rate \d+ --write \S+$/),
      'npm run format',
      expect.stringMatching(/^npm run campaign -- plan \.\/\S+\.yaml$/),
    ]),
  );
  expect(commands.filter((c) => c.startsWith('npx cdk synth'))).toHaveLength(2);
  expect(commands.filter((c) => c.startsWith('npx jest') && c.endsWith(' -u'))).toHaveLength(2);
});

test('every step runs as written, in order, and leaves the phase and the preset in config, their table rows and their snapshots', () => {
  const copy = copyRepository();
  const lastTest = steps.map((s) => s.kind === 'sh' && s.command === 'npm test').lastIndexOf(true);
  for (const step of steps.filter((s, i) => !(s.kind === 'sh' && s.command === 'npm test') || i === lastTest)) {
    const done = perform(step, copy);
    expect(done).toEqual({ step: done.step, status: 0, output: '' });
  }
  const phase = /scenario=(\S+)/.exec(commands.find((c) => c.startsWith('npx cdk synth'))!)![1];
  const preset = /--write (\S+)/.exec(commands.find((c) => c.includes('--write'))!)![1];
  for (const [name, config, table, snapshot] of [
    [phase, 'config/folio-phases.ts', 'docs/folio.md', 'hybrid-aurora-stack'],
    [preset, 'config/temporal-scenarios.ts', 'docs/temporal.md', 'temporal-dsql-stack'],
  ]) {
    expect(readFileSync(join(copy, config), 'utf8')).toContain(`name: '${name}',`);
    expect(readFileSync(join(copy, table), 'utf8')).toContain(`| \`${name}\` |`);
    expect(readFileSync(join(copy, `test/lib/__snapshots__/${snapshot}.test.ts.snap`), 'utf8')).toContain(name);
  }
}, 2_400_000);
