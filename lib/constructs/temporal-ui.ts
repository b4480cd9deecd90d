import { Duration, Stack, type aws_autoscaling as autoscaling, aws_ec2 as ec2, type aws_ecs as ecs, aws_iam as iam, type aws_logs as logs } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { TemporalEnvironment, TemporalPreset } from '../../config';
import { durationSeconds } from '../../config/fields';
import { rollingDeployment } from '../../config/packing';
import { TEMPORAL_UI_SERVICE } from '../contract/physical-names';
import { uiEnvironment, uiHealthCheck } from '../contract/temporal-config';
import { EcsService, executionRole } from './ecs-service';
import { acknowledgeNag, nagResource } from './lint-acknowledgements';
import type { HibernationSwitch } from './hibernation-switch';

export interface TemporalUiProps {
  readonly environment: TemporalEnvironment;
  readonly preset: TemporalPreset;
  readonly vpc: ec2.IVpc;
  readonly cluster: ecs.ICluster;
  readonly capacityProvider: ecs.AsgCapacityProvider;
  readonly subnets: ec2.SubnetSelection;
  readonly image: ecs.ContainerImage;
  readonly user: string;
  readonly frontendAddress: string;
  /** The servers' group: the UI reaches the frontend's gRPC port in it, as the benchmark does. */
  readonly servers: ec2.ISecurityGroup;
  /** The main pool's instances: a Session Manager port forward starts on one, and only they reach the UI. */
  readonly instances: { readonly securityGroup: ec2.ISecurityGroup; readonly group: autoscaling.AutoScalingGroup };
  readonly logRetention: logs.RetentionDays;
  readonly stopTimeout: Duration;
  readonly maximumPercent: number;
  readonly hibernation: HibernationSwitch;
}

/**
 * The Temporal Web UI as one ECS task on the main pool (none where the preset says `ui: false`): a client of the frontend like the
 * benchmark, registered as `ui.<namespace>` in Cloud Map. Nothing outside the VPC reaches it:
 * its group admits the UI port from the container instances only, where a Session Manager
 * port-forwarding session ends (`npm run ui` prints the command). Its task role holds nothing.
 */
export class TemporalUi extends Construct {
  readonly service: EcsService;
  readonly securityGroup: ec2.SecurityGroup;
  /** Where it answers inside the VPC: `ui.<namespace>:<port>`. */
  readonly address: string;

  constructor(scope: Construct, id: string, props: TemporalUiProps) {
    super(scope, id);
    const { environment: e } = props;
    this.securityGroup = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: props.vpc,
      description: 'Temporal Web UI: in from the container instances (port forwarding) only; out to the frontend gRPC only',
      allowAllOutbound: false,
    });
    // Egress inline (to the VPC's range, on the one port), so the group's rules replace EC2's
    // default allow-all; the frontend admits the group itself.
    const grpc = ec2.Port.tcp(e.ports.frontend.grpc);
    this.securityGroup.addEgressRule(ec2.Peer.ipv4(props.vpc.vpcCidrBlock), grpc, 'Temporal frontend gRPC, inside the VPC');
    props.servers.addIngressRule(this.securityGroup, grpc, 'Temporal frontend gRPC from the Web UI');
    this.securityGroup.connections.allowFrom(
      props.instances.securityGroup,
      ec2.Port.tcp(e.ui.port),
      'Session Manager port forwarding from a container instance',
    );
    allowSessionManager(props.instances.group);
    const taskRole = new iam.Role(this, 'TaskRole', {
      assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'),
      description: 'Temporal Web UI: no AWS permission (it only talks to the Temporal frontend)',
    });
    this.service = new EcsService(this, 'Ui', {
      cluster: props.cluster,
      capacityProvider: props.capacityProvider,
      subnets: props.subnets,
      securityGroup: this.securityGroup,
      name: TEMPORAL_UI_SERVICE,
      image: props.image,
      user: props.user,
      taskRole,
      executionRole: executionRole(this, 'TaskExecutionRole', 'Temporal Web UI'),
      size: { replicas: 1, vcpu: undefined, memoryGiB: e.ui.memoryGiB },
      desiredCount: props.preset.ui ? props.hibernation.count(1) : 0,
      deployment: rollingDeployment(1, e.deployment.minimumHealthyPercent, props.maximumPercent),
      ports: { http: e.ui.port },
      healthCheckCommand: uiHealthCheck(e.ui.port),
      environment: uiEnvironment(e, props.preset, { frontendAddress: props.frontendAddress }),
      logRetention: props.logRetention,
      stopTimeout: props.stopTimeout,
      dns: { name: 'ui', ttl: Duration.seconds(durationSeconds(e.deployment.dnsTtl)) },
    });
    this.address = `ui.${e.names.serviceNamespace}:${e.ui.port}`;
  }
}

/**
 * What the SSM agent on an instance needs for Session Manager and nothing more (AWS's minimum
 * for sessions: register the instance, open its channels). The agent ships in the ECS-optimized
 * AMI; the channels' actions take no resource ARN.
 */
function allowSessionManager(group: autoscaling.AutoScalingGroup): void {
  const { partition, region, account } = Stack.of(group);
  const instances = `arn:${partition}:ec2:${region}:${account}:instance/*`;
  group.addToRolePolicy(new iam.PolicyStatement({ actions: ['ssm:UpdateInstanceInformation'], resources: [instances] }));
  acknowledgeNag(
    group,
    `IAM5[Resource::${nagResource(group, instances)}]`,
    "ssm:UpdateInstanceInformation registers the calling instance with Systems Manager; a pool's instances have no IDs before they launch, so the statement names every instance of this account and region, and the action reaches only the caller's own record.",
  );
  group.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['ssmmessages:CreateControlChannel', 'ssmmessages:CreateDataChannel', 'ssmmessages:OpenControlChannel', 'ssmmessages:OpenDataChannel'],
      resources: ['*'],
    }),
  );
}
