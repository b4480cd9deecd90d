import { App, Stack } from 'aws-cdk-lib/core';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Template } from 'aws-cdk-lib/assertions';
import { LogEncryption } from '../../../../lib/platform/constructs/log-encryption';

function stackWithLogs() {
  const stack = new Stack(new App(), 'S', { env: { account: '111111111111', region: 'eu-west-1' } });
  const encryption = new LogEncryption(stack, 'LogEncryption');
  new logs.LogGroup(stack, 'Ours');
  new logs.LogGroup(stack, 'OwnKey', { encryptionKey: new kms.Key(stack, 'Other') });
  return { template: Template.fromStack(stack), keyId: stack.getLogicalId(encryption.key.node.defaultChild as kms.CfnKey) };
}

test('every log group without a key of its own gets the stack log key; one with its own keeps it', () => {
  const { template, keyId } = stackWithLogs();
  const groups = template.findResources('AWS::Logs::LogGroup');
  expect(Object.values(groups).map((g) => g.Properties.KmsKeyId)).toEqual([
    { 'Fn::GetAtt': [keyId, 'Arn'] },
    { 'Fn::GetAtt': [expect.stringMatching(/^Other/), 'Arn'] },
  ]);
});

test('the key is retained, rotates, and lets CloudWatch Logs use it only for log groups of this account and region', () => {
  const { template, keyId } = stackWithLogs();
  template.hasResource('AWS::KMS::Key', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain', Properties: { EnableKeyRotation: true } });
  const statements = template.findResources('AWS::KMS::Key')[keyId].Properties.KeyPolicy.Statement as any[];
  expect(statements.filter((st) => st.Principal.Service === 'logs.eu-west-1.amazonaws.com')).toEqual([
    {
      Effect: 'Allow',
      Principal: { Service: 'logs.eu-west-1.amazonaws.com' },
      Action: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:Describe*'],
      Resource: '*',
      Condition: {
        ArnLike: {
          'kms:EncryptionContext:aws:logs:arn': { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':logs:eu-west-1:111111111111:log-group:*']] },
        },
      },
    },
  ]);
});
