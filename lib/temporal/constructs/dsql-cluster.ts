import { RemovalPolicy } from 'aws-cdk-lib/core';
import * as dsql from 'aws-cdk-lib/aws-dsql';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { DsqlClusterPolicy } from './dsql-cluster-policy';

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

  private endpointForServers?: ec2.InterfaceVpcEndpoint;

  /** The interface endpoint the servers connect through, once connectThroughPrivateLink made it. */
  get privateEndpoint(): ec2.InterfaceVpcEndpoint | undefined {
    return this.endpointForServers;
  }

  /**
   * `<id>.dsql.<region>.on.aws`: the public endpoint, and the host IAM tokens are signed for
   * on either path (the plugin's CLUSTER_ENDPOINT).
   */
  get endpoint(): string {
    return this.cluster.attrEndpoint;
  }

  /** The host the servers connect to: the cluster's PrivateLink name once privateEndpoint is made, else the public endpoint. */
  get connectHost(): string {
    return this.privateEndpoint ? this.cluster.attrVpcEndpoint : this.endpoint;
  }

  /**
   * An interface endpoint for the cluster's connection service (its VpcEndpointServiceName) in
   * the given subnets, with private DNS, so that its PrivateLink name resolves to addresses in
   * the VPC. Its own security group admits `clients` on the port and nothing else.
   */
  connectThroughPrivateLink(vpc: ec2.IVpc, subnets: ec2.SubnetSelection, clients: ec2.IConnectable, port: number): ec2.InterfaceVpcEndpoint {
    const securityGroup = new ec2.SecurityGroup(this, 'EndpointSecurityGroup', {
      vpc,
      description: 'Aurora DSQL PrivateLink endpoint: the Temporal servers on PostgreSQL only',
      allowAllOutbound: false,
    });
    if (this.endpointForServers) throw new Error('connectThroughPrivateLink: the cluster already has its endpoint');
    this.endpointForServers = new ec2.InterfaceVpcEndpoint(this, 'Endpoint', {
      vpc,
      service: new ec2.InterfaceVpcEndpointService(this.cluster.attrVpcEndpointServiceName, port),
      subnets,
      privateDnsEnabled: true,
      securityGroups: [securityGroup],
      open: false,
    });
    this.endpointForServers.connections.allowFrom(clients, ec2.Port.tcp(port), 'Temporal servers to Aurora DSQL');
    return this.endpointForServers;
  }

  /**
   * The cluster's resource policy: connections refused unless they come through the endpoint
   * connectThroughPrivateLink made or, with no endpoint, from `natAddresses` (the environment's
   * NAT gateways, its one path to the public endpoint).
   */
  admitOnlyTheEnvironment(natAddresses: readonly string[], logGroup: logs.ILogGroup): DsqlClusterPolicy {
    const path = this.endpointForServers ? { vpcEndpointId: this.endpointForServers.vpcEndpointId } : { natAddresses };
    return new DsqlClusterPolicy(this, 'ConnectionPolicy', { clusterIdentifier: this.identifier, clusterArn: this.arn, path, logGroup });
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
