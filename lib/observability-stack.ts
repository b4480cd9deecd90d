import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib/core';
import type { Construct } from 'constructs';
import type { Scenario } from '../config';
import { AlarmTopic } from './platform/constructs/alarm-topic';
import { EnvironmentBudget } from './platform/constructs/environment-budget';
import { MetricDashboard } from './platform/constructs/metric-dashboard';
import type { MetricCatalog } from './platform/contract/metrics';

export interface ObservabilityStackProps extends StackProps {
  readonly scenario: Scenario;
  /** What the dashboard draws and the alarms watch: the family's catalog (lib/families.ts). */
  readonly catalog: MetricCatalog;
  /** The dashboard's first line: which scenario the graphs belong to. */
  readonly header: string;
}

/**
 * The dashboard and alarms of one environment, drawn from the family's metric catalog (lib/<family>/contract/<family>-metrics.ts)
 * that the report command reads too, and the environment's budget. Holds no data: a phase
 * switch rewrites it in place.
 */
export class ObservabilityStack extends Stack {
  readonly alarms: AlarmTopic;
  readonly dashboard: MetricDashboard;

  constructor(scope: Construct, id: string, props: ObservabilityStackProps) {
    const { scenario } = props;
    const o = scenario.environment.observability;
    super(scope, id, { ...props, description: `Dashboard and alarms of ${scenario.stackName}` });
    const { catalog } = props;

    this.alarms = new AlarmTopic(this, 'Alarms', {
      catalog,
      topicName: o.alarmTopic,
      alarmNamePrefix: o.dashboard,
      emails: o.alarmEmails,
    });
    new EnvironmentBudget(this, 'Budget', {
      environment: scenario.stackName,
      dailyUsd: scenario.environment.spending.budget.dailyUsd,
      topicArn: this.alarms.topic.topicArn,
    });
    this.dashboard = new MetricDashboard(this, 'Dashboard', {
      catalog,
      dashboardName: o.dashboard,
      header: props.header,
      alarms: this.alarms.alarms,
    });

    new CfnOutput(this, 'DashboardName', { value: o.dashboard });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarms.topic.topicArn });
  }
}
