import { type IAspect, AspectPriority, Aspects, Duration, Stack } from 'aws-cdk-lib/core';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct, type IConstruct } from 'constructs';
import { customerKey } from './customer-key';

/**
 * A customer-managed key for every log group of a stack, its own and those CDK creates for
 * it. Service logs carry hostnames, workflow ids and SQL errors; with this key, reading them
 * takes kms:Decrypt as well as logs:GetLogEvents, and a key disabled by a person makes them
 * unreadable. Adding or changing a log group's key is an in-place update.
 */
export class LogEncryption extends Construct implements IAspect {
  readonly key: kms.Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const { partition, region, account } = Stack.of(this);
    this.key = customerKey(this, "Encrypts this stack's CloudWatch log groups", Duration.days(30));
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal(`logs.${region}.amazonaws.com`)],
        actions: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:Describe*'],
        resources: ['*'], // a key policy's own key
        conditions: { ArnLike: { 'kms:EncryptionContext:aws:logs:arn': `arn:${partition}:logs:${region}:${account}:log-group:*` } },
      }),
    );
    Aspects.of(Stack.of(this)).add(this, { priority: AspectPriority.MUTATING });
  }

  visit(node: IConstruct): void {
    if (node instanceof logs.CfnLogGroup && node.kmsKeyId === undefined) node.kmsKeyId = this.key.keyArn;
  }
}
