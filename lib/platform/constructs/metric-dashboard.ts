import { Duration } from 'aws-cdk-lib/core';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import type { MetricCatalog } from '../contract/metrics';
import { catalogMetric } from './catalog-metric';

export interface MetricDashboardProps {
  readonly catalog: MetricCatalog;
  readonly dashboardName: string;
  /** Markdown shown above the graphs: what is deployed now. */
  readonly header: string;
  readonly alarms: readonly cloudwatch.IAlarm[];
}

/** The catalog's panels, two per row, with their limits drawn, and the alarms' states. */
export class MetricDashboard extends Construct {
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: MetricDashboardProps) {
    super(scope, id);
    const { catalog } = props;
    const graphs = catalog.panels.map(
      (panel) =>
        new cloudwatch.GraphWidget({
          title: panel.title,
          width: 12,
          height: 6,
          left: panel.series.map((s) => catalogMetric(catalog, s)),
          leftYAxis: { min: 0, showUnits: false },
          leftAnnotations: panel.limits.map((l) => ({ value: l.value, label: l.label })),
          period: Duration.minutes(1),
        }),
    );
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName,
      defaultInterval: Duration.hours(3),
      widgets: [
        [new cloudwatch.TextWidget({ markdown: props.header, width: 24, height: 2 })],
        [new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: 24, height: 3 })],
        ...rows(graphs, 2),
      ],
    });
  }
}

function rows<T>(items: readonly T[], perRow: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / perRow) }, (_, i) => items.slice(i * perRow, (i + 1) * perRow));
}
