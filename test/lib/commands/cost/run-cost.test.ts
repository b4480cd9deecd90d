import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../../../config';
import { runCost } from '../../../../lib/commands/cost/run-cost';

/* The cost command's flow, called as its entry point calls it; its model: cost-model.test.ts. */

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'run-cost-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const report = (scenario: string, family: string, metrics: object) => {
  const file = join(dir, `${scenario}.json`);
  writeFileSync(
    file,
    JSON.stringify({ schemaVersion: 1, family, scenario, window: { start: '2026-01-21T10:00:00.000Z', end: '2026-01-21T12:00:00.000Z' }, metrics }),
  );
  return file;
};

test("a FOLIO phase at a report's average ACU: the estimate says where the figure came from", async () => {
  const r = await runCost({ scenario: 'test10', report: report('test10', 'folio', { acu: { average: 25.6 } }) });
  expect(r.stdout).toContain('test10, 2026-01-21T10:00:00Z to 2026-01-21T12:00:00Z');
  expect(r.failure).toBeUndefined();
});

test('--json returns the estimate as data, its sections adding up to its total', async () => {
  const estimate = JSON.parse((await runCost({ scenario: 'temporal-150wps', json: true })).stdout);
  expect(estimate.sections.reduce((a: number, s: { subtotal: number }) => a + s.subtotal, 0)).toBeCloseTo(estimate.total, 6);
});

test("a report of another phase, a figure given twice, and an ACU outside the phase's range are refused", async () => {
  await expect(runCost({ scenario: 'test10', report: report('test11', 'folio', { acu: { average: 12 } }) })).rejects.toThrow(
    /is a report of test11, not of test10/,
  );
  await expect(runCost({ scenario: 'test10', observedAcu: '12', report: report('test10', 'folio', { acu: { average: 12 } }) })).rejects.toThrow(
    new ConfigError('--observed-acu and --report both say what the load was (valid: one of them)'),
  );
  await expect(runCost({ scenario: 'test10', observedAcu: '250' })).rejects.toThrow(/is outside test10's range/);
});

test('--json of a FOLIO phase at an observed average: the Serverless section at that average', async () => {
  const estimate = JSON.parse((await runCost({ scenario: 'test10', observedAcu: '12.5', json: true })).stdout);
  expect(estimate.sections[1].subtotal).toBeCloseTo(36, 6);
});
