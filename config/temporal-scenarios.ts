import type { TemporalScenarioInput } from './schema';

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
};

const DSQL = { engine: 'dsql' } as const;
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
    ...SEED_150WPS,
    name: 'temporal-aurora-150wps',
    title: "The seed's 150 workflows/s sizing on Aurora PostgreSQL (upstream server): the store is the one difference",
    // 20 server tasks x 50 connections = 1,000 of the 5,000 max_connections a 64 GiB writer allows.
    store: { engine: 'aurora-postgresql', writer: { instanceClass: 'db.r7g.2xlarge' } },
    recorded: undefined,
  },
];
