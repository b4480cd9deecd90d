import { RemovalPolicy } from 'aws-cdk-lib/core';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';

export interface DsqlPluginTableProps {
  readonly tableName: string;
}

/**
 * A table the DSQL plugin coordinates its tasks through (test/fixtures/dsql-fork records the
 * items): the rate limiter's (a counter per endpoint and second, or the token bucket's one
 * item) and the connection lease's (slot blocks, each owned by one task). Both key items by
 * `pk` and expire them through `ttl_epoch`. On-demand, since they only see traffic while pools
 * open. Nothing in them outlives a few minutes' use, so they go with the stack. Point-in-time
 * recovery is on for the shortest period (1 day) all the same: AWS Control Tower's proactive
 * control CT.DYNAMODB.PR.1 refuses a table without it, and for tables of a few kilobytes it
 * costs next to nothing.
 */
export class DsqlPluginTable extends Construct {
  static readonly PARTITION_KEY = 'pk';
  static readonly TTL_ATTRIBUTE = 'ttl_epoch';

  readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string, props: DsqlPluginTableProps) {
    super(scope, id);
    this.table = new dynamodb.Table(this, 'Table', {
      tableName: props.tableName,
      partitionKey: { name: DsqlPluginTable.PARTITION_KEY, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: DsqlPluginTable.TTL_ATTRIBUTE,
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      removalPolicy: RemovalPolicy.DESTROY,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: 1 },
    });
  }

  /** The calls the plugin makes on this table, on this table only. */
  grantItems(grantee: iam.IGrantable, ...actions: string[]): iam.Grant {
    return this.table.grant(grantee, ...actions);
  }
}
