import type { TemporalScenario } from '../../../config';
import { connections, type IdleRule } from '../../platform/contract/idle-rule';
import { BENCHMARK_GENERATOR_FAMILY, BENCHMARK_WORKER_SERVICE } from './temporal-names';

/**
 * A Temporal environment's idle rules (none when its config turns idle off): its fleet parked;
 * with the Aurora store, also the store stopped once nothing connects to it (never while the
 * servers run: they hold their pools), which keeps a hibernated environment's store stopped
 * when Aurora restarts it after 7 days.
 */
export function temporalIdleRules(scenario: TemporalScenario): IdleRule[] {
  const idle = scenario.environment.spending.idle;
  if (idle.action === 'off') return [];
  if (idle.action !== 'park-fleet') return [];
  const cluster = scenario.environment.names.cluster;
  const fleet: IdleRule = {
    family: 'temporal',
    action: 'park-fleet',
    id: 'IdleFleet',
    metrics: [
      {
        id: 'workers',
        namespace: 'ECS/ContainerInsights',
        metricName: 'RunningTaskCount',
        dimensions: { ClusterName: cluster, ServiceName: BENCHMARK_WORKER_SERVICE },
        statistic: 'Maximum',
      },
      // A generator task reports once a minute while it runs: the count of reports is "running".
      {
        id: 'generators',
        namespace: 'ECS/ContainerInsights',
        metricName: 'CpuUtilized',
        dimensions: { ClusterName: cluster, TaskDefinitionFamily: BENCHMARK_GENERATOR_FAMILY },
        statistic: 'SampleCount',
      },
      {
        id: 'workerCpu',
        namespace: 'AWS/ECS',
        metricName: 'CPUUtilization',
        dimensions: { ClusterName: cluster, ServiceName: BENCHMARK_WORKER_SERVICE },
        statistic: 'Maximum',
      },
    ],
    rule: {
      kind: 'all',
      terms: [
        // Only an up fleet is parked: with none running, the rule never holds (and `bench up` starts a fresh count).
        { metric: 'workers', fill: 0, op: '>', value: 0 },
        { metric: 'generators', fill: 0, op: '==', value: 0 },
        // A minute without the workers' CPU is not evidence of idleness.
        { metric: 'workerCpu', fill: 100, op: '<', value: idle.workerCpuBelowPercent },
      ],
    },
    minutes: idle.minutes,
    description: `Benchmark workers up with no load generator running and their busiest task under ${idle.workerCpuBelowPercent}% CPU for ${idle.minutes} minutes: the fleet is parked (npm run bench -- up brings it back).`,
  };
  if (scenario.preset.store.engine !== 'aurora-postgresql') return [fleet];
  const store = scenario.environment.names.auroraCluster;
  return [
    fleet,
    {
      family: 'temporal',
      action: 'stop-clusters',
      id: 'IdleStore',
      clusters: [store],
      metrics: [connections('store', store)],
      rule: { kind: 'sum-at-most', value: 0 },
      minutes: idle.minutes,
      description: `No connection to the Aurora store for ${idle.minutes} minutes (no server runs: hibernated): it is stopped (npm run wake starts it).`,
    },
  ];
}
