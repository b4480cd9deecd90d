import { type CloudWatchClient, type MetricDatum, PutMetricDataCommand } from '@aws-sdk/client-cloudwatch';

/** PutMetricData in batches of 500 (the API's limit). */
export async function putMetrics(client: CloudWatchClient, namespace: string, data: MetricDatum[]): Promise<void> {
  for (let i = 0; i < data.length; i += 500) await client.send(new PutMetricDataCommand({ Namespace: namespace, MetricData: data.slice(i, i + 500) }));
}

/** One datapoint a minute from `start` (10 s into each minute), with the given dimensions. */
export const minuteSeries = (start: Date, name: string, dims: Record<string, string>, values: readonly number[]): MetricDatum[] =>
  values.map((v, i) => ({
    MetricName: name,
    Dimensions: Object.entries(dims).map(([Name, Value]) => ({ Name, Value })),
    Timestamp: new Date(start.getTime() + i * 60_000 + 10_000),
    Value: v,
  }));
