import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hermeticEnv } from '../../support/cli';
import { page, shellCommands } from '../../support/manual';
import { tempDir } from '../../support/temp-dir';

/*
 * docs/configuration.md's walkthrough, run as written: every line of its ```sh walkthrough
 * blocks, in order, through a shell, on a copy of the repository (its files as they stand,
 * node_modules shared), with no AWS credentials. What the page says a newcomer types is what
 * runs here; a step that fails, or a page whose steps leave the copy without what they promise,
 * fails the test. `npm test` is the one line not run: it is CI's first step on this same tree,
 * and here it would run the whole unit suite again inside a lane.
 */

const ROOT = join(__dirname, '../../..');
const NOT_RUN = new Set(['npm test']);
const steps = shellCommands(page('docs/configuration.md'), 'walkthrough');

/** The repository's files as they stand (tracked and new, not ignored) in a new directory, beside a link to ../shared. */
function copyRepository(): string {
  const base = tempDir('walkthrough-');
  const copy = join(base, 'main');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0');
  for (const file of files.filter((f) => f && existsSync(join(ROOT, f)))) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(ROOT, file), join(copy, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  if (existsSync(join(ROOT, '../shared'))) symlinkSync(join(ROOT, '../shared'), join(base, 'shared'));
  return copy;
}

test('the walkthrough has its steps: propose, write, check, format, snapshot', () => {
  expect(steps).toEqual(expect.arrayContaining([expect.stringMatching(/^npm run capacity -- --rate \d+ --write \S+$/), 'npm run format']));
  expect(steps.some((s) => s.startsWith('npx cdk synth'))).toBe(true);
  expect(steps.some((s) => s.startsWith('npx jest') && s.endsWith(' -u'))).toBe(true);
});

test("every step runs as written, in order, and leaves the preset in config, its table row and its switch's snapshot", () => {
  const copy = copyRepository();
  const name = /--write (\S+)/.exec(steps.find((s) => s.includes('--write'))!)![1];
  for (const step of steps.filter((s) => !NOT_RUN.has(s))) {
    const r = spawnSync('bash', ['-o', 'pipefail', '-c', step], { cwd: copy, env: hermeticEnv({ CI: 'true' }), encoding: 'utf8', timeout: 300_000 });
    expect({ step, status: r.status, stderr: r.status === 0 ? '' : `${r.stdout}\n${r.stderr}`.slice(-3000) }).toEqual({ step, status: 0, stderr: '' });
  }
  expect(readFileSync(join(copy, 'config/temporal-scenarios.ts'), 'utf8')).toContain(`name: '${name}',`);
  expect(readFileSync(join(copy, 'docs/temporal.md'), 'utf8')).toContain(`| \`${name}\` |`);
  expect(readFileSync(join(copy, 'test/lib/__snapshots__/temporal-dsql-stack.test.ts.snap'), 'utf8')).toContain(name);
}, 1_200_000);
