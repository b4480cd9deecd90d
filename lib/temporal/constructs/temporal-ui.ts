import { Stack } from 'aws-cdk-lib/core';
import type * as autoscaling from 'aws-cdk-lib/aws-autoscaling';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as ecs from 'aws-cdk-lib/aws-ecs';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { TEMPORAL_UI_SERVICE } from '../contract/temporal-names';
import { uiEnvironment, uiHealthCheck } from '../contract/temporal-config';
import type { EcsService } from '../../platform/constructs/ecs-service';
import { acknowledgeNag, nagResource } from '../../platform/constructs/lint-acknowledgements';
import { type MainPoolPlacement, portForwardedService } from './port-forwarded-service';

export interface TemporalUiProps extends MainPoolPlacement {
  readonly image: ecs.ContainerImage;
  readonly user: string;
  readonly frontendAddress: string;
  /** The servers' group: the UI reaches the frontend's gRPC port in it, as the benchmark does. */
  readonly servers: ec2.ISecurityGroup;
  /** The main pool's instances: a Session Manager port forward starts on one, and only they reach the UI. */
  readonly instances: { readonly securityGroup: ec2.ISecurityGroup; readonly group: autoscaling.AutoScalingGroup };
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
    const grpc = ec2.Port.tcp(e.ports.frontend.grpc);
    const taskRole = new iam.Role(this, 'TaskRole', {
      assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'),
      description: 'Temporal Web UI: no AWS permission (it only talks to the Temporal frontend)',
    });
    ({
      securityGroup: this.securityGroup,
      service: this.service,
      address: this.address,
    } = portForwardedService(this, {
      ...props,
      name: TEMPORAL_UI_SERVICE,
      serviceId: 'Ui',
      dnsName: 'ui',
      who: 'Temporal Web UI',
      groupDescription: 'Temporal Web UI: in from the container instances (port forwarding) only; out to the frontend gRPC only',
      port: e.ui.port,
      memoryGiB: e.ui.memoryGiB,
      runs: props.preset.ui,
      // To the VPC's range, on the one port; the frontend admits the group itself.
      egress: { peer: ec2.Peer.ipv4(props.vpc.vpcCidrBlock), port: grpc, description: 'Temporal frontend gRPC, inside the VPC' },
      instanceSecurityGroup: props.instances.securityGroup,
      taskRole,
      containerEnvironment: uiEnvironment(e, props.preset, { frontendAddress: props.frontendAddress }),
      healthCheckCommand: uiHealthCheck(e.ui.port),
    }));
    props.servers.addIngressRule(this.securityGroup, grpc, 'Temporal frontend gRPC from the Web UI');
    allowSessionManager(props.instances.group);
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
