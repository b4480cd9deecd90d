import { resolveScenario, type TemporalScenario } from '../../../../../config';
import { TEMPORAL_CLOUD_ACTIONS } from '../../../../../config/temporal-cloud-prices';
import { actionsCosting, againstTemporalCloud, cloudListPrice, cloudPerMillionWorkflows } from '../../../../../lib/temporal/commands/shared/temporal-cloud';
import { ACTIONS_PER_WORKFLOW } from '../../../../../lib/temporal/contract/benchmark-actions';

/* A preset against Temporal Cloud's pay-as-you-go list price for the same month's actions. */

test('the tiers rise in bound and fall in price, as the published table does', () => {
  const { tiers } = TEMPORAL_CLOUD_ACTIONS;
  tiers.slice(1).forEach((t, i) => {
    expect(t.upToMillions).toBeGreaterThan(tiers[i].upToMillions);
    expect(t.usdPerMillion).toBeLessThan(tiers[i].usdPerMillion);
  });
});

test.each([
  [0, 0, 0],
  [5, 250, 0],
  // 5M at $50, then 2M at $45.
  [7, 340, 0],
  // Every tier whole: 250 + 225 + 400 + 1,050 + 1,500 + 2,500.
  [200, 5925, 0],
  // Past the tiers, at the last tier's price, and counted as such.
  [300, 8425, 100],
])('%sM actions a month list at $%s, %sM past the tiers', (millions, price, past) => {
  expect(cloudListPrice(millions)).toEqual({ usd: price, pastTiersMillions: past });
});

test.each([1, 5, 7.5, 49, 200, 777.6])('the actions a price buys are the inverse of the price: %sM', (millions) => {
  const { usd } = cloudListPrice(millions);
  expect(actionsCosting(usd).millions).toBeCloseTo(millions, 6);
  expect(actionsCosting(usd).pastTiers).toBe(millions > 200);
});

test("temporal-150wps: the month's actions at its rate, its list price, and a break-even rate at which both cost the same", () => {
  const { preset } = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
  const c = againstTemporalCloud(preset, 150, 24, 250);
  const [row] = c.rows;
  // 150/s × 86,400 s × 30 days × 2 actions (the simple workflow's start and its activity).
  expect(row[0]).toBe('2 (simple: its start, 1 activity start)');
  expect(row[1]).toBe('778M (150/s, 24 h a day, 30 days)');
  expect(row[2]).toBe('$7,500.00');
  expect(row[4]).toBe(`$${(5925 + (777.6 - 200) * 25).toLocaleString('en-US', { minimumFractionDigits: 2 })} (past the tiers: by contract)`);
  // $7,500 buys 263M actions a month: 263M / (2 × 2,592,000 s) workflows a second.
  expect(row[5]).toBe(`${Number(((200 + (7500 - 5925) / 25) / (2 * 2.592)).toPrecision(3))} workflows/s (past the tiers)`);
  expect(c.notes.join(' ')).toMatch(/past that it prices by contract/);
});

test('a load inside the tiers says nothing of contracts', () => {
  const { preset } = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
  const c = againstTemporalCloud(preset, 1, 1, 1);
  expect(c.rows[0][4]).not.toMatch(/contract/);
  expect(c.notes.join(' ')).not.toMatch(/contract/);
});

test("a million workflows at Temporal Cloud's list price: the first tier's price per action while the month stays in it, less per workflow as the month grows", () => {
  const [first] = TEMPORAL_CLOUD_ACTIONS.tiers;
  const actions = ACTIONS_PER_WORKFLOW.simple.actions;
  // 0.01 workflows/s for an hour a day: well inside the first tier.
  expect(cloudPerMillionWorkflows('simple', 0.01, 1)).toBeCloseTo(first.usdPerMillion * actions, 6);
  expect(cloudPerMillionWorkflows('simple', 1000, 24)).toBeLessThan(first.usdPerMillion * actions);
});
