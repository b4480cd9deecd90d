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
  expect(out.stdout).toContain('| **Total** | **$246.20** |');
  const json = JSON.parse((await runCli('cost.ts', ['--scenario', 'test10', '--observed-acu', '12.5', '--json'])).stdout);
  expect(json.sections[1].subtotal).toBeCloseTo(36, 6);
}, 30_000);

test('capacity prints each pool', async () => {
  const out = await runCli('capacity.ts', ['--scenario', 'temporal-150wps']);
  expect(out.status).toBe(0);
  expect(out.stdout).toContain('| benchmark | 4 × m7g.2xlarge |');
}, 30_000);

// Their bad arguments: test/bad-input.test.ts.
