import { join } from 'node:path';
import { type CustomResource, Stack } from 'aws-cdk-lib/core';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct, type IConstruct } from 'constructs';
import type { HistoryStore } from '../../../config/temporal-schema';
import { deployTimeResource } from '../../platform/constructs/deploy-time-resource';

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
    const { resource, onEvent } = deployTimeResource(this, {
      functionId: 'Check',
      handlerFile: join(__dirname, 'history-store-guard', 'handler.js'),
      resourceType: 'Custom::TemporalHistoryStore',
      properties: {
        Store: props.store,
        NumHistoryShards: props.numHistoryShards,
        ServerRelease: props.server.release,
        SchemaVersion: props.server.schemaVersion,
      },
      logGroup: props.logGroup,
    });
    this.resource = resource;
    // Whether an older release is CloudFormation's own rollback: its own stack's status, nothing else.
    onEvent.addToRolePolicy(new iam.PolicyStatement({ actions: ['cloudformation:DescribeStacks'], resources: [Stack.of(this).stackId] }));
  }

  /** Makes `resources` wait for the check: a refused deploy creates none of them. */
  guard(...resources: IConstruct[]): void {
    for (const r of resources) r.node.addDependency(this.resource);
  }
}
