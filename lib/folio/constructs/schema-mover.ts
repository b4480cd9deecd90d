import { gzipSync, strToU8 } from 'fflate';
import { type CfnResource, RemovalPolicy, Validations } from 'aws-cdk-lib/core';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { ClusterRole } from '../../../config';
import { MOVER_ENDPOINTS } from '../contract/folio-endpoints';
import { MOVER_CONTAINER, MOVER_LOG_STREAM_PREFIX, type MoverStackEnvironment } from '../contract/mover';
import { acknowledgeControl, acknowledgeNag } from '../../platform/constructs/lint-acknowledgements';
import type { PairMember } from './aurora-pair';
import { addTaskContainer } from '../../platform/constructs/ecs-service';
import { MOVER_SCRIPT } from './schema-mover/mover-bundle';

/**
 * The container's command (`sh -c`): the script gzipped and base64-encoded, unpacked to /tmp
 * and run. ECS caps a task definition at 64 KiB, which the script alone nears. fflate, not
 * node:zlib, so that every Node version writes the same bytes (the template stays deterministic).
 */
export const MOVER_COMMAND = `printf %s '${Buffer.from(gzipSync(strToU8(MOVER_SCRIPT), { level: 9, mtime: 0 })).toString('base64')}' | base64 -d | gunzip >/tmp/move.sh && exec sh /tmp/move.sh`;

/** Schemas moved at once: one per vCPU of the task (at least one). */
export const moverJobs = (vcpu: number): number => Math.max(1, Math.floor(vcpu));

export interface SchemaMoverProps {
  readonly vpc: ec2.Vpc;
  readonly subnets: ec2.SubnetSelection;
  readonly member: (role: ClusterRole) => PairMember;
  /** The clusters' shared security group: the mover is let in on the database port. */
  readonly databaseSecurityGroup: ec2.ISecurityGroup;
  /** The admin credential (JSON with `username` and `password`). */
  readonly adminSecret: secretsmanager.ISecret;
  readonly port: number;
  readonly databaseName: string;
  readonly image: ecs.ContainerImage;
  readonly vcpu: number;
  readonly memoryGiB: number;
  /** PostgreSQL's lock_timeout for every statement of the mover. */
  readonly lockTimeout: string;
  /** The region's S3 managed prefix list (`com.amazonaws.<region>.s3`). */
  readonly s3PrefixListId: string;
  /** An online switch: how long the routes may take, and how long the source stays fenced after (MOVE_ROUTE_TIMEOUT, MOVE_ROUTE_GRACE). */
  readonly routeTimeout: string;
  readonly routeGrace: string;
}

/**
 * A one-shot Fargate task in the database VPC that copies a module's schemas between the two
 * clusters (the script in lib/folio/constructs/schema-mover/): the only way to reach them, since the
 * databases have no route in from a laptop. It runs only when `npm run move` starts it.
 */
export class SchemaMover extends Construct {
  readonly cluster: ecs.Cluster;
  readonly taskDefinition: ecs.FargateTaskDefinition;
  readonly securityGroup: ec2.SecurityGroup;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: SchemaMoverProps) {
    super(scope, id);
    this.cluster = new ecs.Cluster(this, 'Cluster', { vpc: props.vpc, containerInsightsV2: ecs.ContainerInsights.ENABLED });
    this.securityGroup = this.privateNetwork(props);
    this.taskDefinition = new ecs.FargateTaskDefinition(this, 'Task', {
      family: 'folio-schema-mover',
      cpu: props.vcpu * 1024,
      memoryLimitMiB: props.memoryGiB * 1024,
      runtimePlatform: { cpuArchitecture: ecs.CpuArchitecture.ARM64, operatingSystemFamily: ecs.OperatingSystemFamily.LINUX },
    });
    this.logGroup = new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.RETAIN });
    this.addMoverContainer(props);
    this.acknowledge();
  }

  /**
   * The mover's security group: PostgreSQL to the clusters, HTTPS to interface endpoints in one
   * zone (HTTPS from the mover only) and to S3 through a gateway endpoint. ECR keeps image
   * layers in S3, named by the region's S3 prefix list (from config, so synth looks nothing up).
   */
  private privateNetwork(props: SchemaMoverProps): ec2.SecurityGroup {
    const group = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: props.vpc,
      description: 'FOLIO schema mover: PostgreSQL to the two clusters, HTTPS to the endpoints',
      allowAllOutbound: false,
    });
    props.databaseSecurityGroup.addIngressRule(group, ec2.Port.tcp(props.port), 'PostgreSQL from the schema mover');
    group.addEgressRule(props.databaseSecurityGroup, ec2.Port.tcp(props.port), 'PostgreSQL to the clusters');

    const zone = props.vpc.selectSubnets(props.subnets).subnets.slice(0, 1);
    const endpoints = new ec2.SecurityGroup(this, 'EndpointSecurityGroup', {
      vpc: props.vpc,
      description: 'Interface endpoints of the schema mover: HTTPS from the mover only',
      allowAllOutbound: false,
    });
    endpoints.addIngressRule(group, ec2.Port.tcp(443), 'HTTPS from the schema mover');
    for (const [name, shortName] of MOVER_ENDPOINTS)
      props.vpc.addInterfaceEndpoint(name, {
        service: new ec2.InterfaceVpcEndpointAwsService(shortName),
        subnets: { subnets: zone },
        privateDnsEnabled: true,
        open: false,
        securityGroups: [endpoints],
      });
    group.addEgressRule(endpoints, ec2.Port.tcp(443), 'HTTPS to the interface endpoints');
    props.vpc.addGatewayEndpoint('MoverS3', { service: ec2.GatewayVpcEndpointAwsService.S3, subnets: [props.subnets] });
    group.addEgressRule(ec2.Peer.prefixList(props.s3PrefixListId), ec2.Port.tcp(443), 'HTTPS to S3 through the gateway endpoint (image layers)');
    return group;
  }

  /**
   * The mover's script with both clusters' endpoints, the admin credential from Secrets Manager,
   * and the move's settings. As root, the image's own user: the scratch volume at /tmp, where
   * the mover keeps its working files, is a Fargate bind mount that only root can write.
   */
  private addMoverContainer(props: SchemaMoverProps): void {
    const host = (role: ClusterRole) => props.member(role).cluster.clusterEndpoint.hostname;
    addTaskContainer(this.taskDefinition, MOVER_CONTAINER, props.memoryGiB * 1024, {
      image: props.image,
      entryPoint: ['sh', '-c'],
      command: [MOVER_COMMAND],
      environment: {
        PRIMARY_HOST: host('primary'),
        PRIMARY_PORT: String(props.port),
        OFFLOAD_HOST: host('offload'),
        OFFLOAD_PORT: String(props.port),
        PGDATABASE: props.databaseName,
        // The clusters force TLS.
        PGSSLMODE: 'require',
        ...({
          MOVE_JOBS: String(moverJobs(props.vcpu)),
          MOVE_LOCK_TIMEOUT: props.lockTimeout,
          MOVE_ROUTE_TIMEOUT: props.routeTimeout,
          MOVE_ROUTE_GRACE: props.routeGrace,
        } satisfies MoverStackEnvironment),
      },
      secrets: {
        PGUSER: ecs.Secret.fromSecretsManager(props.adminSecret, 'username'),
        PGPASSWORD: ecs.Secret.fromSecretsManager(props.adminSecret, 'password'),
      },
      logging: ecs.LogDrivers.awsLogs({ logGroup: this.logGroup, streamPrefix: MOVER_LOG_STREAM_PREFIX }),
    });
  }

  /** What the linters and controls would flag on the task, and why each holds here. */
  private acknowledge(): void {
    // The command is a shell script: its ${...} are the shell's parameter expansions, which
    // CloudFormation leaves alone outside Fn::Sub.
    Validations.of(this.taskDefinition).acknowledge({
      id: 'CloudFormation-Validate::E1029',
      reason: "The mover's command is a shell script; ${...} are shell parameter expansions",
    });
    (this.taskDefinition.node.defaultChild as CfnResource).addMetadata('cfn-lint', { config: { ignore_checks: ['E1029'] } });
    acknowledgeControl(
      this.taskDefinition,
      'CT.ECS.PR.3',
      "Runs as root, the PostgreSQL image's own user, on a read-only root filesystem: its only writable path is the task's scratch volume, a Fargate bind mount that only root can write. The task has no ingress, runs for one move, and its only credential is the cluster admin secret it exists to use.",
    );
    acknowledgeNag(
      this.taskDefinition,
      'ECS2',
      'The environment holds the two cluster endpoints, the port, the database name, TLS mode and the move settings: no secret (the credential comes from Secrets Manager through `secrets`).',
    );
    acknowledgeNag(
      this.taskDefinition.obtainExecutionRole(),
      'IAM5[Resource::*]',
      'ecr:GetAuthorizationToken takes no resource ARN (ECR documents Resource "*"); pulls themselves are scoped to the repository.',
    );
  }
}
