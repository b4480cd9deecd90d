import { type CloudWatchClient, type MetricDataQuery, paginateGetMetricData } from '@aws-sdk/client-cloudwatch';
import type { MetricSeries } from '../../platform/contract/metrics';
import type { ReportWindow } from './window';

/** One series' points, oldest first: epoch milliseconds and values. */
export interface Points {
  readonly t: readonly number[];
  readonly v: readonly number[];
}

/** A series' highest point and mean over the points present; null without a point. */
export interface PeakAverage {
  readonly peak: number | null;
  readonly average: number | null;
}

export interface FetchProgress {
  readonly batch: number;
  readonly batches: number;
  readonly page: number;
  readonly series: number;
}

/** GetMetricData takes at most 500 queries per call. */
export const MAX_QUERIES_PER_CALL = 500;

function metricDataQuery(m: MetricSeries, periodSeconds: number): MetricDataQuery {
  return {
    Id: m.id,
    Label: m.label,
    MetricStat: {
      Metric: { Namespace: m.namespace, MetricName: m.metricName, Dimensions: Object.entries(m.dimensions).map(([Name, Value]) => ({ Name, Value })) },
      Period: periodSeconds,
      Stat: m.statistic,
    },
    ReturnData: true,
  };
}

/**
 * Fetches every series over the window: in batches of 500 queries, following NextToken
 * through every page (a page holds at most 100,800 points), retried by the client's retry
 * strategy. A query CloudWatch answers with an error status fails the whole fetch, naming it.
 */
export async function fetchMetrics(
  client: CloudWatchClient,
  metrics: readonly MetricSeries[],
  window: ReportWindow,
  onProgress: (p: FetchProgress) => void = () => {},
): Promise<{ points: Map<string, Points>; messages: string[] }> {
  const collected = new Map<string, { t: number[]; v: number[] }>(metrics.map((m) => [m.id, { t: [], v: [] }]));
  const messages: string[] = [];
  const batches = Math.ceil(metrics.length / MAX_QUERIES_PER_CALL);
  for (let b = 0; b < batches; b++) {
    const queries = metrics.slice(b * MAX_QUERIES_PER_CALL, (b + 1) * MAX_QUERIES_PER_CALL).map((m) => metricDataQuery(m, window.periodSeconds));
    let page = 0;
    const pages = paginateGetMetricData({ client }, { MetricDataQueries: queries, StartTime: window.start, EndTime: window.end, ScanBy: 'TimestampAscending' });
    for await (const response of pages) {
      onProgress({ batch: b + 1, batches, page: ++page, series: metrics.length });
      for (const m of response.Messages ?? []) messages.push(`${m.Code}: ${m.Value}`);
      for (const r of response.MetricDataResults ?? []) {
        const into = r.Id === undefined ? undefined : collected.get(r.Id);
        if (!into) continue;
        if (r.StatusCode === 'Forbidden' || r.StatusCode === 'InternalError')
          throw new Error(`GetMetricData answered ${r.StatusCode} for ${r.Id} (${r.Label}): ${(r.Messages ?? []).map((x) => x.Value).join('; ')}`);
        const ts = r.Timestamps ?? [];
        const vs = r.Values ?? [];
        ts.forEach((t, i) => {
          into.t.push(t.getTime());
          into.v.push(vs[i]);
        });
      }
    }
  }
  return { points: new Map([...collected].map(([id, p]) => [id, sortByTime(p)])), messages };
}

/** Oldest first, one point per timestamp (a repeated timestamp across pages keeps the last). */
function sortByTime(p: { t: number[]; v: number[] }): Points {
  const byTime = new Map<number, number>();
  p.t.forEach((t, i) => byTime.set(t, p.v[i]));
  const t = [...byTime.keys()].sort((a, b) => a - b);
  return { t, v: t.map((x) => byTime.get(x)!) };
}
