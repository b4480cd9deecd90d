import { type TemporalScenario, resolveScenario } from '../../config';
import { headroomProblems, temporalHeadroom } from '../../config/headroom';
import { editedCatalog, TEMPORAL_SCENARIO_NAMES } from '../../harness/catalog';

/* Seed 000's "Scaling Headroom" table and the reference's 800 wps plan, as the model computes them. */

const preset = (name: string, catalog?: Parameters<typeof resolveScenario>[1]) => resolveScenario({ scenario: name }, catalog) as TemporalScenario;

test("the seed's own table for its sizing: 1,000 of 10,000 connections and 112 of its 128-vCPU quota (88%)", () => {
  const seed = preset('temporal-150wps');
  const h = temporalHeadroom({ ...seed.environment, limits: { ...seed.environment.limits, ec2VcpuQuota: 128 } }, seed.preset);
  expect(h.connections!.steady).toEqual({ used: 1000, limit: 10_000, allowed: 9000 });
  expect(h.vcpus).toMatchObject({ used: 112, limit: 128, main: 80, benchmark: 32 });
  expect(Math.round((100 * h.vcpus.used) / h.vcpus.limit)).toBe(88);
  // A rolling deploy of history (8 tasks at 150%: 4 more) opens 4 × 50 more.
  expect(h.connections!.rolling).toMatchObject({ used: 1200, role: 'history', extra: 200 });
});

test("the reference's 800 wps plan: 8,250 of 10,000 connections, 320 of 384 vCPUs; one extra history task while it rolls", () => {
  const h = temporalHeadroom(preset('temporal-800wps').environment, preset('temporal-800wps').preset);
  expect(h.connections!.byRole).toEqual({
    history: { replicas: 16, maxConns: 300, surge: 1, perTask: 300, slots: 0 },
    matching: { replicas: 16, maxConns: 150, surge: 1, perTask: 150, slots: 0 },
    frontend: { replicas: 9, maxConns: 100, surge: 1, perTask: 100, slots: 0 },
    worker: { replicas: 3, maxConns: 50, surge: 1, perTask: 50, slots: 0 },
  });
  expect(h.connections!.steady.used).toBe(8250);
  expect(h.connections!.rolling).toMatchObject({ used: 8550, extra: 300, role: 'history', allowed: 9000 });
  expect(h.vcpus).toMatchObject({ used: 320, limit: 384, allowed: 345 });
  expect(headroomProblems('temporal-800wps', h, 10)).toEqual([]);
});

test('every preset passes its own check', () => {
  for (const name of TEMPORAL_SCENARIO_NAMES) {
    const s = preset(name);
    expect(headroomProblems(name, temporalHeadroom(s.environment, s.preset), s.environment.limits.headroomPercent)).toEqual([]);
  }
});

test('the Aurora store has no DSQL connection figure; its vCPUs still count', () => {
  const h = temporalHeadroom(preset('temporal-aurora-150wps').environment, preset('temporal-aurora-150wps').preset);
  expect(h.connections).toBeNull();
  expect(h.vcpus.used).toBe(112);
});

test('over a limit less the headroom: one sentence each, naming the preset, the figure and the limit', () => {
  const gentle = preset('temporal-800wps');
  const rough = temporalHeadroom(
    { ...gentle.environment, limits: { ...gentle.environment.limits, ec2VcpuQuota: 128 } },
    { ...gentle.preset, deployment: undefined },
  );
  expect(headroomProblems('temporal-800wps', rough, 10)).toEqual([
    "temporal-800wps may hold 10,650 DSQL connections (8,250 steady + 2,400 while history rolls; pools), over 9,000: the cluster's 10,000 less the 10% headroom (valid: smaller pools or fewer replicas, or a lower deployment.maximumPercent)",
    "temporal-800wps needs 320 vCPUs at its pools' maximum (160 main + 160 benchmark), over 115: the account's 128 vCPU quota (limits.ec2VcpuQuota) less the 10% headroom (valid: fewer or smaller instances, or a raised quota)",
  ]);
  // And synth says the same, in the config error's words.
  const catalog = editedCatalog((c) => {
    c.temporal.environment.limits.ec2VcpuQuota = 128;
  });
  expect(() => preset('temporal-800wps', catalog)).toThrow(
    /^config error in scenario "temporal-800wps": temporal-800wps needs 320 vCPUs .* over 115: the account's 128 vCPU quota/,
  );
});

describe("what the DSQL plugin's connection controls promise", () => {
  test("the reference's ~1,170 wps configuration: a reservoir doubles what a task may hold, the lease caps it at its whole blocks", () => {
    const s = preset('temporal-1200wps');
    const c = temporalHeadroom(s.environment, s.preset).connections!;
    // history: 220 in the pool + 220 ready = 440, but 3 blocks of 100 = 300 slots; matching: 200 against 1 block.
    expect(c.byRole.history).toMatchObject({ maxConns: 220, perTask: 300, slots: 300 });
    expect(c.byRole.matching).toMatchObject({ maxConns: 100, perTask: 100, slots: 100 });
    expect(c.steady.used).toBe(7700);
    expect(c.rolling).toMatchObject({ used: 8000, role: 'history', extra: 300 });
    expect(c.lease).toMatchObject({ used: 8000, limit: 10_000, role: 'history', blockSize: 100 });
    // Every connection once per 11 min + half the 2 min jitter, through a counter of 100/s with no burst.
    expect(c.rate).toMatchObject({ limiterPerSecond: 100, burst: 0, lifetimeSeconds: 720, rollingFillSeconds: 3, coldStartSeconds: 77 });
    expect(c.rate.churn).toMatchObject({ used: 10.7, limit: 100 });
    expect(c.held).toBe('pools and reservoirs, leased');
  });

  test("the token bucket's burst takes a rolling deploy's new connections at once; a cold start waits for the rest at 100/s", () => {
    const s = preset('temporal-2000wps');
    const c = temporalHeadroom(s.environment, s.preset).connections!;
    expect(c.rate).toMatchObject({ burst: 1000, rollingFillSeconds: 0, coldStartSeconds: 44 });
  });

  test('per task, each task paces itself: the pace and the burst are the sums over every task', () => {
    const s = preset('temporal-150wps');
    const c = temporalHeadroom(s.environment, { ...s.preset, store: { engine: 'dsql', connections: { limiter: { kind: 'per-task' } } } }).connections!;
    expect(c.rate).toMatchObject({ limiterPerSecond: 8 * 8 + 6 * 6 + 4 * 4 + 2 * 2, burst: 8 * 40 + 6 * 30 + 4 * 20 + 2 * 10 });
  });

  const refusals = (edit: (connections: any) => void) => {
    const s = preset('temporal-1200wps');
    const connections = structuredClone(s.preset.store.engine === 'dsql' ? s.preset.store.connections : undefined) as any;
    edit(connections);
    return headroomProblems('x', temporalHeadroom(s.environment, { ...s.preset, store: { engine: 'dsql', connections } }), 10);
  };

  test('a lease larger than the cluster is refused: it would let tasks open what DSQL refuses', () => {
    expect(refusals((c) => (c.lease.blockCount = 120))).toEqual([
      expect.stringMatching(/^x's lease offers 12,000 slots \(blockSize × blockCount\), over the cluster's 10,000 connections/),
    ]);
  });

  test('a lease too small for the tasks is refused: a task started while history rolls would get no blocks', () => {
    expect(refusals((c) => (c.lease.blockCount = 75))).toEqual([
      expect.stringMatching(
        /^x's tasks lease 8,000 slots while history rolls \(whole blocks of 100\), over the 7,500 the lease offers: a task started then gets fewer than its pool or none/,
      ),
    ]);
  });

  test('connections that expire faster than the limiter replaces them are refused', () => {
    expect(refusals((c) => Object.assign(c, { limiter: { kind: 'counter', perSecond: 5, maxWait: '30s' } }))).toEqual([
      expect.stringMatching(/^x replaces 10.7 connections\/s as they reach their 720-second lifetime, over 4: its limiter's 5\/s less the 10% headroom/),
    ]);
  });

  test('without the lease, a reservoir counts twice each pool: the same preset is over the cluster', () => {
    expect(refusals((c) => delete c.lease)).toEqual([
      expect.stringMatching(/^x may hold 12,520 DSQL connections \(12,080 steady \+ 440 while history rolls; pools and reservoirs\), over 9,000/),
    ]);
  });
});
