import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hermeticEnv, runApp } from '../../support/cli';
import { synthPhase } from '../../support/synth';
import { tempDir } from '../../support/temp-dir';

// bin/app.ts as the CDK CLI runs it (test/support/cli.ts): no AWS credentials anywhere in its environment.
const ROOT = join(__dirname, '../../..');

test('synthesizes a phase with no credentials, the same template the tests check', async () => {
  const r = await runApp({ scenario: 'test12' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const written = JSON.parse(readFileSync(join(r.outdir, 'FolioHybridAurora.template.json'), 'utf8'));
  expect(written).toEqual(synthPhase('test12').json);
  // CDK's built-in validation is off unless asked for: no report.
  expect(existsSync(join(r.outdir, 'validation-report.json'))).toBe(false);
}, 60_000);

test("-c validate=true runs CDK's built-in CloudFormation validation, which finds nothing", async () => {
  const r = await runApp({ scenario: 'test12', validate: 'true' });
  expect(r.status).toBe(0);
  const report = JSON.parse(readFileSync(join(r.outdir, 'validation-report.json'), 'utf8'));
  expect(report.pluginReports.map((p: { pluginName: string; violations: unknown[] }) => [p.pluginName, p.violations])).toEqual([
    ['CloudFormation Validate', []],
  ]);
}, 60_000);

test('a Temporal scenario synthesizes exactly its data and observability stacks, deterministically', async () => {
  const runs = await Promise.all([runApp({ scenario: 'temporal-150wps' }), runApp({ scenario: 'temporal-150wps' })]);
  for (const r of runs) {
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const manifest = JSON.parse(readFileSync(join(r.outdir, 'manifest.json'), 'utf8'));
    const stacks = Object.entries(manifest.artifacts as Record<string, any>).filter(([, a]) => a.type === 'aws:cloudformation:stack');
    expect(stacks.map(([id]) => id)).toEqual(['TemporalDsql', 'TemporalDsqlObservability']);
  }
  for (const file of ['TemporalDsql.template.json', 'TemporalDsqlObservability.template.json']) {
    const [a, b] = runs.map((r) => readFileSync(join(r.outdir, file), 'utf8'));
    expect(a).toBe(b);
  }
}, 60_000);

test('synth is deterministic: two runs write byte-identical templates', async () => {
  const [a, b] = (await Promise.all([runApp({ scenario: 'test7' }), runApp({ scenario: 'test7' })])).map((r) =>
    readFileSync(join(r.outdir, 'FolioHybridAurora.template.json'), 'utf8'),
  );
  expect(a).toBe(b);
}, 60_000);

// Every bad context's exit and message: test/bad-input.test.ts. Here: it stops before writing anything.
test('a bad scenario synthesizes nothing', async () => {
  const r = await runApp({ scenario: 'test-12' });
  expect(r.status).toBe(1);
  expect(readdirSync(r.outdir).filter((f) => f.endsWith('.template.json'))).toEqual([]);
}, 30_000);

test.each([
  ['a bad scenario', ['-c', 'scenario=tset12'], 'error: unknown scenario "tset12" (did you mean "test12"?); valid: baseline'],
  [
    'a context key given twice with two values',
    ['-c', 'scenario=test12', '-c', 'scenario=test13'],
    'error: -c scenario is given 2 times (test12, test13): give it once, with the one value meant',
  ],
])(
  'through the CDK CLI, %s fails before anything is synthesized',
  (_, context, message) => {
    const outdir = tempDir('cdk-cli-');
    const r = spawnSync(join(ROOT, 'node_modules/.bin/cdk'), ['synth', '-q', ...context, '-o', outdir], {
      cwd: ROOT,
      encoding: 'utf8',
      env: hermeticEnv({}),
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(message);
    expect(existsSync(join(outdir, 'FolioHybridAurora.template.json'))).toBe(false);
  },
  30_000,
);
