import { join } from 'node:path';
import { type CustomResource, Stack } from 'aws-cdk-lib/core';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { deployTimeResource } from '../../platform/constructs/deploy-time-resource';

/** The one way connections may reach the cluster: its VPC endpoint, or (NAT to the public endpoint) the NAT gateways' addresses. */
export type DsqlConnectionPath = { readonly vpcEndpointId: string } | { readonly natAddresses: readonly string[] };

/** The IAM actions that open a database connection, as the admin role and as any other. */
const DSQL_CONNECT_ACTIONS = ['dsql:DbConnect', 'dsql:DbConnectAdmin'] as const;

/**
 * A resource policy that refuses every connection to the cluster that does not come the given
 * way, whoever asks and whatever their IAM policies grant: a Deny, so it grants nothing itself.
 */
export function dsqlConnectionPolicy(clusterArn: string, path: DsqlConnectionPath) {
  const condition =
    'vpcEndpointId' in path
      ? { StringNotEquals: { 'aws:SourceVpce': path.vpcEndpointId } }
      : { NotIpAddress: { 'aws:SourceIp': path.natAddresses.map((a) => `${a}/32`) } };
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'vpcEndpointId' in path ? 'ConnectOnlyThroughTheEnvironmentsEndpoint' : 'ConnectOnlyFromTheEnvironmentsNatGateways',
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: [...DSQL_CONNECT_ACTIONS],
        Resource: clusterArn,
        Condition: condition,
      },
    ],
  };
}

export interface DsqlClusterPolicyProps {
  readonly clusterIdentifier: string;
  readonly clusterArn: string;
  readonly path: DsqlConnectionPath;
  /** Where the handler logs. */
  readonly logGroup: logs.ILogGroup;
}

/**
 * The cluster's resource policy, set by a deploy-time function after the VPC endpoint exists
 * (the cluster's own PolicyDocument cannot name an endpoint made from the cluster) and read back
 * before the deploy goes on.
 */
export class DsqlClusterPolicy extends Construct {
  readonly resource: CustomResource;
  /** The policy document as rendered, tokens and all: what tests and the policy linter read. */
  readonly document: ReturnType<typeof dsqlConnectionPolicy>;

  constructor(scope: Construct, id: string, props: DsqlClusterPolicyProps) {
    super(scope, id);
    this.document = dsqlConnectionPolicy(props.clusterArn, props.path);
    const { resource, onEvent } = deployTimeResource(this, {
      functionId: 'Put',
      handlerFile: join(__dirname, 'dsql-cluster-policy', 'handler.js'),
      resourceType: 'Custom::DsqlClusterPolicy',
      properties: { Identifier: props.clusterIdentifier, Policy: Stack.of(this).toJsonString(this.document) },
      logGroup: props.logGroup,
    });
    this.resource = resource;
    onEvent.addToRolePolicy(new iam.PolicyStatement({ actions: ['dsql:PutClusterPolicy', 'dsql:GetClusterPolicy'], resources: [props.clusterArn] }));
  }
}
