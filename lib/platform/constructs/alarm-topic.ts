import { Duration, Stack } from 'aws-cdk-lib/core';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subs from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import type { MetricCatalog } from '../contract/metrics';
import { catalogMetric } from './catalog-metric';
import { customerKey } from './customer-key';

export interface AlarmTopicProps {
  readonly catalog: MetricCatalog;
  readonly topicName: string;
  /** Alarm names are `<prefix>-<alarm id>`: stable, never the scenario. */
  readonly alarmNamePrefix: string;
  readonly emails: readonly string[];
}

/**
 * The catalog's alarms and the encrypted SNS topic they notify, on alarm and on recovery.
 * Missing data never alarms: a parked fleet or an idle cluster publishes nothing.
 */
export class AlarmTopic extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: AlarmTopicProps) {
    super(scope, id);
    const { account, region } = Stack.of(this);

    // CloudWatch cannot publish to a topic under the AWS-managed SNS key, so the topic
    // gets its own key that CloudWatch may use. Kept on delete like every key here: a key
    // is scheduled for deletion by a person, never by a stack (the window applies then).
    const key = customerKey(this, 'Encrypts the alarm topic; CloudWatch and AWS Budgets may use it to publish', Duration.days(30));
    const cloudwatchPrincipal = new iam.ServicePrincipal('cloudwatch.amazonaws.com');
    // AWS Budgets tells the same topic when the environment's budget is passed.
    const budgetsPrincipal = new iam.ServicePrincipal('budgets.amazonaws.com');
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [cloudwatchPrincipal, budgetsPrincipal],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'], // a key policy's own key
        conditions: { StringEquals: { 'aws:SourceAccount': account } },
      }),
    );
    this.topic = new sns.Topic(this, 'Topic', { topicName: props.topicName, masterKey: key, enforceSSL: true });
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [cloudwatchPrincipal],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': account },
          ArnLike: { 'aws:SourceArn': `arn:${Stack.of(this).partition}:cloudwatch:${region}:${account}:alarm:${props.alarmNamePrefix}-*` },
        },
      }),
    );
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [budgetsPrincipal],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': account },
          ArnLike: { 'aws:SourceArn': `arn:${Stack.of(this).partition}:budgets::${account}:*` },
        },
      }),
    );
    for (const email of props.emails) this.topic.addSubscription(new subs.EmailSubscription(email));

    const action = new actions.SnsAction(this.topic);
    this.alarms = props.catalog.alarms.map((spec) => {
      const alarm = new cloudwatch.Alarm(this, spec.id, {
        alarmName: `${props.alarmNamePrefix}-${spec.id}`,
        alarmDescription: spec.description,
        metric: catalogMetric(props.catalog, spec.series, spec.statistic),
        threshold: spec.threshold,
        comparisonOperator:
          spec.comparison === '>=' ? cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD : cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: spec.minutes,
        datapointsToAlarm: spec.minutes,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
      return alarm;
    });
  }
}
