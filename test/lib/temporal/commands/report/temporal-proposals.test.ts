import { resolveScenario, type TemporalScenario } from '../../../../../config';
import { proposeNextPreset } from '../../../../../lib/temporal/commands/report/temporal-proposals';

/* "What to try next" after a Temporal run: the remedy config names for the component ranked first. */

describe('a Temporal run: the remedy for the component ranked first, checked by config', () => {
  const scenario = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
  const run = (component: string | undefined, over: Record<string, unknown> = {}) => ({
    scenario: 'temporal-150wps',
    window: { minutes: 6, run: { start: '2026-01-21T10:00:00Z', end: '2026-01-21T10:05:00Z' } },
    configured: { targetRate: 150, serverTasks: 20 },
    server: { unread: null },
    bottlenecks: {
      ranked: component ? [{ component: component as any, says: `${component} held it back`, evidence: [`${component} figure 2 (above 1)`] }] : [],
      unjudged: [],
    },
    ...over,
  });

  test.each<[string, string, RegExp | string[]]>([
    // 9 workers need a fifth benchmark instance: the pool grows to the packing model's smallest fit.
    ['workers', 'proposed', ['capacity.benchmark.maxInstances: 4 -> 5', 'benchmark.workers.replicas: 6 -> 9']],
    ['history', 'proposed', ['capacity.main.instances: 10 -> 13', 'services.history.replicas: 8 -> 12']],
    ['matching', 'proposed', ['dynamicConfig.matching.numTaskqueueWritePartitions: 32 -> 64', 'dynamicConfig.matching.numTaskqueueReadPartitions: 32 -> 64']],
    ['store', 'proposed', /^pools\.history\.maxConns: 50 -> 75$/],
    ['generator', 'proposed', ['benchmark.generator.vcpu: 1 -> 2', 'benchmark.generator.memoryGiB: 2 -> 4']],
  ])('%s -> %s', (component, status, diff) => {
    const p = proposeNextPreset(run(component), scenario);
    expect({ status: p.status, rule: p.rule }).toEqual({ status, rule: component });
    if (Array.isArray(diff)) expect(p.next!.diff).toEqual(diff);
    else expect(p.next!.diff).toContainEqual(expect.stringMatching(diff));
  });

  test("within the headroom table: 800 wps pools times 1.5 would pass DSQL's connection limit, so config blocks it and says by how much", () => {
    const big = resolveScenario({ scenario: 'temporal-800wps' }) as TemporalScenario;
    const tasks = Object.values(big.preset.services).reduce((n, x) => n + x.replicas, 0);
    const p = proposeNextPreset(
      run('store', { scenario: 'temporal-800wps', configured: { targetRate: big.preset.benchmark.targetRate, serverTasks: tasks } }),
      big,
    );
    expect(p).toMatchObject({ status: 'blocked', rule: 'store' });
    expect(p.says).toMatch(
      /config refuses that change as it stands: .*may hold 12,825 DSQL connections .* over 9,000: the cluster's 10,000 less the 10% headroom/,
    );
  });

  test.each<[string, Record<string, unknown>, RegExp]>([
    ['the servers unread', { server: { unread: 'no Prometheus' } }, /^the servers' own metrics were not read \(no Prometheus\)/],
    ['a run too short', { window: { minutes: 2 } }, /^the window is 2 minutes long, shorter than the 3 a run is judged on/],
    ['another configuration', { configured: { targetRate: 400, serverTasks: 20 } }, /^the window ran another configuration than temporal-150wps has now/],
    [
      'nothing ranked, figures unjudged',
      { bottlenecks: { ranked: [], unjudged: ['storePoolWaitsPerMinute'] } },
      /^no bottleneck rule holds among the figures judged, and storePoolWaitsPerMinute had no data/,
    ],
  ])('nothing proposed: %s', (_name, over, says) => {
    expect(proposeNextPreset(run('workers', over), scenario)).toMatchObject({ status: 'unjudged', says: expect.stringMatching(says) });
  });

  test('nothing ranked, every figure judged: nothing to change', () => {
    expect(proposeNextPreset(run(undefined), scenario).status).toBe('unchanged');
  });
});
