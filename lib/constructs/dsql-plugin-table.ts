import { RemovalPolicy, aws_dynamodb as dynamodb, aws_iam as iam } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { acknowledgeNag } from './lint-acknowledgements';

export interface DsqlPluginTableProps {
  readonly tableName: string;
  /** What the items are, for the point-in-time-recovery acknowledgement. */
  readonly holds: string;
}

/**
 * A table the DSQL plugin coordinates its tasks through (test/fixtures/dsql-fork records the
 * items): the rate limiter's (a counter per endpoint and second, or the token bucket's one
 * item) and the connection lease's (slot blocks, each owned by one task). Both key items by
 * `pk` and expire them through `ttl_epoch`. On-demand, since they only see traffic while pools
 * open. Nothing in them outlives a few minutes' use, so they go with the stack.
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
    });
    acknowledgeNag(this.table, 'DDB3', `No point-in-time recovery: the table holds only ${props.holds}, which expire by TTL; there is nothing to restore.`);
  }

  /** The calls the plugin makes on this table, on this table only. */
  grantItems(grantee: iam.IGrantable, ...actions: string[]): iam.Grant {
    return this.table.grant(grantee, ...actions);
  }
}
