/*
 * The one catalog of what this project observes: CloudWatch namespaces, metric names,
 * dimensions and statistics, the panels they are drawn in, and the alarms on them. The
 * observability stack turns it into dashboards and alarms; the report command turns it into
 * GetMetricData queries, tables and charts. Neither names a metric itself, so they cannot
 * drift apart. Plain data, no CDK: the report loads it without synthesizing anything.
 */

export const NAMESPACES = {
  rds: 'AWS/RDS',
  dsql: 'AWS/AuroraDSQL',
  usage: 'AWS/Usage',
  ecs: 'AWS/ECS',
  containerInsights: 'ECS/ContainerInsights',
  dynamodb: 'AWS/DynamoDB',
} as const;

export type Statistic = 'Average' | 'Sum' | 'Maximum' | 'Minimum';
export type Unit = 'ACU' | '%' | 'count' | 'tasks' | 'bytes' | 'ms' | 'per minute' | 'per second' | 'sessions';

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
export interface DifferenceSeries {
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

export interface Panel {
  readonly id: string;
  readonly title: string;
  readonly unit: Unit;
  readonly series: readonly string[];
  readonly limits: readonly Limit[];
  /** Drawn as a chart in reports, not only on the dashboard. */
  readonly inReport: boolean;
}

/** `value <op> threshold` for `minutes` one-minute periods in a row. */
export interface AlarmSpec {
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
  /** The family whose scenario it observes (lib/families.ts). */
  readonly family: string;
  readonly series: readonly Series[];
  readonly panels: readonly Panel[];
  readonly alarms: readonly AlarmSpec[];
}

/** The Serverless v2 capacity panel, between the cluster's floor and ceiling: both families' Aurora stores chart it. */
export function acuPanel(acu: { readonly min: number; readonly max: number }): Panel {
  return {
    id: 'acu',
    title: 'Serverless v2 capacity (ACU)',
    unit: 'ACU',
    series: ['acu'],
    limits: [
      { value: acu.max, label: `max ${acu.max} ACU` },
      { value: acu.min, label: `min ${acu.min} ACU` },
    ],
    inReport: true,
  };
}

/** A series of the catalog by its id (every panel and alarm names one); throws when there is none. */
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

/** One CloudWatch metric as a series of the catalog. */
export const metric = (
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
