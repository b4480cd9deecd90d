import { Duration } from 'aws-cdk-lib/core';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as ecs from 'aws-cdk-lib/aws-ecs';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { TemporalEnvironment, TemporalPreset } from '../../../config';
import { durationSeconds } from '../../../config/fields';
import { rollingDeployment } from '../../../config/packing';
import { EcsService, executionRole } from '../../platform/constructs/ecs-service';
import type { HibernationSwitch } from './hibernation-switch';

/** Where a port-forwarded service runs: the main pool of a Temporal environment, and how it rolls and hibernates. */
export interface MainPoolPlacement {
  readonly environment: TemporalEnvironment;
  readonly preset: TemporalPreset;
  readonly vpc: ec2.IVpc;
  readonly cluster: ecs.ICluster;
  readonly capacityProvider: ecs.AsgCapacityProvider;
  readonly subnets: ec2.SubnetSelection;
  readonly logRetention: logs.RetentionDays;
  readonly stopTimeout: Duration;
  readonly maximumPercent: number;
  readonly hibernation: HibernationSwitch;
}

interface PortForwardedServiceProps extends MainPoolPlacement {
  /** ECS service name and task family. */
  readonly name: string;
  /** The construct id of its EcsService (part of its resources' logical IDs). */
  readonly serviceId: string;
  /** Its Cloud Map name: it answers at `<dnsName>.<namespace>:<port>`. */
  readonly dnsName: string;
  /** Who it is, in its group's and execution role's descriptions. */
  readonly who: string;
  readonly groupDescription: string;
  readonly port: number;
  readonly memoryGiB: number;
  /** Whether the preset runs it: 0 tasks otherwise, its resources kept. */
  readonly runs: boolean;
  /** Its one way out: an inline rule, so the group's rules replace EC2's default allow-all. */
  readonly egress: { readonly peer: ec2.IPeer; readonly port: ec2.Port; readonly description: string };
  /** The main pool's instances: a Session Manager port forward ends on one, and only they reach the service. */
  readonly instanceSecurityGroup: ec2.ISecurityGroup;
  readonly image: ecs.ContainerImage;
  readonly user: string;
  readonly taskRole: iam.IRole;
  readonly containerEnvironment: Record<string, string>;
  readonly healthCheckCommand: string;
  readonly entryPoint?: string[];
  readonly command?: string[];
}

/**
 * One task on the main pool that a person reaches through a Session Manager port forward and
 * nothing else reaches: its own group, admitting its port from the container instances only,
 * with one way out; memory reserved and no CPU (it idles but for the person looking, and a CPU
 * reservation would take what the servers' rolling deploys are packed into); a Cloud Map name.
 * The Web UI and Grafana are two of these.
 */
export function portForwardedService(
  scope: Construct,
  p: PortForwardedServiceProps,
): { readonly securityGroup: ec2.SecurityGroup; readonly service: EcsService; readonly address: string } {
  const e = p.environment;
  const securityGroup = new ec2.SecurityGroup(scope, 'SecurityGroup', { vpc: p.vpc, description: p.groupDescription, allowAllOutbound: false });
  securityGroup.addEgressRule(p.egress.peer, p.egress.port, p.egress.description);
  securityGroup.connections.allowFrom(p.instanceSecurityGroup, ec2.Port.tcp(p.port), 'Session Manager port forwarding from a container instance');
  const service = new EcsService(scope, p.serviceId, {
    cluster: p.cluster,
    capacityProvider: p.capacityProvider,
    subnets: p.subnets,
    securityGroup,
    name: p.name,
    image: p.image,
    user: p.user,
    taskRole: p.taskRole,
    executionRole: executionRole(scope, 'TaskExecutionRole', p.who),
    size: { replicas: 1, vcpu: undefined, memoryGiB: p.memoryGiB },
    desiredCount: p.runs ? p.hibernation.count(1) : 0,
    deployment: rollingDeployment(1, e.deployment.minimumHealthyPercent, p.maximumPercent),
    ports: { http: p.port },
    healthCheckCommand: p.healthCheckCommand,
    entryPoint: p.entryPoint,
    command: p.command,
    environment: p.containerEnvironment,
    logRetention: p.logRetention,
    stopTimeout: p.stopTimeout,
    dns: { name: p.dnsName, ttl: Duration.seconds(durationSeconds(e.deployment.dnsTtl)) },
  });
  return { securityGroup, service, address: `${p.dnsName}.${e.names.serviceNamespace}:${p.port}` };
}
