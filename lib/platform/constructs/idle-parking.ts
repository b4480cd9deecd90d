import { Duration, Stack } from 'aws-cdk-lib/core';
import * as appscaling from 'aws-cdk-lib/aws-applicationautoscaling';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { type IdleRule, idleExpression } from '../contract/idle-rule';

/*
 * The idle rule acted on by AWS's own services, with no compute of the project's running: a
 * CloudWatch alarm on the rule's expression tells the alarm topic and, for Temporal, invokes an
 * Application Auto Scaling policy that sets the benchmark worker service to 0 tasks (ECS then
 * drains its pool to 0 instances); for Aurora clusters (FOLIO's, Temporal's Aurora store), an
 * EventBridge rule on the alarm starts AWS's own AWS-StartStopAuroraCluster automation once per
 * cluster. The alarm is named under the alarm
 * topic's prefix, which is what the topic lets publish.
 */

interface IdleAlarmProps {
  readonly rule: IdleRule;
  /** `<the topic's alarm prefix>-<id>`: the topic accepts alarms of that prefix only. */
  readonly alarmName: string;
  /** The family's alarm topic (in its observability stack), by name. */
  readonly topicName: string;
}

function idleAlarm(scope: Construct, props: IdleAlarmProps): cloudwatch.Alarm {
  const { rule } = props;
  const minute = Duration.minutes(1);
  const alarm = new cloudwatch.Alarm(scope, 'Alarm', {
    alarmName: props.alarmName,
    alarmDescription: rule.description,
    metric: new cloudwatch.MathExpression({
      expression: idleExpression(rule),
      usingMetrics: Object.fromEntries(
        rule.metrics.map((m) => [
          m.id,
          new cloudwatch.Metric({
            namespace: m.namespace,
            metricName: m.metricName,
            dimensionsMap: { ...m.dimensions },
            statistic: m.statistic,
            period: minute,
          }),
        ]),
      ),
      period: minute,
      label: 'idle (1 in a minute the rule holds)',
    }),
    threshold: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: rule.minutes,
    datapointsToAlarm: rule.minutes,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
  const { partition, region, account } = Stack.of(scope);
  const topic = sns.Topic.fromTopicArn(scope, 'AlarmTopic', `arn:${partition}:sns:${region}:${account}:${props.topicName}`);
  alarm.addAlarmAction(new actions.SnsAction(topic));
  return alarm;
}

export interface IdleFleetParkingProps extends IdleAlarmProps {
  readonly service: ecs.BaseService;
  readonly clusterName: string;
  readonly serviceName: string;
  /** The most tasks `bench up` may ask for: registering a lower maximum would scale the fleet down to it. */
  readonly maxTasks: number;
}

/** Temporal: an idle benchmark fleet set to 0 tasks by an Application Auto Scaling policy the alarm invokes. */
export class IdleFleetParking extends Construct {
  readonly alarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: IdleFleetParkingProps) {
    super(scope, id);
    this.alarm = idleAlarm(this, props);
    const target = new appscaling.ScalableTarget(this, 'Target', {
      serviceNamespace: appscaling.ServiceNamespace.ECS,
      scalableDimension: 'ecs:service:DesiredCount',
      resourceId: `service/${props.clusterName}/${props.serviceName}`,
      minCapacity: 0,
      maxCapacity: props.maxTasks,
    });
    target.node.addDependency(props.service);
    const park = new appscaling.StepScalingAction(this, 'Park', { scalingTarget: target, adjustmentType: appscaling.AdjustmentType.EXACT_CAPACITY });
    park.addAdjustment({ adjustment: 0, lowerBound: 0 });
    this.alarm.addAlarmAction(new actions.ApplicationScalingAction(park));
  }
}

type IdleClusterStopProps = IdleAlarmProps;

/** AWS's own runbook that starts or stops an Aurora cluster (Serverless v2 included). */
const STOP_RUNBOOK = 'AWS-StartStopAuroraCluster';

/** Idle Aurora clusters (FOLIO's two, Temporal's Aurora store) stopped by AWS's start/stop automation, started from the alarm by EventBridge. */
export class IdleClusterStop extends Construct {
  readonly alarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: IdleClusterStopProps) {
    super(scope, id);
    this.alarm = idleAlarm(this, props);
    const { partition, region, account } = Stack.of(this);
    const clusters = props.rule.clusters ?? [];
    const clusterArns = clusters.map((c) => `arn:${partition}:rds:${region}:${account}:cluster:${c}`);
    const automationRole = new iam.Role(this, 'AutomationRole', {
      assumedBy: new iam.ServicePrincipal('ssm.amazonaws.com'),
      description: `${STOP_RUNBOOK}: stops this environment's idle Aurora clusters`,
    });
    automationRole.addToPolicy(
      new iam.PolicyStatement({ actions: ['rds:DescribeDBClusters', 'rds:StopDBCluster', 'rds:StartDBCluster'], resources: clusterArns }),
    );
    const runbook = `arn:${partition}:ssm:${region}:${account}:automation-definition/${STOP_RUNBOOK}:$DEFAULT`;
    const eventsRole = new iam.Role(this, 'EventsRole', {
      assumedBy: new iam.ServicePrincipal('events.amazonaws.com'),
      description: `Starts ${STOP_RUNBOOK} for this environment's idle alarm`,
    });
    eventsRole.addToPolicy(new iam.PolicyStatement({ actions: ['ssm:StartAutomationExecution'], resources: [runbook] }));
    automationRole.grantPassRole(eventsRole);
    const rule = new events.Rule(this, 'OnIdle', {
      description: `${props.alarmName} in ALARM: stop ${clusters.join(' and ')}`,
      eventPattern: {
        source: ['aws.cloudwatch'],
        detailType: ['CloudWatch Alarm State Change'],
        resources: [this.alarm.alarmArn],
        detail: { state: { value: ['ALARM'] } },
      },
    });
    for (const cluster of clusters)
      rule.addTarget({
        bind: () => ({
          arn: runbook,
          role: eventsRole,
          input: events.RuleTargetInput.fromObject({ ClusterName: [cluster], Action: ['Stop'], AutomationAssumeRole: [automationRole.roleArn] }),
        }),
      });
  }
}
