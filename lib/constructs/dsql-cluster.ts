import { RemovalPolicy, aws_dsql as dsql, aws_iam as iam } from 'aws-cdk-lib';
import { Construct } from 'constructs';

export interface DsqlClusterProps {
  /** The cluster's Name tag (DSQL clusters have no name of their own). */
  readonly name: string;
  /** Deletion protection; off only while tearing down. */
  readonly protect: boolean;
}

/**
 * A single-region Aurora DSQL cluster: Temporal's persistence. Always encrypted and TLS-only
 * by the service. Retained when the stack goes: it holds every workflow's history.
 */
export class DsqlCluster extends Construct {
  readonly cluster: dsql.CfnCluster;

  constructor(scope: Construct, id: string, props: DsqlClusterProps) {
    super(scope, id);
    this.cluster = new dsql.CfnCluster(this, 'Resource', {
      deletionProtectionEnabled: props.protect,
      tags: [{ key: 'Name', value: props.name }],
    });
    this.cluster.applyRemovalPolicy(RemovalPolicy.RETAIN);
  }

  /** `<id>.dsql.<region>.on.aws`. */
  get endpoint(): string {
    return this.cluster.attrEndpoint;
  }

  get arn(): string {
    return this.cluster.attrResourceArn;
  }

  /** The cluster's identifier, the dimension of its CloudWatch metrics. */
  get identifier(): string {
    return this.cluster.attrIdentifier;
  }

  /**
   * IAM authentication to this cluster only, as its built-in admin role: the role Temporal's
   * DSQL plugin always connects as (it signs admin tokens; dsql:DbConnect, for custom
   * database roles, would go unused).
   */
  grantConnectAdmin(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: ['dsql:DbConnectAdmin'],
      resourceArns: [this.arn],
    });
  }
}
