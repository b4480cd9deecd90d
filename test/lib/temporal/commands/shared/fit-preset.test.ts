import { CATALOG, loadCatalog } from '../../../../../config';
import type { PresetInput } from '../../../../../lib/temporal/commands/capacity/preset-rule';
import { fitPools, parsed } from '../../../../../lib/temporal/commands/shared/fit-preset';

/* A preset fitted to its pools: the packing model's fewest instances, and nothing moved when it already fits. */

const env = loadCatalog().temporal.environment;
const PRESETS = CATALOG.temporal.scenarios as readonly PresetInput[];

test('fitPools grows a pool that does not hold its tasks to the fewest that do, and says packing binds', () => {
  const p = structuredClone(PRESETS.find((x) => x.name === 'temporal-150wps')!);
  p.capacity.main.instances = 1;
  const moved = fitPools(p, env);
  expect(moved).toEqual([expect.stringMatching(/^capacity\.main: \d+ × m7g\.2xlarge, the fewest that hold .* not 1 \(packing binds\)$/)]);
  expect(p.capacity.main.instances).toBeGreaterThan(1);
  expect(fitPools(p, env)).toEqual([]);
});

test('a preset that already fits is left as it is', () => {
  expect.hasAssertions();
  for (const p of PRESETS) {
    const copy = structuredClone(p);
    expect([p.name, fitPools(copy, env)]).toEqual([p.name, []]);
    expect(copy).toEqual(p);
  }
});

test('a preset config would refuse is refused in one line naming the field', () => {
  const p = structuredClone(PRESETS[0]);
  (p.services.history as { replicas: number }).replicas = -1;
  expect(() => parsed(p)).toThrow(/^the proposed preset is not valid: /);
});
