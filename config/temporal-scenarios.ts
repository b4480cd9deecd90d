import { chain, whole } from './scenario-steps';
import { presetTitle, type TemporalScenarioInput } from './temporal-schema';

/*
 * One preset per target rate. temporal-150wps is the seed's environment, number for number; the
 * smaller ones are the reference deployment's scale-services presets, with instance counts from
 * the capacity model (config/packing.ts). A switch is one deploy that changes services, pools and
 * dynamic config in place; the store and visibility domain stay the same resources throughout.
 */

/** The seed's dynamic config (numHistoryShards is static: see the environment). */
const BENCHMARK_DYNAMIC_CONFIG = {
  'frontend.rps': 8000,
  'frontend.namespaceRPS': 8000,
  'frontend.namespaceCount': 4000,
  'matching.numTaskqueueWritePartitions': 32,
  'matching.numTaskqueueReadPartitions': 32,
  'matching.forwarderMaxOutstandingPolls': 40,
  'matching.forwarderMaxRatePerSecond': 400,
  'matching.forwarderMaxOutstandingTasks': 400,
  'matching.maxTaskBatchSize': 200,
  'matching.getTasksBatchSize': 2000,
  // The seed ran with eager activities off, the default of its server (1.30 code, as the DSQL
  // fork still is); upstream 1.32 turns them on, which skips matching for activities. Said here,
  // the presets behave the same on either server.
  'system.enableActivityEagerExecution': false,
};

/**
 * The seed's connection controls: the cluster-wide counter at DSQL's 100 new connections/s, no
 * reservoir, no lease (all three are the DSQL plugin's: test/fixtures/dsql-fork).
 */
const DSQL = { engine: 'dsql', connections: { limiter: { kind: 'counter', perSecond: 100, maxWait: '30s' } } } as const;
/** The seed's pool: 50 connections per task, all kept warm, in every role. */
const SEED_POOLS = {
  history: { maxConns: 50, maxIdleConns: 50 },
  matching: { maxConns: 50, maxIdleConns: 50 },
  frontend: { maxConns: 50, maxIdleConns: 50 },
  worker: { maxConns: 50, maxIdleConns: 50 },
};
/** The reservoir as the reference ran it at ~1,170 wps (11m, 2m jitter, 45s guard), at the fork's other defaults. */
const FORK_RESERVOIR = { baseLifetime: '11m', lifetimeJitter: '2m', guardWindow: '45s', initialFillTimeout: '30s', inflightLimit: 8 };

type Preset = Omit<TemporalScenarioInput, 'title'> & { readonly note?: string };

// Each preset is the one before it (or the one it names in `from`) with what its sizing changed.
const PRESETS = chain<Preset, 'note' | 'recorded'>(
  ['note', 'recorded'],
  {
    name: 'temporal-25wps',
    note: 'the smallest preset, a working cluster for smoke runs',
    store: DSQL,
    capacity: { main: { instanceType: 'm7g.2xlarge', instances: 3 }, benchmark: { instanceType: 'm7g.2xlarge', maxInstances: 1 } },
    services: {
      history: { replicas: 2, vcpu: 1, memoryGiB: 4 },
      matching: { replicas: 2, vcpu: 0.5, memoryGiB: 2 },
      frontend: { replicas: 1, vcpu: 0.5, memoryGiB: 2 },
      worker: { replicas: 1, vcpu: 0.5, memoryGiB: 1 },
    },
    pools: SEED_POOLS,
    dynamicConfig: BENCHMARK_DYNAMIC_CONFIG,
    visibility: { instanceType: 'm6g.large.search', instances: 3, volumeGiB: 50 },
    ui: true,
    dashboards: true,
    benchmark: {
      fleet: 'external',
      workers: { replicas: 1, vcpu: 2, memoryGiB: 4 },
      generator: { vcpu: 1, memoryGiB: 2 },
      targetRate: 25,
      workflowType: 'simple',
      namespace: 'benchmark',
      duration: '5m',
      rampUp: '30s',
    },
  },
  {
    name: 'temporal-50wps',
    capacity: { main: { instances: 4 } },
    services: { history: { replicas: 3 }, matching: { vcpu: 1 }, frontend: { replicas: 2 }, worker: { replicas: 2 } },
    benchmark: { workers: { replicas: 2 }, targetRate: 50 },
  },
  {
    name: 'temporal-75wps',
    capacity: { main: { instances: 5 }, benchmark: { maxInstances: 2 } },
    services: { history: { replicas: 4, vcpu: 2, memoryGiB: 8 }, matching: { replicas: 3 }, frontend: { vcpu: 1, memoryGiB: 4 } },
    benchmark: { workers: { replicas: 3 }, targetRate: 75 },
  },
  {
    name: 'temporal-100wps',
    capacity: { main: { instances: 6 }, benchmark: { maxInstances: 3 } },
    services: { history: { replicas: 6 }, matching: { replicas: 4 }, frontend: { replicas: 3 } },
    // No UI: the pool's 18 awsvpc task slots are full while history rolls; a 7th instance would hold it.
    ui: false,
    dashboards: false,
    benchmark: { workers: { replicas: 4 }, targetRate: 100 },
  },
  {
    name: 'temporal-150wps',
    note: "the seed's benchmark, number for number",
    capacity: { main: { instances: 10 }, benchmark: { maxInstances: 4 } },
    services: { history: { replicas: 8, vcpu: 4 }, matching: { replicas: 6 }, frontend: { replicas: 4, vcpu: 2 } },
    ui: true,
    dashboards: true,
    benchmark: { workers: { replicas: 6 }, targetRate: 150 },
    recorded: {
      achievedWps: 136.74,
      workflowsCompleted: 41052,
      latencyMs: { p50: 197, p95: 220, p99: 259, max: 594 },
      dsqlTxPerMinute: { total: 272000, readOnly: 193000 },
      dsqlConnections: 1000,
    },
  },
  {
    name: 'temporal-400wps',
    note: 'Graviton4, sized by the capacity model between the seed and the reference 800 wps plan',
    capacity: { main: { instanceType: 'm8g.4xlarge', instances: 7 }, benchmark: { instanceType: 'm8g.4xlarge' } },
    services: { history: { replicas: 10 }, matching: { replicas: 10 }, frontend: { replicas: 6 } },
    // History does most of the persistence work: it gets the largest pool, as in the 800 wps plan.
    pools: { history: { maxConns: 150, maxIdleConns: 150 }, matching: { maxConns: 100, maxIdleConns: 100 }, frontend: { maxConns: 75, maxIdleConns: 75 } },
    dynamicConfig: {
      'frontend.rps': 10_000,
      'frontend.namespaceRPS': 10_000,
      'history.transferTaskBatchSize': 200,
      'history.timerTaskBatchSize': 200,
      'system.enableActivityEagerExecution': true,
    },
    benchmark: { workers: { replicas: 12 }, generator: { vcpu: 2, memoryGiB: 4 }, targetRate: 400 },
  },
  {
    name: 'temporal-800wps',
    note: "the reference deployment's capacity plan",
    capacity: { main: { instances: 10 }, benchmark: { maxInstances: 10 } },
    services: { history: { replicas: 16 }, matching: { replicas: 16 }, frontend: { replicas: 9 }, worker: { replicas: 3 } },
    // 16 × 300 + 16 × 150 + 9 × 100 + 3 × 50 = 8,250 of DSQL's 10,000 connections.
    pools: { history: { maxConns: 300, maxIdleConns: 300 }, matching: { maxConns: 150, maxIdleConns: 150 }, frontend: { maxConns: 100, maxIdleConns: 100 } },
    // At 150% a rolling deploy of history would open 8 × 300 more (10,650 in all): one extra task at a time.
    deployment: { maximumPercent: 110 },
    // The reference's dynamic config for its 800 wps plan and ~1,170 wps run.
    dynamicConfig: {
      'frontend.namespaceRPS': 5_000,
      'matching.numTaskqueueWritePartitions': 16,
      'matching.numTaskqueueReadPartitions': 16,
      'matching.forwarderMaxOutstandingPolls': 10,
      'matching.forwarderMaxOutstandingTasks': 10,
      'system.enableEagerWorkflowStart': true,
    },
    benchmark: { workers: { replicas: 30, vcpu: 4, memoryGiB: 8 }, generator: { vcpu: 4, memoryGiB: 8 }, targetRate: 800 },
  },
  {
    name: 'temporal-1200wps',
    note: 'the configuration with which the reference deployment sustained about 1,170 workflows/s (iw/temporal-dsql-deploy-ecs, docs/bench-report-2026-02-06.md)',
    // The report's reservoir (11m lifetime, 2m jitter, 45s guard) at the plugin's other defaults, and its lease.
    store: { connections: { reservoir: FORK_RESERVOIR, lease: { blockSize: 100, blockCount: 100, ttl: '3m', renewInterval: '1m' } } },
    services: { worker: { replicas: 4 } },
    // The report's per-replica pools; the worker role's it does not give (the plugin's 50). One
    // extra task at a time on a deploy, as the 800 wps plan: a history task leases 300 slots.
    pools: { history: { maxConns: 220, maxIdleConns: 220 }, matching: { maxConns: 100, maxIdleConns: 100 }, frontend: { maxConns: 80, maxIdleConns: 80 } },
    benchmark: { targetRate: 1200 },
  },
  {
    name: 'temporal-2000wps',
    note: 'a plan past the reference, not yet measured: the servers scaled with the rate, pools sized to what the reference used (its peak in use was 231 connections cluster-wide)',
    store: {
      connections: {
        // Spends DSQL's burst of 1,000 first: a rolling deploy's new tasks fill at once.
        limiter: { kind: 'token-bucket', burst: 1000 },
        // Blocks of 50 fit pools of 150 and 50 exactly: no slot leased and left idle.
        lease: { blockSize: 50, blockCount: 200 },
      },
    },
    capacity: { main: { instances: 12 }, benchmark: { maxInstances: 9 } },
    services: { history: { replicas: 24 }, matching: { replicas: 20 }, frontend: { replicas: 12 } },
    pools: { history: { maxConns: 150, maxIdleConns: 150 }, matching: { maxConns: 50, maxIdleConns: 50 }, frontend: { maxConns: 50, maxIdleConns: 50 } },
    // As many workers as the vCPU quota leaves (limits.ec2VcpuQuota): the reference's 30 were its
    // bottleneck at 1,170/s (schedule-to-start P50 53 s), so a run past that wants more.
    benchmark: { workers: { replicas: 32 }, targetRate: 2000 },
  },
  {
    name: 'temporal-aurora-150wps',
    from: 'temporal-150wps',
    note: "the seed's sizing on the upstream server; the store is the one difference",
    // 20 server tasks x 50 connections = 1,000 of the 5,000 max_connections a 64 GiB writer allows.
    store: whole({ engine: 'aurora-postgresql', writer: { instanceClass: 'db.r7g.2xlarge' } }),
  },
);

export const TEMPORAL_SCENARIOS: readonly TemporalScenarioInput[] = PRESETS.scenarios.map(({ note, name, ...preset }) => ({
  name,
  title: presetTitle({ name, ...preset }, note),
  ...preset,
}));

/** The scenario each follows, whose template its snapshot is diffed from. */
export const TEMPORAL_PREDECESSORS = PRESETS.predecessors;
