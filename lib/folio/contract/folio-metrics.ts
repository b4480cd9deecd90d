import { describeOffload, type FolioScenario } from '../../../config';
import {
  type AlarmSpec,
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
import { writerInstanceIdentifier } from '../../platform/contract/physical-names';

type Part = Pick<MetricCatalog, 'series' | 'panels' | 'alarms'>;

/** FOLIO's series, panels and alarms: the offload cluster's capacity, then both clusters' writers. */
export function folioCatalog(scenario: FolioScenario): MetricCatalog {
  const parts = [capacityCatalog(scenario), writersCatalog(scenario)];
  return {
    family: 'folio',
    series: parts.flatMap((p) => p.series),
    panels: parts.flatMap((p) => p.panels),
    alarms: parts.flatMap((p) => p.alarms),
  };
}

/** Capacity, its panels and its ceiling alarm: only while the offload cluster is Serverless v2. */
function capacityCatalog(scenario: FolioScenario): Part {
  const acu = scenario.phase.offload.serverless;
  if (!acu) return { series: [], panels: [], alarms: [] };
  const { names, observability } = scenario.environment;
  const { serverlessAtCeiling } = observability.alarms;
  const offload = { DBClusterIdentifier: names.offloadCluster };
  return {
    series: [
      metric('acu', 'Serverless v2 capacity', NAMESPACES.rds, 'ServerlessDatabaseCapacity', offload, 'Average', 'ACU'),
      metric('acuUtilization', 'Serverless v2 ACU utilization', NAMESPACES.rds, 'ACUUtilization', offload, 'Average', '%'),
    ],
    panels: [
      acuPanel(acu),
      {
        id: 'acuUtilization',
        title: 'Serverless v2 ACU utilization (% of max)',
        unit: '%',
        series: ['acuUtilization'],
        limits: [{ value: serverlessAtCeiling.percentOfMax, label: `ceiling alarm ${serverlessAtCeiling.percentOfMax}%` }],
        inReport: false,
      },
    ],
    alarms: [
      {
        id: 'ServerlessAtCeiling',
        description:
          `Serverless v2 capacity has stayed at or above ${serverlessAtCeiling.percentOfMax}% of its ${acu.max} ACU maximum for ` +
          `${serverlessAtCeiling.minutes} minutes: the ceiling, not the workload, sets the pace (raise max ACU or route less).`,
        series: 'acu',
        statistic: 'Minimum',
        comparison: '>=',
        threshold: (acu.max * serverlessAtCeiling.percentOfMax) / 100,
        minutes: serverlessAtCeiling.minutes,
      },
    ],
  };
}

/** Both clusters' writers: CPU (with its alarm), connections, freeable memory, DB load. */
function writersCatalog(scenario: FolioScenario): Part {
  const { names, observability } = scenario.environment;
  const { offload, primaryInstanceClass } = scenario.phase;
  const { cpuHigh } = observability.alarms;
  const clusters = [
    { key: 'Primary', id: names.primaryCluster, what: `primary (${primaryInstanceClass})` },
    { key: 'Offload', id: names.offloadCluster, what: `offload (${describeOffload(offload)})` },
  ];
  const perCluster = (prefix: string, metricName: string, statistic: Statistic, unit: Unit) =>
    clusters.map((c) => metric(`${prefix}${c.key}`, `${c.what}`, NAMESPACES.rds, metricName, { DBClusterIdentifier: c.id, Role: 'WRITER' }, statistic, unit));
  const writerVcpus = instanceVcpus(primaryInstanceClass);
  const series: Series[] = [
    ...perCluster('cpu', 'CPUUtilization', 'Average', '%'),
    ...perCluster('connections', 'DatabaseConnections', 'Average', 'count'),
    ...perCluster('freeableMemory', 'FreeableMemory', 'Minimum', 'bytes'),
    ...clusters.map((c) =>
      metric(`dbLoad${c.key}`, `${c.what}`, NAMESPACES.rds, 'DBLoad', { DBInstanceIdentifier: writerInstanceIdentifier(c.id) }, 'Average', 'sessions'),
    ),
  ];
  const panels: Panel[] = [
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
  const alarms: AlarmSpec[] = clusters.map((c) => ({
    id: `${c.key}CpuHigh`,
    description: `${c.what} writer CPU at or above ${cpuHigh.percent}% for ${cpuHigh.minutes} minutes.`,
    series: `cpu${c.key}`,
    comparison: '>=' as const,
    threshold: cpuHigh.percent,
    minutes: cpuHigh.minutes,
  }));
  return { series, panels, alarms };
}
