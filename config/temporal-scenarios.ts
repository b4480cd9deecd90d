import type { TemporalScenarioInput } from './temporal-schema';

/*
 * Temporal on Aurora DSQL, one preset per target rate. temporal-150wps is the seed's
 * benchmark environment, number for number; the smaller presets are the reference
 * deployment's scale-services presets, with instance counts from the capacity model
 * (config/packing.ts): the smallest main pool that fits, and the seed's own counts at 150.
 *
 * Switching presets is one deploy: services, ASG sizes and dynamic config change in place;
 * the DSQL cluster, limiter table and visibility domain are the same resources throughout.
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
const VISIBILITY = { instanceType: 'm6g.large.search', instances: 3, volumeGiB: 50 };
const WORKLOAD = { workflowType: 'simple' as const, namespace: 'benchmark', duration: '5m', rampUp: '30s' };

/** The reservoir as the reference ran it at ~1,170 wps (11m, 2m jitter, 45s guard), at the fork's other defaults. */
const FORK_RESERVOIR = { baseLifetime: '11m', lifetimeJitter: '2m', guardWindow: '45s', initialFillTimeout: '30s', inflightLimit: 8 };

/** The reference's dynamic config for its 800 wps plan and ~1,170 wps run. */
const REFERENCE_DYNAMIC_CONFIG = {
  ...BENCHMARK_DYNAMIC_CONFIG,
  'frontend.rps': 10_000,
  'frontend.namespaceRPS': 5_000,
  'matching.numTaskqueueWritePartitions': 16,
  'matching.numTaskqueueReadPartitions': 16,
  'matching.forwarderMaxOutstandingPolls': 10,
  'matching.forwarderMaxOutstandingTasks': 10,
  'history.transferTaskBatchSize': 200,
  'history.timerTaskBatchSize': 200,
  'system.enableActivityEagerExecution': true,
  'system.enableEagerWorkflowStart': true,
};

/** The seed's environment; temporal-aurora-150wps differs from it only in the store. */
const SEED_150WPS: TemporalScenarioInput = {
  name: 'temporal-150wps',
  title: "The seed's benchmark: 150 workflows/s target, 136.74 achieved",
  store: DSQL,
  capacity: {
    main: { instanceType: 'm7g.2xlarge', instances: 10 },
    benchmark: { instanceType: 'm7g.2xlarge', maxInstances: 4 },
  },
  services: {
    history: { replicas: 8, vcpu: 4, memoryGiB: 8 },
    matching: { replicas: 6, vcpu: 1, memoryGiB: 2 },
    frontend: { replicas: 4, vcpu: 2, memoryGiB: 4 },
    worker: { replicas: 2, vcpu: 0.5, memoryGiB: 1 },
  },
  pools: SEED_POOLS,
  dynamicConfig: BENCHMARK_DYNAMIC_CONFIG,
  visibility: VISIBILITY,
  ui: true,
  dashboards: true,
  benchmark: {
    fleet: 'external',
    workers: { replicas: 6, vcpu: 2, memoryGiB: 4 },
    generator: { vcpu: 1, memoryGiB: 2 },
    targetRate: 150,
    ...WORKLOAD,
  },
  recorded: {
    achievedWps: 136.74,
    workflowsCompleted: 41052,
    latencyMs: { p50: 197, p95: 220, p99: 259, max: 594 },
    dsqlTxPerMinute: { total: 272000, readOnly: 193000 },
    dsqlConnections: 1000,
  },
};

export const TEMPORAL_SCENARIOS: readonly TemporalScenarioInput[] = [
  {
    name: 'temporal-25wps',
    title: 'Smallest preset: a working cluster for smoke runs at 25 workflows/s',
    store: DSQL,
    capacity: {
      main: { instanceType: 'm7g.2xlarge', instances: 3 },
      benchmark: { instanceType: 'm7g.2xlarge', maxInstances: 1 },
    },
    services: {
      history: { replicas: 2, vcpu: 1, memoryGiB: 4 },
      matching: { replicas: 2, vcpu: 0.5, memoryGiB: 2 },
      frontend: { replicas: 1, vcpu: 0.5, memoryGiB: 2 },
      worker: { replicas: 1, vcpu: 0.5, memoryGiB: 1 },
    },
    pools: SEED_POOLS,
    dynamicConfig: BENCHMARK_DYNAMIC_CONFIG,
    visibility: VISIBILITY,
    ui: true,
    dashboards: true,
    benchmark: {
      fleet: 'external',
      workers: { replicas: 1, vcpu: 2, memoryGiB: 4 },
      generator: { vcpu: 1, memoryGiB: 2 },
      targetRate: 25,
      ...WORKLOAD,
    },
  },
  {
    name: 'temporal-50wps',
    title: '50 workflows/s',
    store: DSQL,
    capacity: {
      main: { instanceType: 'm7g.2xlarge', instances: 4 },
      benchmark: { instanceType: 'm7g.2xlarge', maxInstances: 1 },
    },
    services: {
      history: { replicas: 3, vcpu: 1, memoryGiB: 4 },
      matching: { replicas: 2, vcpu: 1, memoryGiB: 2 },
      frontend: { replicas: 2, vcpu: 0.5, memoryGiB: 2 },
      worker: { replicas: 2, vcpu: 0.5, memoryGiB: 1 },
    },
    pools: SEED_POOLS,
    dynamicConfig: BENCHMARK_DYNAMIC_CONFIG,
    visibility: VISIBILITY,
    ui: true,
    dashboards: true,
    benchmark: {
      fleet: 'external',
      workers: { replicas: 2, vcpu: 2, memoryGiB: 4 },
      generator: { vcpu: 1, memoryGiB: 2 },
      targetRate: 50,
      ...WORKLOAD,
    },
  },
  {
    name: 'temporal-75wps',
    title: '75 workflows/s',
    store: DSQL,
    capacity: {
      main: { instanceType: 'm7g.2xlarge', instances: 5 },
      benchmark: { instanceType: 'm7g.2xlarge', maxInstances: 2 },
    },
    services: {
      history: { replicas: 4, vcpu: 2, memoryGiB: 8 },
      matching: { replicas: 3, vcpu: 1, memoryGiB: 2 },
      frontend: { replicas: 2, vcpu: 1, memoryGiB: 4 },
      worker: { replicas: 2, vcpu: 0.5, memoryGiB: 1 },
    },
    pools: SEED_POOLS,
    dynamicConfig: BENCHMARK_DYNAMIC_CONFIG,
    visibility: VISIBILITY,
    ui: true,
    dashboards: true,
    benchmark: {
      fleet: 'external',
      workers: { replicas: 3, vcpu: 2, memoryGiB: 4 },
      generator: { vcpu: 1, memoryGiB: 2 },
      targetRate: 75,
      ...WORKLOAD,
    },
  },
  {
    name: 'temporal-100wps',
    title: '100 workflows/s',
    store: DSQL,
    capacity: {
      main: { instanceType: 'm7g.2xlarge', instances: 6 },
      benchmark: { instanceType: 'm7g.2xlarge', maxInstances: 3 },
    },
    services: {
      history: { replicas: 6, vcpu: 2, memoryGiB: 8 },
      matching: { replicas: 4, vcpu: 1, memoryGiB: 2 },
      frontend: { replicas: 3, vcpu: 1, memoryGiB: 4 },
      worker: { replicas: 2, vcpu: 0.5, memoryGiB: 1 },
    },
    pools: SEED_POOLS,
    dynamicConfig: BENCHMARK_DYNAMIC_CONFIG,
    visibility: VISIBILITY,
    // No UI: the pool's 18 awsvpc task slots are full while history rolls; a 7th instance would hold it.
    ui: false,
    dashboards: false,
    benchmark: {
      fleet: 'external',
      workers: { replicas: 4, vcpu: 2, memoryGiB: 4 },
      generator: { vcpu: 1, memoryGiB: 2 },
      targetRate: 100,
      ...WORKLOAD,
    },
  },
  SEED_150WPS,
  {
    name: 'temporal-400wps',
    title: '400 workflows/s on Graviton4: sized by the capacity model between the seed and the reference 800 wps plan',
    store: DSQL,
    capacity: {
      main: { instanceType: 'm8g.4xlarge', instances: 7 },
      benchmark: { instanceType: 'm8g.4xlarge', maxInstances: 4 },
    },
    services: {
      history: { replicas: 10, vcpu: 4, memoryGiB: 8 },
      matching: { replicas: 10, vcpu: 1, memoryGiB: 2 },
      frontend: { replicas: 6, vcpu: 2, memoryGiB: 4 },
      worker: { replicas: 2, vcpu: 0.5, memoryGiB: 1 },
    },
    // History does most of the persistence work: it gets the largest pool, as in the 800 wps plan.
    pools: {
      history: { maxConns: 150, maxIdleConns: 150 },
      matching: { maxConns: 100, maxIdleConns: 100 },
      frontend: { maxConns: 75, maxIdleConns: 75 },
      worker: { maxConns: 50, maxIdleConns: 50 },
    },
    dynamicConfig: {
      ...BENCHMARK_DYNAMIC_CONFIG,
      'frontend.rps': 10_000,
      'frontend.namespaceRPS': 10_000,
      'history.transferTaskBatchSize': 200,
      'history.timerTaskBatchSize': 200,
      'system.enableActivityEagerExecution': true,
    },
    visibility: VISIBILITY,
    ui: true,
    dashboards: true,
    benchmark: {
      fleet: 'external',
      workers: { replicas: 12, vcpu: 2, memoryGiB: 4 },
      generator: { vcpu: 2, memoryGiB: 4 },
      targetRate: 400,
      ...WORKLOAD,
    },
  },
  {
    name: 'temporal-800wps',
    title: "The reference deployment's 800 workflows/s capacity plan: 10 × m8g.4xlarge per pool, pools of 300/150/100/50",
    store: DSQL,
    capacity: {
      main: { instanceType: 'm8g.4xlarge', instances: 10 },
      benchmark: { instanceType: 'm8g.4xlarge', maxInstances: 10 },
    },
    services: {
      history: { replicas: 16, vcpu: 4, memoryGiB: 8 },
      matching: { replicas: 16, vcpu: 1, memoryGiB: 2 },
      frontend: { replicas: 9, vcpu: 2, memoryGiB: 4 },
      worker: { replicas: 3, vcpu: 0.5, memoryGiB: 1 },
    },
    // 16 × 300 + 16 × 150 + 9 × 100 + 3 × 50 = 8,250 of DSQL's 10,000 connections.
    pools: {
      history: { maxConns: 300, maxIdleConns: 300 },
      matching: { maxConns: 150, maxIdleConns: 150 },
      frontend: { maxConns: 100, maxIdleConns: 100 },
      worker: { maxConns: 50, maxIdleConns: 50 },
    },
    // At 150% a rolling deploy of history would open 8 × 300 more (10,650 in all): one extra task at a time.
    deployment: { maximumPercent: 110 },
    dynamicConfig: REFERENCE_DYNAMIC_CONFIG,
    visibility: VISIBILITY,
    ui: true,
    dashboards: true,
    benchmark: {
      fleet: 'external',
      workers: { replicas: 30, vcpu: 4, memoryGiB: 8 },
      generator: { vcpu: 4, memoryGiB: 8 },
      targetRate: 800,
      ...WORKLOAD,
    },
  },
  {
    name: 'temporal-1200wps',
    title:
      'Measured by the reference deployment: about 1,170 workflows/s sustained (iw/temporal-dsql-deploy-ecs, docs/bench-report-2026-02-06.md), its configuration: 10 + 10 × m8g.4xlarge, pools of 220/100/80, the reservoir and the connection lease',
    store: {
      engine: 'dsql',
      connections: {
        limiter: { kind: 'counter', perSecond: 100, maxWait: '30s' },
        // The report's reservoir (11m lifetime, 2m jitter, 45s guard) at the plugin's other defaults.
        reservoir: FORK_RESERVOIR,
        lease: { blockSize: 100, blockCount: 100, ttl: '3m', renewInterval: '1m' },
      },
    },
    capacity: {
      main: { instanceType: 'm8g.4xlarge', instances: 10 },
      benchmark: { instanceType: 'm8g.4xlarge', maxInstances: 10 },
    },
    services: {
      history: { replicas: 16, vcpu: 4, memoryGiB: 8 },
      matching: { replicas: 16, vcpu: 1, memoryGiB: 2 },
      frontend: { replicas: 9, vcpu: 2, memoryGiB: 4 },
      worker: { replicas: 4, vcpu: 0.5, memoryGiB: 1 },
    },
    // The report's per-replica pools; the worker role's it does not give (the plugin's 50).
    pools: {
      history: { maxConns: 220, maxIdleConns: 220 },
      matching: { maxConns: 100, maxIdleConns: 100 },
      frontend: { maxConns: 80, maxIdleConns: 80 },
      worker: { maxConns: 50, maxIdleConns: 50 },
    },
    // One extra task at a time, as the 800 wps plan: a history task leases 300 slots.
    deployment: { maximumPercent: 110 },
    dynamicConfig: REFERENCE_DYNAMIC_CONFIG,
    visibility: VISIBILITY,
    ui: true,
    dashboards: true,
    benchmark: {
      fleet: 'external',
      workers: { replicas: 30, vcpu: 4, memoryGiB: 8 },
      generator: { vcpu: 4, memoryGiB: 8 },
      targetRate: 1200,
      ...WORKLOAD,
    },
  },
  {
    name: 'temporal-2000wps',
    title:
      'A plan past the reference, not yet measured: 2,000 workflows/s on 12 + 9 × m8g.4xlarge, the servers scaled with the rate, pools sized to what the reference used (its peak in use was 231 connections cluster-wide), the token bucket, the reservoir and a lease of 50-slot blocks',
    store: {
      engine: 'dsql',
      connections: {
        // Spends DSQL's burst of 1,000 first: a rolling deploy's new tasks fill at once.
        limiter: { kind: 'token-bucket', perSecond: 100, burst: 1000, maxWait: '30s' },
        reservoir: FORK_RESERVOIR,
        // Blocks of 50 fit pools of 150 and 50 exactly: no slot leased and left idle.
        lease: { blockSize: 50, blockCount: 200, ttl: '3m', renewInterval: '1m' },
      },
    },
    capacity: {
      main: { instanceType: 'm8g.4xlarge', instances: 12 },
      benchmark: { instanceType: 'm8g.4xlarge', maxInstances: 9 },
    },
    services: {
      history: { replicas: 24, vcpu: 4, memoryGiB: 8 },
      matching: { replicas: 20, vcpu: 1, memoryGiB: 2 },
      frontend: { replicas: 12, vcpu: 2, memoryGiB: 4 },
      worker: { replicas: 4, vcpu: 0.5, memoryGiB: 1 },
    },
    pools: {
      history: { maxConns: 150, maxIdleConns: 150 },
      matching: { maxConns: 50, maxIdleConns: 50 },
      frontend: { maxConns: 50, maxIdleConns: 50 },
      worker: { maxConns: 50, maxIdleConns: 50 },
    },
    deployment: { maximumPercent: 110 },
    dynamicConfig: REFERENCE_DYNAMIC_CONFIG,
    visibility: VISIBILITY,
    ui: true,
    dashboards: true,
    benchmark: {
      fleet: 'external',
      // As many as the vCPU quota leaves (limits.ec2VcpuQuota): the reference's 30 were its
      // bottleneck at 1,170/s (schedule-to-start P50 53 s), so a run past that wants more.
      workers: { replicas: 32, vcpu: 4, memoryGiB: 8 },
      generator: { vcpu: 4, memoryGiB: 8 },
      targetRate: 2000,
      ...WORKLOAD,
    },
  },
  {
    ...SEED_150WPS,
    name: 'temporal-aurora-150wps',
    title: "The seed's 150 workflows/s sizing on Aurora PostgreSQL (upstream server): the store is the one difference",
    // 20 server tasks x 50 connections = 1,000 of the 5,000 max_connections a 64 GiB writer allows.
    store: { engine: 'aurora-postgresql', writer: { instanceClass: 'db.r7g.2xlarge' } },
    recorded: undefined,
  },
];
