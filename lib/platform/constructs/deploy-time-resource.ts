import { readFileSync } from 'node:fs';
import { CustomResource, Duration } from 'aws-cdk-lib/core';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as cr from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { acknowledgeDeployTimeFunctions, acknowledgeNag, nagResource } from './lint-acknowledgements';

export interface DeployTimeResourceProps {
  /** The function's construct id: part of its logical ID, so fixed for life once deployed. */
  readonly functionId: string;
  /** A CommonJS file exporting `onEvent`, inlined as the function's code. */
  readonly handlerFile: string;
  readonly resourceType: string;
  readonly properties: Record<string, unknown>;
  readonly logGroup: logs.ILogGroup;
}

/**
 * A custom resource answered in one step by an inline Node.js function through CDK's provider
 * framework, with what the linters say of every such function acknowledged once. Its function,
 * `Provider` and `Resource` are added to `scope` itself, under the paths deployed stacks have.
 */
export function deployTimeResource(scope: Construct, props: DeployTimeResourceProps): { resource: CustomResource; onEvent: lambda.Function } {
  const onEvent = new lambda.Function(scope, props.functionId, {
    runtime: lambda.Runtime.NODEJS_24_X,
    architecture: lambda.Architecture.ARM_64,
    code: lambda.Code.fromInline(readFileSync(props.handlerFile, 'utf8')),
    handler: 'index.onEvent',
    timeout: Duration.seconds(30),
    logGroup: props.logGroup,
  });
  const provider = new cr.Provider(scope, 'Provider', { onEventHandler: onEvent, logGroup: props.logGroup });
  const resource = new CustomResource(scope, 'Resource', {
    serviceToken: provider.serviceToken,
    resourceType: props.resourceType,
    properties: props.properties,
  });
  acknowledgeNag(
    scope,
    'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    "The function's log permissions, as CDK's provider framework grants them: logs:CreateLogGroup, CreateLogStream and PutLogEvents, nothing else.",
  );
  acknowledgeDeployTimeFunctions(scope);
  acknowledgeNag(
    scope,
    `IAM5[Resource::${nagResource(scope, onEvent.functionArn)}:*]`,
    "lambda:InvokeFunction on the function's versions and aliases (`<arn>:*`), as CDK's provider framework grants it; the function itself is named.",
  );
  return { resource, onEvent };
}
