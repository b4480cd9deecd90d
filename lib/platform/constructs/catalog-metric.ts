import { Duration } from 'aws-cdk-lib/core';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { type MetricCatalog, type Statistic, seriesById } from '../contract/metrics';

/** One-minute periods: the finest every catalog metric is published at. */
const METRIC_PERIOD = Duration.minutes(1);

/**
 * A catalog series as a CDK metric: the dashboards and alarms draw through this one
 * function, so a series means the same thing on both. A difference becomes metric math.
 */
export function catalogMetric(catalog: MetricCatalog, id: string, statistic?: Statistic): cloudwatch.IMetric {
  const s = seriesById(catalog, id);
  if (s.kind === 'metric') {
    return new cloudwatch.Metric({
      namespace: s.namespace,
      metricName: s.metricName,
      dimensionsMap: { ...s.dimensions },
      statistic: statistic ?? s.statistic,
      period: METRIC_PERIOD,
      label: s.label,
    });
  }
  return new cloudwatch.MathExpression({
    expression: `${s.minuend} - ${s.subtrahend}`,
    usingMetrics: { [s.minuend]: catalogMetric(catalog, s.minuend), [s.subtrahend]: catalogMetric(catalog, s.subtrahend) },
    period: METRIC_PERIOD,
    label: s.label,
  });
}
