import { runCli } from '../support/cli';

/* The offline commands as a user runs them: output on stdout, one-line errors, exit codes. */

test('plan test11 -> test12 prints the in-place change and exits 0', async () => {
  const out = await runCli('plan.ts', ['--from', 'test11', '--to', 'test12']);
  expect(out.stderr).toBe('');
  expect(out.status).toBe(0);
  expect(out.stdout).toContain('ServerlessV2ScalingConfiguration: {"MaxCapacity":64,"MinCapacity":0.5} -> {"MaxCapacity":64,"MinCapacity":5} (update in place)');
  const json = await runCli('plan.ts', ['--from', 'test11', '--to', 'test12', '--json']);
  expect(JSON.parse(json.stdout)).toMatchObject({ from: 'test11', to: 'test12', unsafe: 0 });
}, 60_000);

test('cost prints the seed-shaped table', async () => {
  const out = await runCli('cost.ts', ['--scenario', 'temporal-150wps']);
  expect(out.status).toBe(0);
  expect(out.stdout).toContain('| **Total** | **$245.40** |');
  const json = JSON.parse((await runCli('cost.ts', ['--scenario', 'test10', '--observed-acu', '12.5', '--json'])).stdout);
  expect(json.sections[1].subtotal).toBeCloseTo(36, 6);
}, 30_000);

test('capacity prints each pool', async () => {
  const out = await runCli('capacity.ts', ['--scenario', 'temporal-150wps']);
  expect(out.status).toBe(0);
  expect(out.stdout).toContain('| benchmark | 4 × m7g.2xlarge |');
}, 30_000);

test.each([
  ['plan.ts', ['--from', 'test11'], /^error: required option '--to <scenario>' not specified$/],
  ['plan.ts', ['--from', 'test11', '--to', 'tset12'], /^error: unknown scenario "tset12" \(did you mean "test12"\?\); valid: baseline, /],
  ['plan.ts', ['--from', 'test11', '--to', 'temporal-150wps'], /^error: "test11" is a FOLIO phase and "temporal-150wps" a Temporal preset: a plan compares two scenarios of one family$/],
  ['cost.ts', [], /^error: no scenario given: pass --scenario <name> \(or --refresh-prices\)$/],
  ['cost.ts', ['--scenario', 'temporal-150wps', '--tx-rate', 'fast'], /^error: --tx-rate "fast" is not valid \(valid: a number from 0 to 1000000\)$/],
  ['cost.ts', ['--scenario', 'temporal-150wps', '--load-hours', '25'], /^error: --load-hours "25" is not valid \(valid: a number from 0 to 24\)$/],
  ['cost.ts', ['--scenario', 'test10', '--tx-rate', '5'], /^error: --tx-rate does not apply to test10 \(a FOLIO phase\)$/],
  ['cost.ts', ['--scenario', 'test10', '--report', 'no-such.json'], /^error: no-such.json: ENOENT: no such file or directory, open 'no-such.json' \(valid: a report.json written by the report command\)$/],
  ['capacity.ts', ['--scenario', 'test3'], /^error: capacity plans ECS capacity pools; "test3" is a FOLIO phase with none \(valid: a Temporal preset\)$/],
])('%s %j exits 1 with one line', async (script, args, message) => {
  const out = await runCli(script, args);
  expect(out.status).toBe(1);
  expect(out.stderr.trim()).toMatch(message);
  expect(out.stderr.trim().split('\n')).toHaveLength(1);
}, 30_000);
