import { RemovalPolicy, aws_dynamodb as dynamodb, aws_iam as iam } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { acknowledgeNag } from './lint-acknowledgements';

export interface RateLimiterTableProps {
  readonly tableName: string;
}

/**
 * The DSQL plugin's cluster-wide connection rate limiter: one item per endpoint and second
 * (`pk` = dsqlconnect#<endpoint>#<unix second>), counted with a conditional UpdateItem and
 * expired through `ttl_epoch`. On-demand, since it only sees traffic while pools open.
 * It holds nothing older than a few minutes, so it goes with the stack.
 */
export class RateLimiterTable extends Construct {
  static readonly PARTITION_KEY = 'pk';
  static readonly TTL_ATTRIBUTE = 'ttl_epoch';

  readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string, props: RateLimiterTableProps) {
    super(scope, id);
    this.table = new dynamodb.Table(this, 'Table', {
      tableName: props.tableName,
      partitionKey: { name: RateLimiterTable.PARTITION_KEY, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: RateLimiterTable.TTL_ATTRIBUTE,
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acknowledgeNag(this.table, 'DDB3', 'No point-in-time recovery: the table holds only connection-rate counters for the current second, which expire by TTL; there is nothing to restore.');
  }

  /** The plugin's one call: a conditional counter increment. */
  grantCount(grantee: iam.IGrantable): iam.Grant {
    return this.table.grant(grantee, 'dynamodb:UpdateItem');
  }
}
