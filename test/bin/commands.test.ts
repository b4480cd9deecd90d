import { runCli } from '../support/cli';

/*
 * The offline commands as a user runs them: output on stdout, one-line errors, exit codes. The
 * README's own examples (plan test11 -> test12, cost and capacity of temporal-150wps) run, with
 * what they print, in test/docs/readme-examples.test.ts; here, the JSON forms.
 */

test('plan --json: the same transition as data, nothing unsafe', async () => {
  const json = await runCli('plan.ts', ['--from', 'test11', '--to', 'test12', '--json']);
  expect(json.stderr).toBe('');
  expect(json.status).toBe(0);
  expect(JSON.parse(json.stdout)).toMatchObject({ from: 'test11', to: 'test12', unsafe: 0 });
}, 60_000);

test('cost --json of a FOLIO phase at an observed average', async () => {
  const out = await runCli('cost.ts', ['--scenario', 'test10', '--observed-acu', '12.5', '--json']);
  expect(out.status).toBe(0);
  expect(JSON.parse(out.stdout).sections[1].subtotal).toBeCloseTo(36, 6);
}, 30_000);

// Their bad arguments: test/bad-input.test.ts.
