import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';
import { TEMPORAL_ROLES, type TemporalEnvironment } from '../../../../config';

/*
 * A stack-scoped group, not a construct: it has no id and adds its resources to the stack it is
 * given, under the construct paths (and so the logical IDs) every deployed environment has. Made
 * into a construct, its resources would move under a new path and CloudFormation would replace
 * them: the security groups every store, endpoint and service references.
 * test/lib/temporal/constructs/stack-scoped/logical-ids.test.ts pins those IDs.
 */

export interface TemporalSecurityGroupsProps {
  readonly vpc: ec2.IVpc;
  /** Each role's gRPC and membership ports: the only ones the servers open to each other. */
  readonly ports: TemporalEnvironment['ports'];
}

/**
 * Who may talk to whom in a Temporal environment: servers reach each other on every role's gRPC
 * and membership port and nothing else; benchmark clients reach the frontend's gRPC port only;
 * both reach AWS APIs over HTTPS. The store and visibility open themselves to `servers`.
 */
export class TemporalSecurityGroups {
  /** The Temporal servers (and the schema task and store probe, which act as one). */
  readonly servers: ec2.SecurityGroup;
  /** The benchmark workers and load generator. */
  readonly clients: ec2.SecurityGroup;

  constructor(scope: Construct, props: TemporalSecurityGroupsProps) {
    const { vpc, ports } = props;
    this.servers = new ec2.SecurityGroup(scope, 'ServerSecurityGroup', {
      vpc,
      description: 'Temporal servers: role-to-role gRPC and membership; out to DSQL and AWS APIs',
      allowAllOutbound: false,
    });
    for (const role of TEMPORAL_ROLES) {
      this.servers.connections.allowInternally(ec2.Port.tcp(ports[role].grpc), `${role} gRPC`);
      this.servers.connections.allowInternally(ec2.Port.tcp(ports[role].membership), `${role} membership`);
    }
    this.servers.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(443), 'HTTPS: AWS APIs and OpenSearch');
    this.clients = new ec2.SecurityGroup(scope, 'BenchmarkSecurityGroup', {
      vpc,
      description: 'Benchmark workers and load generator: the Temporal frontend and AWS APIs only',
      allowAllOutbound: false,
    });
    this.clients.connections.allowTo(this.servers, ec2.Port.tcp(ports.frontend.grpc), 'Temporal frontend gRPC');
    this.clients.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(443), 'HTTPS: AWS APIs');
  }
}
