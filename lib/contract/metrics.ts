import { describeOffload, TEMPORAL_ROLES, type FolioScenario, type Scenario, type TemporalRole, type TemporalScenario } from '../../config';
import { BENCHMARK_WORKER_SERVICE, temporalServiceName, writerInstanceIdentifier } from './physical-names';

/*
 * The one catalog of what this project observes: CloudWatch namespaces, metric names,
 * dimensions and statistics, the panels they are drawn in, and the alarms on them. The
 * observability stack turns it into dashboards and alarms; the report command turns it into
 * GetMetricData queries, tables and charts. Neither names a metric itself, so they cannot
 * drift apart. Plain data, no CDK: the report loads it without synthesizing anything.
 */

const NAMESPACES = {
  rds: 'AWS/RDS',
  dsql: 'AWS/AuroraDSQL',
  usage: 'AWS/Usage',
  ecs: 'AWS/ECS',
  containerInsights: 'ECS/ContainerInsights',
  dynamodb: 'AWS/DynamoDB',
} as const;

export type Statistic = 'Average' | 'Sum' | 'Maximum' | 'Minimum';
type Unit = 'ACU' | '%' | 'count' | 'tasks' | 'bytes' | 'ms' | 'per minute' | 'per second' | 'sessions';

/** One CloudWatch metric at one statistic. `id` is its GetMetricData id and its JSON key. */
export interface MetricSeries {
  readonly kind: 'metric';
  readonly id: string;
  readonly label: string;
  readonly namespace: string;
  readonly metricName: string;
  readonly dimensions: Readonly<Record<string, string>>;
  readonly statistic: Statistic;
  readonly unit: Unit;
}

/** A series CloudWatch does not publish: `minuend - subtrahend`, period by period. */
interface DifferenceSeries {
  readonly kind: 'difference';
  readonly id: string;
  readonly label: string;
  readonly minuend: string;
  readonly subtrahend: string;
  readonly unit: Unit;
}

export type Series = MetricSeries | DifferenceSeries;

/** A horizontal line drawn on a panel: a configured range or threshold. */
interface Limit {
  readonly value: number;
  readonly label: string;
}

interface Panel {
  readonly id: string;
  readonly title: string;
  readonly unit: Unit;
  readonly series: readonly string[];
  readonly limits: readonly Limit[];
  /** Drawn as a chart in reports, not only on the dashboard. */
  readonly inReport: boolean;
}

/** `value <op> threshold` for `minutes` one-minute periods in a row. */
interface AlarmSpec {
  readonly id: string;
  readonly description: string;
  readonly series: string;
  /** The statistic the alarm evaluates, when it differs from the series' own. */
  readonly statistic?: Statistic;
  readonly comparison: '>=' | '>';
  readonly threshold: number;
  readonly minutes: number;
}

export interface MetricCatalog {
  readonly family: Scenario['family'];
  readonly series: readonly Series[];
  readonly panels: readonly Panel[];
  readonly alarms: readonly AlarmSpec[];
}

/** Every panel and alarm names series in the catalog; `series(id)` finds one or throws. */
export function seriesById(catalog: MetricCatalog, id: string): Series {
  const s = catalog.series.find((x) => x.id === id);
  if (!s) throw new Error(`metric catalog has no series "${id}"`);
  return s;
}

/** The raw CloudWatch metrics a series needs (itself, or a difference's operands). */
export function metricsOf(catalog: MetricCatalog, id: string): MetricSeries[] {
  const s = seriesById(catalog, id);
  return s.kind === 'metric' ? [s] : [...metricsOf(catalog, s.minuend), ...metricsOf(catalog, s.subtrahend)];
}

export function catalogFor(scenario: Scenario, deployed: { dsqlClusterId?: string } = {}): MetricCatalog {
  if (scenario.family === 'folio') return folioCatalog(scenario);
  if (scenario.preset.store.engine === 'dsql' && deployed.dsqlClusterId === undefined) throw new Error('the Temporal metric catalog needs the DSQL cluster id');
  return temporalCatalog(scenario, deployed.dsqlClusterId ?? '');
}

const metric = (
  id: string,
  label: string,
  namespace: string,
  metricName: string,
  dimensions: Record<string, string>,
  statistic: Statistic,
  unit: Unit,
): MetricSeries => ({ kind: 'metric', id, label, namespace, metricName, dimensions, statistic, unit });

/** vCPUs of an r/m/c-family instance class from its size (large 2, xlarge 4, Nxlarge 4N). */
export function instanceVcpus(instanceClass: string): number | undefined {
  const size = instanceClass.split('.').pop() ?? '';
  if (size === 'large') return 2;
  const m = /^(\d*)xlarge$/.exec(size);
  return m ? 4 * Number(m[1] || 1) : undefined;
}

function folioCatalog(scenario: FolioScenario): MetricCatalog {
  const { names, observability } = scenario.environment;
  const { offload, primaryInstanceClass } = scenario.phase;
  const acu = offload.serverless;
  const { serverlessAtCeiling, cpuHigh } = observability.alarms;
  const clusters = [
    { key: 'Primary', id: names.primaryCluster, what: `primary (${primaryInstanceClass})` },
    { key: 'Offload', id: names.offloadCluster, what: `offload (${describeOffload(offload)})` },
  ];
  const perCluster = (prefix: string, metricName: string, statistic: Statistic, unit: Unit) =>
    clusters.map((c) => metric(`${prefix}${c.key}`, `${c.what}`, NAMESPACES.rds, metricName, { DBClusterIdentifier: c.id, Role: 'WRITER' }, statistic, unit));
  const writerVcpus = instanceVcpus(primaryInstanceClass);

  // Capacity, its panel and its ceiling alarm exist only while the offload cluster is Serverless v2.
  const series: Series[] = [
    ...(acu
      ? [
          metric(
            'acu',
            'Serverless v2 capacity',
            NAMESPACES.rds,
            'ServerlessDatabaseCapacity',
            { DBClusterIdentifier: names.offloadCluster },
            'Average',
            'ACU',
          ),
          metric(
            'acuUtilization',
            'Serverless v2 ACU utilization',
            NAMESPACES.rds,
            'ACUUtilization',
            { DBClusterIdentifier: names.offloadCluster },
            'Average',
            '%',
          ),
        ]
      : []),
    ...perCluster('cpu', 'CPUUtilization', 'Average', '%'),
    ...perCluster('connections', 'DatabaseConnections', 'Average', 'count'),
    ...perCluster('freeableMemory', 'FreeableMemory', 'Minimum', 'bytes'),
    ...clusters.map((c) =>
      metric(`dbLoad${c.key}`, `${c.what}`, NAMESPACES.rds, 'DBLoad', { DBInstanceIdentifier: writerInstanceIdentifier(c.id) }, 'Average', 'sessions'),
    ),
  ];
  const panels: Panel[] = [
    ...(acu
      ? [
          {
            id: 'acu',
            title: 'Serverless v2 capacity (ACU)',
            unit: 'ACU' as const,
            series: ['acu'],
            limits: [
              { value: acu.max, label: `max ${acu.max} ACU` },
              { value: acu.min, label: `min ${acu.min} ACU` },
            ],
            inReport: true,
          },
          {
            id: 'acuUtilization',
            title: 'Serverless v2 ACU utilization (% of max)',
            unit: '%' as const,
            series: ['acuUtilization'],
            limits: [{ value: serverlessAtCeiling.percentOfMax, label: `ceiling alarm ${serverlessAtCeiling.percentOfMax}%` }],
            inReport: false,
          },
        ]
      : []),
    {
      id: 'cpu',
      title: 'Writer CPU (%)',
      unit: '%',
      series: ['cpuPrimary', 'cpuOffload'],
      limits: [{ value: cpuHigh.percent, label: `CPU alarm ${cpuHigh.percent}%` }],
      inReport: true,
    },
    { id: 'connections', title: 'Database connections', unit: 'count', series: ['connectionsPrimary', 'connectionsOffload'], limits: [], inReport: true },
    {
      id: 'freeableMemory',
      title: 'Freeable memory (bytes)',
      unit: 'bytes',
      series: ['freeableMemoryPrimary', 'freeableMemoryOffload'],
      limits: [],
      inReport: false,
    },
    {
      id: 'dbLoad',
      title: 'DB load (average active sessions)',
      unit: 'sessions',
      series: ['dbLoadPrimary', 'dbLoadOffload'],
      limits: writerVcpus ? [{ value: writerVcpus, label: `primary writer vCPUs (${writerVcpus})` }] : [],
      inReport: false,
    },
  ];
  const alarms: AlarmSpec[] = [
    ...(acu
      ? [
          {
            id: 'ServerlessAtCeiling',
            description:
              `Serverless v2 capacity has stayed at or above ${serverlessAtCeiling.percentOfMax}% of its ${acu.max} ACU maximum for ` +
              `${serverlessAtCeiling.minutes} minutes: the ceiling, not the workload, sets the pace (raise max ACU or route less).`,
            series: 'acu',
            statistic: 'Minimum' as const,
            comparison: '>=' as const,
            threshold: (acu.max * serverlessAtCeiling.percentOfMax) / 100,
            minutes: serverlessAtCeiling.minutes,
          },
        ]
      : []),
    ...clusters.map((c) => ({
      id: `${c.key}CpuHigh`,
      description: `${c.what} writer CPU at or above ${cpuHigh.percent}% for ${cpuHigh.minutes} minutes.`,
      series: `cpu${c.key}`,
      comparison: '>=' as const,
      threshold: cpuHigh.percent,
      minutes: cpuHigh.minutes,
    })),
  ];
  return { family: 'folio', series, panels, alarms };
}

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

/**
 * The history store's own series, panels and alarms: DSQL's, or the Aurora writer's in the
 * same shape. `after`: what follows the ECS panels (DSQL's limiter table).
 */
function storeCatalog(
  scenario: TemporalScenario,
  dsqlClusterId: string,
): Pick<MetricCatalog, 'series' | 'panels' | 'alarms'> & { after?: Pick<MetricCatalog, 'series' | 'panels'> } {
  const { names, observability } = scenario.environment;
  const { cpuHigh, occConflicts, limiterThrottles } = observability.alarms;
  const serverTasks = TEMPORAL_ROLES.reduce((n, r) => n + scenario.preset.services[r].replicas, 0);
  const { pools } = scenario.preset;
  const connections = TEMPORAL_ROLES.reduce((n, r) => n + scenario.preset.services[r].replicas * pools[r].maxConns, 0);
  const uniform = TEMPORAL_ROLES.every((r) => pools[r].maxConns === pools.history.maxConns);
  const poolCeiling = {
    value: connections,
    label: uniform
      ? `pools full: ${serverTasks} tasks x ${pools.history.maxConns}`
      : `pools full: ${serverTasks} tasks, ${connections.toLocaleString('en-US')} connections`,
  };
  const store = scenario.preset.store;
  if (store.engine === 'aurora-postgresql') {
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
        { id: 'storeConnections', title: 'Aurora connections', unit: 'count', series: ['storeConnections'], limits: [poolCeiling], inReport: true },
        {
          id: 'dbLoad',
          title: 'Aurora DB load (average active sessions)',
          unit: 'sessions',
          series: ['dbLoad'],
          limits: vcpus ? [{ value: vcpus, label: `writer vCPUs (${vcpus})` }] : [],
          inReport: true,
        },
        ...(acu
          ? [
              {
                id: 'acu',
                title: 'Serverless v2 capacity (ACU)',
                unit: 'ACU' as const,
                series: ['acu'],
                limits: [
                  { value: acu.max, label: `max ${acu.max} ACU` },
                  { value: acu.min, label: `min ${acu.min} ACU` },
                ],
                inReport: true,
              },
            ]
          : []),
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
      { id: 'dsqlConnections', title: 'DSQL connections', unit: 'count', series: ['dsqlConnections'], limits: [poolCeiling], inReport: true },
    ],
    after: {
      series: [
        metric('limiterThrottles', 'Write throttles', NAMESPACES.dynamodb, 'WriteThrottleEvents', { TableName: names.rateLimiterTable }, 'Sum', 'per minute'),
        metric('limiterWrites', 'Consumed WCU', NAMESPACES.dynamodb, 'ConsumedWriteCapacityUnits', { TableName: names.rateLimiterTable }, 'Sum', 'per minute'),
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
    },
    alarms: [
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
    ],
  };
}

function temporalCatalog(scenario: TemporalScenario, dsqlClusterId: string): MetricCatalog {
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
