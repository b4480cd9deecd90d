import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_CONTEXT, synthPhase } from '../support/synth';

/*
 * bin/app.ts as the CDK CLI runs it: a separate process, context in CDK_CONTEXT_JSON, the
 * cloud assembly written to CDK_OUTDIR. No AWS credentials anywhere in its environment.
 */
const ROOT = join(__dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const outdirs: string[] = [];

function hermeticEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
  env.AWS_EC2_METADATA_DISABLED = 'true';
  // The validation engine has its own test (test/lint); here it would only cost seconds.
  env.CDK_VALIDATION = 'false';
  return env;
}

function runApp(context: Record<string, unknown>) {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-out-'));
  outdirs.push(outdir);
  const r = spawnSync(TSX, ['bin/app.ts'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: hermeticEnv({ CDK_CONTEXT_JSON: JSON.stringify({ ...CLI_CONTEXT, ...context }), CDK_OUTDIR: outdir }),
  });
  return { status: r.status, stderr: r.stderr, outdir };
}

afterAll(() => outdirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

test('synthesizes a phase with no credentials, the same template the tests check', () => {
  const r = runApp({ scenario: 'test12' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const written = JSON.parse(readFileSync(join(r.outdir, 'FolioHybridAurora.template.json'), 'utf8'));
  expect(written).toEqual(synthPhase('test12').json);
});

test('a Temporal scenario synthesizes exactly its data and observability stacks, deterministically', () => {
  const runs = [runApp({ scenario: 'temporal-150wps' }), runApp({ scenario: 'temporal-150wps' })];
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
});

test('synth is deterministic: two runs write byte-identical templates', () => {
  const [a, b] = [runApp({ scenario: 'test7' }), runApp({ scenario: 'test7' })].map((r) =>
    readFileSync(join(r.outdir, 'FolioHybridAurora.template.json'), 'utf8'),
  );
  expect(a).toBe(b);
});

test.each([
  ['no scenario', {}, /^error: no scenario given: pass -c scenario=<name>; valid: baseline, /],
  ['a misspelled scenario', { scenario: 'test-12' }, /^error: unknown scenario "test-12" \(did you mean "test12"\?\); valid: /],
  ['a misspelled context key', { scenario: 'test1', envNmae: 'x' }, /^error: unknown context key "envNmae" \(did you mean "envName"\?\)/],
  ['a bad fleet state', { scenario: 'temporal-150wps', fleet: 'stopped' }, /^error: fleet "stopped" is not valid \(valid: running, parked, external\)$/m],
])('%s: exit 1, one line, no stack trace, nothing synthesized', (_, context, message) => {
  const r = runApp(context);
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(message);
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\bat .*\.ts:\d+/);
  expect(readdirSync(r.outdir).filter((f) => f.endsWith('.template.json'))).toEqual([]);
});

test('through the CDK CLI, a bad scenario fails before anything is synthesized', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-cli-'));
  outdirs.push(outdir);
  const r = spawnSync(join(ROOT, 'node_modules/.bin/cdk'), ['synth', '-q', '-c', 'scenario=tset12', '-o', outdir], {
    cwd: ROOT,
    encoding: 'utf8',
    env: hermeticEnv({}),
  });
  expect(r.status).not.toBe(0);
  expect(r.stderr).toContain('error: unknown scenario "tset12" (did you mean "test12"?); valid: baseline');
  expect(existsSync(join(outdir, 'FolioHybridAurora.template.json'))).toBe(false);
}, 30_000);
