import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CustomResource, Duration, Stack, aws_iam as iam, aws_lambda as lambda, aws_logs as logs, custom_resources as cr } from 'aws-cdk-lib';
import { Construct, type IConstruct } from 'constructs';
import type { HistoryStore } from '../../../config/temporal-schema';
import { acknowledgeDeployTimeFunctions, acknowledgeNag, nagResource } from '../../platform/constructs/lint-acknowledgements';

export interface HistoryStoreGuardProps {
  readonly store: HistoryStore;
  readonly numHistoryShards: number;
  /** The Temporal release the store's servers run, and the schema version its tool brings the store to: neither may go back. */
  readonly server: { readonly release: string; readonly schemaVersion: string };
  readonly logGroup: logs.ILogGroup;
}

/**
 * What an environment's history keeps for life, recorded on its first deploy: the store's
 * engine and the shard count; and the Temporal release and schema version, which only move
 * forward. A later deploy that changes the first two, or goes back on the others, is refused
 * before any store resource is touched (they, and so the schema task, depend on this one); the
 * environment stays as it was.
 */
export class HistoryStoreGuard extends Construct {
  readonly resource: CustomResource;

  constructor(scope: Construct, id: string, props: HistoryStoreGuardProps) {
    super(scope, id);
    const onEvent = new lambda.Function(this, 'Check', {
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      code: lambda.Code.fromInline(readFileSync(join(__dirname, 'history-store-guard', 'handler.js'), 'utf8')),
      handler: 'index.onEvent',
      timeout: Duration.seconds(30),
      logGroup: props.logGroup,
    });
    const provider = new cr.Provider(this, 'Provider', { onEventHandler: onEvent, logGroup: props.logGroup });
    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::TemporalHistoryStore',
      properties: {
        Store: props.store,
        NumHistoryShards: props.numHistoryShards,
        ServerRelease: props.server.release,
        SchemaVersion: props.server.schemaVersion,
      },
    });
    // Whether an older release is CloudFormation's own rollback: its own stack's status, nothing else.
    onEvent.addToRolePolicy(new iam.PolicyStatement({ actions: ['cloudformation:DescribeStacks'], resources: [Stack.of(this).stackId] }));
    acknowledgeNag(
      this,
      'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      "The function's log permissions, as CDK's provider framework grants them: logs:CreateLogGroup, CreateLogStream and PutLogEvents, nothing else.",
    );
    acknowledgeDeployTimeFunctions(this);
    acknowledgeNag(
      this,
      `IAM5[Resource::${nagResource(this, onEvent.functionArn)}:*]`,
      "lambda:InvokeFunction on the check's versions and aliases (`<arn>:*`), as CDK's provider framework grants it; the function itself is named.",
    );
  }

  /** Makes `resources` wait for the check: a refused deploy creates none of them. */
  guard(...resources: IConstruct[]): void {
    for (const r of resources) r.node.addDependency(this.resource);
  }
}
