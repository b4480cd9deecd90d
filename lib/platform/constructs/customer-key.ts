import { type Duration, RemovalPolicy } from 'aws-cdk-lib/core';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';

/**
 * A customer-managed key (construct id `Key`) as every key here is: rotated yearly, kept on
 * delete (a person schedules a key's deletion, never a stack), and grants only to AWS services
 * acting for one (Aurora, Performance Insights): a principal's own `kms:CreateGrant` is denied,
 * as AWS Control Tower's proactive control CT.KMS.PR.3 requires.
 */
export function customerKey(scope: Construct, description: string, pendingWindow?: Duration): kms.Key {
  const key = new kms.Key(scope, 'Key', { description, enableKeyRotation: true, removalPolicy: RemovalPolicy.RETAIN, pendingWindow });
  key.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: 'GrantsOnlyForAwsServices',
      effect: iam.Effect.DENY,
      principals: [new iam.AnyPrincipal()],
      actions: ['kms:CreateGrant'],
      resources: ['*'], // a key policy's own key
      conditions: { BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' } },
    }),
  );
  return key;
}
