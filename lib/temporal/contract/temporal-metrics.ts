import { TEMPORAL_ROLES, type TemporalRole, type TemporalScenario } from '../../../config';
import {
  type AlarmSpec,
  type DifferenceSeries,
  type MetricCatalog,
  type Panel,
  type Series,
  type Statistic,
  type Unit,
  NAMESPACES,
  acuPanel,
  instanceVcpus,
  metric,
} from '../../platform/contract/metrics';
import { BENCHMARK_WORKER_SERVICE, temporalServiceName } from './temporal-names';
import { writerInstanceIdentifier } from '../../platform/contract/physical-names';

/**
 * The ECS services the Temporal report and dashboard break down by: id suffix, label, ECS
 * name, and the server role (none for the benchmark workers).
 */
export function temporalServices(): { key: string; label: string; serviceName: string; role?: TemporalRole }[] {
  return [
    ...TEMPORAL_ROLES.map((role) => ({ key: role.charAt(0).toUpperCase() + role.slice(1), label: role, serviceName: temporalServiceName(role), role })),
    { key: 'BenchmarkWorker', label: 'benchmark worker', serviceName: BENCHMARK_WORKER_SERVICE },
  ];
}

type StoreCatalog = Pick<MetricCatalog, 'series' | 'panels' | 'alarms'> & { after?: Pick<MetricCatalog, 'series' | 'panels'> };
type Limit = Panel['limits'][number];
type AuroraStore = Extract<TemporalScenario['preset']['store'], { engine: 'aurora-postgresql' }>;

/**
 * The history store's own series, panels and alarms: DSQL's, or the Aurora writer's in the
 * same shape. `after`: what follows the ECS panels (DSQL's limiter table).
 */
function storeCatalog(scenario: TemporalScenario, dsqlClusterId: string): StoreCatalog {
  const store = scenario.preset.store;
  return store.engine === 'aurora-postgresql'
    ? auroraCatalog(scenario, store, poolCeiling(scenario))
    : dsqlCatalog(scenario, dsqlClusterId, poolCeiling(scenario));
}

/** The connections every server task's pool holds when full: the store's connections panel's line. */
function poolCeiling(scenario: TemporalScenario): Limit {
  const serverTasks = TEMPORAL_ROLES.reduce((n, r) => n + scenario.preset.services[r].replicas, 0);
  const { pools } = scenario.preset;
  const connections = TEMPORAL_ROLES.reduce((n, r) => n + scenario.preset.services[r].replicas * pools[r].maxConns, 0);
  const uniform = TEMPORAL_ROLES.every((r) => pools[r].maxConns === pools.history.maxConns);
  return {
    value: connections,
    label: uniform
      ? `pools full: ${serverTasks} tasks x ${pools.history.maxConns}`
      : `pools full: ${serverTasks} tasks, ${connections.toLocaleString('en-US')} connections`,
  };
}

/** The Aurora writer: commits, commit latency, CPU, connections, DB load, and its capacity when Serverless v2. */
function auroraCatalog(scenario: TemporalScenario, store: AuroraStore, ceiling: Limit): StoreCatalog {
  const { names, observability } = scenario.environment;
  const { cpuHigh } = observability.alarms;
  const writer = { DBClusterIdentifier: names.auroraCluster, Role: 'WRITER' };
  const rds = (id: string, label: string, metricName: string, statistic: Statistic, unit: Unit) =>
    metric(id, label, NAMESPACES.rds, metricName, writer, statistic, unit);
  const vcpus = store.writer.instanceClass ? instanceVcpus(store.writer.instanceClass) : undefined;
  const acu = store.writer.serverlessAcu;
  return {
    series: [
      rds('commits', 'Commits', 'CommitThroughput', 'Average', 'per second'),
      rds('commitLatency', 'Commit latency (average)', 'CommitLatency', 'Average', 'ms'),
      rds('storeCpu', 'Writer CPU', 'CPUUtilization', 'Average', '%'),
      rds('storeConnections', 'Writer connections', 'DatabaseConnections', 'Maximum', 'count'),
      metric('dbLoad', 'DB load', NAMESPACES.rds, 'DBLoad', { DBInstanceIdentifier: writerInstanceIdentifier(names.auroraCluster) }, 'Average', 'sessions'),
      ...(acu
        ? [
            metric(
              'acu',
              'Serverless v2 capacity',
              NAMESPACES.rds,
              'ServerlessDatabaseCapacity',
              { DBClusterIdentifier: names.auroraCluster },
              'Average',
              'ACU',
            ),
          ]
        : []),
    ],
    panels: [
      { id: 'transactions', title: 'Aurora commits per second', unit: 'per second', series: ['commits'], limits: [], inReport: true },
      { id: 'commitLatency', title: 'Aurora commit latency, average (ms)', unit: 'ms', series: ['commitLatency'], limits: [], inReport: true },
      {
        id: 'storeCpu',
        title: 'Aurora writer CPU (%)',
        unit: '%',
        series: ['storeCpu'],
        limits: [{ value: cpuHigh.percent, label: `CPU alarm ${cpuHigh.percent}%` }],
        inReport: true,
      },
      { id: 'storeConnections', title: 'Aurora connections', unit: 'count', series: ['storeConnections'], limits: [ceiling], inReport: true },
      {
        id: 'dbLoad',
        title: 'Aurora DB load (average active sessions)',
        unit: 'sessions',
        series: ['dbLoad'],
        limits: vcpus ? [{ value: vcpus, label: `writer vCPUs (${vcpus})` }] : [],
        inReport: true,
      },
      ...(acu ? [acuPanel(acu)] : []),
    ],
    alarms: [
      {
        id: 'StoreCpuHigh',
        description: `The Aurora history store's writer CPU at or above ${cpuHigh.percent}% for ${cpuHigh.minutes} minutes.`,
        series: 'storeCpu',
        comparison: '>=',
        threshold: cpuHigh.percent,
        minutes: cpuHigh.minutes,
      },
    ],
  };
}

/** DSQL: transactions, commit latency, OCC conflicts and timeouts, the account's connections; the limiter table after the ECS panels. */
function dsqlCatalog(scenario: TemporalScenario, dsqlClusterId: string, ceiling: Limit): StoreCatalog {
  const { occConflicts } = scenario.environment.observability.alarms;
  const dsql = { ClusterId: dsqlClusterId };
  return {
    series: [
      metric('totalTx', 'TotalTx', NAMESPACES.dsql, 'TotalTransactions', dsql, 'Sum', 'per minute'),
      metric('readOnlyTx', 'ReadOnlyTx', NAMESPACES.dsql, 'ReadOnlyTransactions', dsql, 'Sum', 'per minute'),
      { kind: 'difference', id: 'writeTx', label: 'WriteTx (total - read-only)', minuend: 'totalTx', subtrahend: 'readOnlyTx', unit: 'per minute' },
      metric('commitLatency', 'Commit latency (P50)', NAMESPACES.dsql, 'CommitLatency', dsql, 'Average', 'ms'),
      metric('occConflicts', 'OCC conflicts', NAMESPACES.dsql, 'OccConflicts', dsql, 'Sum', 'per minute'),
      metric('queryTimeouts', 'Query timeouts', NAMESPACES.dsql, 'QueryTimeouts', dsql, 'Sum', 'per minute'),
      // Published per account and region, not per cluster.
      metric(
        'dsqlConnections',
        'DSQL connections (account, region)',
        NAMESPACES.usage,
        'ResourceCount',
        { Service: 'AuroraDSQL', Resource: 'ClusterConnectionCount', Type: 'Resource', Class: 'None' },
        'Maximum',
        'count',
      ),
    ],
    panels: [
      {
        id: 'transactions',
        title: 'DSQL transactions per minute',
        unit: 'per minute',
        series: ['totalTx', 'readOnlyTx', 'writeTx'],
        limits: [],
        inReport: true,
      },
      { id: 'commitLatency', title: 'DSQL commit latency, P50 (ms)', unit: 'ms', series: ['commitLatency'], limits: [], inReport: true },
      {
        id: 'occConflicts',
        title: 'DSQL OCC conflicts and query timeouts per minute',
        unit: 'per minute',
        series: ['occConflicts', 'queryTimeouts'],
        limits: [{ value: occConflicts.perMinute, label: `OCC alarm ${occConflicts.perMinute}/min` }],
        inReport: false,
      },
      { id: 'dsqlConnections', title: 'DSQL connections', unit: 'count', series: ['dsqlConnections'], limits: [ceiling], inReport: true },
    ],
    after: limiterCatalog(scenario),
    alarms: dsqlAlarms(scenario),
  };
}

/** The connection rate limiter's DynamoDB table: its writes and throttles. */
function limiterCatalog(scenario: TemporalScenario): Pick<MetricCatalog, 'series' | 'panels'> {
  const table = { TableName: scenario.environment.names.rateLimiterTable };
  return {
    series: [
      metric('limiterThrottles', 'Write throttles', NAMESPACES.dynamodb, 'WriteThrottleEvents', table, 'Sum', 'per minute'),
      metric('limiterWrites', 'Consumed WCU', NAMESPACES.dynamodb, 'ConsumedWriteCapacityUnits', table, 'Sum', 'per minute'),
    ],
    panels: [
      {
        id: 'limiter',
        title: 'Connection rate limiter table',
        unit: 'per minute',
        series: ['limiterWrites', 'limiterThrottles'],
        limits: [],
        inReport: false,
      },
    ],
  };
}

function dsqlAlarms(scenario: TemporalScenario): AlarmSpec[] {
  const { occConflicts, limiterThrottles } = scenario.environment.observability.alarms;
  return [
    {
      id: 'OccConflicts',
      description: `DSQL aborted more than ${occConflicts.perMinute} transactions a minute on OCC conflicts for ${occConflicts.minutes} minutes.`,
      series: 'occConflicts',
      comparison: '>',
      threshold: occConflicts.perMinute,
      minutes: occConflicts.minutes,
    },
    {
      id: 'LimiterThrottled',
      description: `The connection rate limiter table throttled ${limiterThrottles.perMinute} or more writes a minute for ${limiterThrottles.minutes} minutes.`,
      series: 'limiterThrottles',
      comparison: '>=',
      threshold: limiterThrottles.perMinute,
      minutes: limiterThrottles.minutes,
    },
  ];
}

/** What only a deploy knows of a Temporal preset: the DSQL cluster's generated id, for the AWS/AuroraDSQL dimension. */
export interface TemporalDeployed {
  readonly dsqlClusterId?: string;
}

export function temporalCatalog(scenario: TemporalScenario, dsqlClusterId: string): MetricCatalog {
  const { names, observability } = scenario.environment;
  const { cpuHigh, tasksBelowDesired } = observability.alarms;
  const services = temporalServices();
  const ecsDims = (serviceName: string) => ({ ClusterName: names.cluster, ServiceName: serviceName });
  const store = storeCatalog(scenario, dsqlClusterId);

  const series: Series[] = [
    ...store.series,
    ...services.map((s) => metric(`cpu${s.key}`, s.label, NAMESPACES.ecs, 'CPUUtilization', ecsDims(s.serviceName), 'Average', '%')),
    ...services.map((s) => metric(`memory${s.key}`, s.label, NAMESPACES.ecs, 'MemoryUtilization', ecsDims(s.serviceName), 'Average', '%')),
    ...services.map((s) =>
      metric(`running${s.key}`, `${s.label} running`, NAMESPACES.containerInsights, 'RunningTaskCount', ecsDims(s.serviceName), 'Average', 'tasks'),
    ),
    ...services.map((s) =>
      metric(`desired${s.key}`, `${s.label} desired`, NAMESPACES.containerInsights, 'DesiredTaskCount', ecsDims(s.serviceName), 'Average', 'tasks'),
    ),
    ...services.map((s): DifferenceSeries => ({
      kind: 'difference',
      id: `missing${s.key}`,
      label: s.label,
      minuend: `desired${s.key}`,
      subtrahend: `running${s.key}`,
      unit: 'tasks',
    })),
    ...(store.after?.series ?? []),
  ];
  const perService = (prefix: string) => services.map((s) => `${prefix}${s.key}`);
  const panels: Panel[] = [
    ...store.panels,
    {
      id: 'serviceCpu',
      title: 'ECS CPU per service (% of reserved)',
      unit: '%',
      series: perService('cpu'),
      limits: [{ value: cpuHigh.percent, label: `CPU alarm ${cpuHigh.percent}%` }],
      inReport: true,
    },
    { id: 'serviceMemory', title: 'ECS memory per service (% of reserved)', unit: '%', series: perService('memory'), limits: [], inReport: false },
    { id: 'tasksMissing', title: 'Tasks below desired per service', unit: 'tasks', series: perService('missing'), limits: [], inReport: false },
    ...(store.after?.panels ?? []),
  ];
  const alarms: AlarmSpec[] = [
    ...store.alarms,
    ...services.map((s) => ({
      id: `${s.key}CpuHigh`,
      description: `${s.serviceName} CPU at or above ${cpuHigh.percent}% of its reservation for ${cpuHigh.minutes} minutes.`,
      series: `cpu${s.key}`,
      comparison: '>=' as const,
      threshold: cpuHigh.percent,
      minutes: cpuHigh.minutes,
    })),
    ...services.map((s) => ({
      id: `${s.key}TasksBelowDesired`,
      description: `${s.serviceName} has run fewer tasks than desired for ${tasksBelowDesired.minutes} minutes.`,
      series: `missing${s.key}`,
      comparison: '>=' as const,
      threshold: 1,
      minutes: tasksBelowDesired.minutes,
    })),
  ];
  return { family: 'temporal', series, panels, alarms };
}
