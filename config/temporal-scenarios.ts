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

const DSQL = { engine: 'dsql' } as const;
/** The seed's pool: 50 connections per task, all kept warm, in every role. */
const SEED_POOLS = {
  history: { maxConns: 50, maxIdleConns: 50 },
  matching: { maxConns: 50, maxIdleConns: 50 },
  frontend: { maxConns: 50, maxIdleConns: 50 },
  worker: { maxConns: 50, maxIdleConns: 50 },
};
const VISIBILITY = { instanceType: 'm6g.large.search', instances: 3, volumeGiB: 50 };
const WORKLOAD = { workflowType: 'simple' as const, namespace: 'benchmark', duration: '5m', rampUp: '30s' };

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
    dynamicConfig: {
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
    },
    visibility: VISIBILITY,
    benchmark: {
      fleet: 'external',
      workers: { replicas: 30, vcpu: 4, memoryGiB: 8 },
      generator: { vcpu: 4, memoryGiB: 8 },
      targetRate: 800,
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
