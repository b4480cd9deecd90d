import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { page, walkthroughSteps } from '../../support/manual';
import { copyRepository, perform } from '../support/repository-copy';

/*
 * docs/configuration.md's walkthrough, run as written, in page order, on a copy of the repository
 * (its files as they stand, node_modules shared), with no AWS credentials: each ```diff
 * walkthrough block applied with `git apply`, each ```<lang> walkthrough <path> block written
 * to its path, each line of a ```sh walkthrough block run through a shell. What the page says a
 * newcomer does is what runs here: a step that fails, or steps that leave the copy without what
 * they promise, fail the test. `npm test` closes each section; it runs once, where it last
 * appears, on the copy with every section's changes (an earlier run would check a subset).
 */

const steps = walkthroughSteps(page('docs/configuration.md'));
const commands = steps.flatMap((s) => (s.kind === 'sh' ? [s.command] : []));

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
  const copy = copyRepository('walkthrough-');
  const lastTest = steps.map((s) => s.kind === 'sh' && s.command === 'npm test').lastIndexOf(true);
  for (const step of steps.filter((s, i) => !(s.kind === 'sh' && s.command === 'npm test') || i === lastTest)) {
    const { step: done, status, output } = perform(step, copy);
    expect({ done, status, output }).toEqual({ done, status: 0, output: '' });
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
