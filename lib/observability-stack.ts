import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { describeOffload, type Scenario } from '../config';
import { AlarmTopic } from './constructs/alarm-topic';
import { EnvironmentBudget } from './constructs/environment-budget';
import { MetricDashboard } from './constructs/metric-dashboard';
import { catalogFor } from './contract/metrics';

export interface ObservabilityStackProps extends StackProps {
  readonly scenario: Scenario;
  /** What only a deploy knows: the DSQL cluster's id, for the AWS/AuroraDSQL dimension. */
  readonly dsqlClusterId?: string;
}

/**
 * The dashboard and alarms of one environment, drawn from the metric catalog (lib/contract/metrics.ts)
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
    const catalog = catalogFor(scenario, { dsqlClusterId: props.dsqlClusterId });

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
      header: header(scenario),
      alarms: this.alarms.alarms,
    });

    new CfnOutput(this, 'DashboardName', { value: o.dashboard });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarms.topic.topicArn });
  }
}

/** One line that says which scenario the graphs below belong to. */
function header(scenario: Scenario): string {
  if (scenario.family === 'folio') {
    const { phase, routes } = scenario;
    const routed = routes.filter((r) => r.cluster === 'offload').map((r) => r.module);
    return (
      `## ${scenario.stackName}: ${phase.name}\n` +
      `Primary writer ${phase.primaryInstanceClass}; offload cluster ${describeOffload(phase.offload)}; ` +
      `routed to the offload cluster: ${routed.length ? routed.join(', ') : 'none'}`
    );
  }
  const { preset } = scenario;
  return (
    `## ${scenario.stackName}: ${preset.name}\n` +
    `${preset.capacity.main.instances} x ${preset.capacity.main.instanceType} (main), 0-${preset.capacity.benchmark.maxInstances} x ` +
    `${preset.capacity.benchmark.instanceType} (benchmark); target ${preset.benchmark.targetRate} workflows/s`
  );
}
