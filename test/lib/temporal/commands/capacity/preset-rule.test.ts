import { CATALOG } from '../../../../../config';
import { grownQuantity, neighboursOf, type PresetInput, ruleCounts, wholeUnits } from '../../../../../lib/temporal/commands/capacity/preset-rule';

/* The sizing rule on its own: where a rate falls, and the counts the line between two presets gives. */

const DSQL = (CATALOG.temporal.scenarios as readonly PresetInput[]).filter((p) => p.store.engine === 'dsql');
const byRate = [...DSQL].sort((a, b) => a.benchmark.targetRate - b.benchmark.targetRate);
const [smallest, top] = [byRate[0], byRate[byRate.length - 1]];

test('a rate falls at, between, below or above the presets', () => {
  expect.hasAssertions();
  for (const p of byRate) expect(neighboursOf(p.benchmark.targetRate, DSQL)).toMatchObject({ kind: 'at', lower: p, upper: p });
  const [a, b] = byRate.slice(-2);
  const mid = Math.floor((a.benchmark.targetRate + b.benchmark.targetRate) / 2);
  expect(neighboursOf(mid, DSQL)).toMatchObject({ kind: 'between', lower: a, upper: b });
  expect(neighboursOf(smallest.benchmark.targetRate - 1, DSQL)).toMatchObject({ kind: 'below', upper: smallest });
  expect(neighboursOf(top.benchmark.targetRate + 1, DSQL)).toMatchObject({ kind: 'above', upper: top });
});

test('a quantity lies on the line between the neighbours, grows in proportion past the top, and stays put below', () => {
  const lower = { ...smallest, benchmark: { ...smallest.benchmark, targetRate: 100 } };
  const upper = { ...smallest, benchmark: { ...smallest.benchmark, targetRate: 300 } };
  const q = (p: PresetInput) => (p === lower ? 10 : 30);
  expect(grownQuantity({ kind: 'between', lower, upper }, 150, q)).toBe(15);
  expect(grownQuantity({ kind: 'above', lower: upper, upper }, 600, q)).toBe(60);
  expect(grownQuantity({ kind: 'above', lower: upper, upper }, 600, q, false)).toBe(30);
  expect(grownQuantity({ kind: 'below', lower: upper, upper }, 50, q)).toBe(30);
});

test('whole units round up, but not for float error, and never to none', () => {
  expect(wholeUnits(46, 4)).toBe(12);
  expect(wholeUnits(0.1 + 0.2, 0.3)).toBe(1);
  expect(wholeUnits(12.000000001, 4)).toBe(3);
  expect(wholeUnits(12.01, 4)).toBe(4);
  expect(wholeUnits(0, 4)).toBe(1);
});

test("at a preset's rate the counts are that preset's, for every shipped DSQL preset", () => {
  expect.hasAssertions();
  for (const p of DSQL) {
    const c = ruleCounts(neighboursOf(p.benchmark.targetRate, DSQL), p.benchmark.targetRate);
    expect([c.mainInstances, c.benchmarkInstances, c.benchmarkWorkers]).toEqual([
      p.capacity.main.instances,
      p.capacity.benchmark.maxInstances,
      p.benchmark.workers.replicas,
    ]);
    expect(c.services).toEqual(Object.fromEntries(Object.entries(p.services).map(([r, s]) => [r, s.replicas])));
  }
});

test("between two presets, a role's count is its vCPUs on the line in tasks of the upper preset's size", () => {
  // Two neighbours whose history tasks differ in size: the count is of the upper's.
  const i = byRate.findIndex((p, k) => k > 0 && p.services.history.vcpu !== byRate[k - 1].services.history.vcpu);
  const [a, b] = [byRate[i - 1], byRate[i]];
  const rate = (a.benchmark.targetRate + b.benchmark.targetRate) / 2;
  const vcpus = (p: PresetInput) => p.services.history.replicas * p.services.history.vcpu;
  const n = neighboursOf(rate, DSQL);
  expect(n).toMatchObject({ kind: 'between', lower: a, upper: b });
  expect(ruleCounts(n, rate).services.history).toBe(Math.ceil((vcpus(n.lower) + vcpus(n.upper)) / 2 / n.upper.services.history.vcpu - 1e-9));
});
