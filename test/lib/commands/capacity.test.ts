import { ConfigError, loadCatalog, resolveScenario } from '../../../config';
import { loadPrices } from '../../../config/prices';
import { planPool, temporalPoolSpecs } from '../../../config/packing';
import { capacityReport, renderCapacity } from '../../../lib/commands/capacity';
import { editedCatalog } from '../../support/catalog';

const eu = loadPrices('eu-west-1');

describe('temporal-150wps', () => {
  const report = capacityReport(resolveScenario({ scenario: 'temporal-150wps' }), eu);
  const [main, bench] = report.pools;

  test('main: fits on its 10 instances, which is also the fewest; 8 with ENI trunking', () => {
    expect(main.plan.fits).toBe(true);
    expect(main.plan.smallestFitting).toBe(10);
    expect(main.otherTrunking).toMatchObject({ trunking: true, smallestFitting: 8 });
    expect(main.otherTrunking.usdPerDay).toBeCloseTo(8 * 0.3638 * 24, 6);
    expect(main.usdPerDay).toBeCloseTo(10 * 0.3638 * 24, 6);
  });

  test('benchmark: 3 instances would do where 4 are configured', () => {
    expect(bench.plan.smallestFitting).toBe(3);
  });

  test('lists every instance size, cheapest first, leaving out sizes a task cannot fit on', () => {
    const costs = main.alternatives.map((a) => a.usdPerDay);
    expect(costs).toEqual([...costs].sort((a, b) => (a ?? Infinity) - (b ?? Infinity)));
    // A 4 vCPU history task does not fit on a 2 vCPU m7g.large.
    expect(main.alternatives.find((a) => a.instanceType === 'm7g.large')!.smallestFitting).toBeUndefined();
  });

  test('renders how full each pool is', () => {
    const md = renderCapacity(report);
    expect(md).toContain(
      '| main | 10 × m7g.2xlarge | 8 vCPU, 30.6 GiB, 3 tasks | 47 / 80 vCPU (59%) | 94.0 / 306.3 GiB (31%) | 20 / 30 (67%) | yes; tightest: a rolling deploy of history | 10 × m7g.2xlarge ($87.31/day) | 8 × m7g.2xlarge ($69.85/day) | $87.31 |',
    );
    expect(md).toContain('| 1 | 2 × history | 8 vCPU | 16.0 GiB | 2/3 |');
  });
});

test('the command and the synth-time check are one model: the same shortfall, word for word', () => {
  const catalog = editedCatalog((c) => {
    c.temporal.scenarios.find((s: { name: string }) => s.name === 'temporal-150wps').capacity.main.instances = 9;
  });
  expect(() => loadCatalog(catalog)).toThrow(ConfigError);
  let synthMessage = '';
  try {
    loadCatalog(catalog);
  } catch (e) {
    synthMessage = (e as Error).message;
  }
  const { temporal } = loadCatalog();
  const seed = temporal.scenarios.find((s) => s.name === 'temporal-150wps')!;
  const nine = { ...seed, capacity: { ...seed.capacity, main: { ...seed.capacity.main, instances: 9 } } };
  const problem = planPool(temporalPoolSpecs(temporal.environment, nine)[0]).problem!;
  expect(synthMessage).toContain(problem);
});

test('a FOLIO phase has no ECS pools: one line saying what is valid', () => {
  expect(() => capacityReport(resolveScenario({ scenario: 'test3' }), loadPrices('us-east-1'))).toThrow(
    'capacity plans ECS capacity pools; "test3" is a FOLIO phase with none (valid: a Temporal preset)',
  );
});
