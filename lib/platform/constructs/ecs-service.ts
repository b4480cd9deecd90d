import { Duration } from 'aws-cdk-lib/core';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sd from 'aws-cdk-lib/aws-servicediscovery';
import { Construct } from 'constructs';
import { acknowledgeNag } from './lint-acknowledgements';

interface ServiceSize {
  readonly replicas: number;
  /** undefined: the task reserves no CPU (it shares what the instance has free). */
  readonly vcpu: number | undefined;
  readonly memoryGiB: number;
}

export interface EcsServiceProps {
  readonly cluster: ecs.ICluster;
  readonly capacityProvider: ecs.AsgCapacityProvider;
  readonly subnets: ec2.SubnetSelection;
  readonly securityGroup: ec2.ISecurityGroup;
  /** ECS service name and task family: stable, never the scenario. */
  readonly name: string;
  readonly image: ecs.ContainerImage;
  /** The image's non-root user. */
  readonly user: string;
  readonly taskRole: iam.IRole;
  readonly executionRole: iam.IRole;
  readonly size: ServiceSize;
  /** undefined: the template leaves the task count to whoever set it last. */
  readonly desiredCount: number | undefined;
  readonly deployment: { readonly minimumHealthyPercent: number; readonly maximumPercent: number };
  readonly ports: Record<string, number>;
  /** TCP port the container health check probes; none for containers without a server. */
  readonly healthCheckPort?: number;
  /** A shell command for the health check instead (an HTTP probe, for an image without nc). */
  readonly healthCheckCommand?: string;
  readonly entryPoint?: string[];
  readonly command?: string[];
  readonly environment: Record<string, string>;
  /** Variables ECS sets from Secrets Manager when the task starts (read with the execution role). */
  readonly secrets?: Record<string, ecs.Secret>;
  readonly logRetention: logs.RetentionDays;
  /** SIGTERM, then SIGKILL this much later (the container's stopTimeout). */
  readonly stopTimeout: Duration;
  /** Registers the tasks' IPs as A records under this name in the cluster's namespace. */
  readonly dns?: { readonly name: string; readonly ttl: Duration };
}

/**
 * One long-running role as an ECS service on EC2: an awsvpc ARM64 task of exactly the
 * configured size, its own log group, a TCP health check, rolling deploys with the
 * circuit breaker (and rollback), spread over zones then packed by CPU.
 */
export class EcsService extends Construct {
  static readonly CONTAINER = 'Server';

  readonly taskDefinition: ecs.TaskDefinition;
  readonly container: ecs.ContainerDefinition;
  readonly service: ecs.Ec2Service;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: EcsServiceProps) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, 'Logs', { retention: props.logRetention });
    this.taskDefinition = arm64TaskDefinition(this, 'Task', {
      family: props.name,
      vcpu: props.size.vcpu,
      memoryGiB: props.size.memoryGiB,
      taskRole: props.taskRole,
      executionRole: props.executionRole,
    });
    this.container = addTaskContainer(this.taskDefinition, EcsService.CONTAINER, props.size.memoryGiB * 1024, {
      image: props.image,
      user: props.user,
      entryPoint: props.entryPoint,
      command: props.command,
      environment: props.environment,
      secrets: props.secrets,
      portMappings: Object.entries(props.ports).map(([name, port]) => ({ name, containerPort: port })),
      healthCheck:
        props.healthCheckPort === undefined && props.healthCheckCommand === undefined
          ? undefined
          : {
              command: ['CMD-SHELL', `${props.healthCheckCommand ?? `nc -z 127.0.0.1 ${props.healthCheckPort}`} || exit 1`],
              interval: Duration.seconds(15),
              timeout: Duration.seconds(5),
              retries: 4,
              startPeriod: Duration.minutes(3),
            },
      stopTimeout: props.stopTimeout,
      ulimits: [{ name: ecs.UlimitName.NOFILE, softLimit: 65536, hardLimit: 65536 }],
      logging: ecs.LogDrivers.awsLogs({ logGroup: this.logGroup, streamPrefix: props.name }),
    });
    this.service = new ecs.Ec2Service(this, 'Service', {
      cluster: props.cluster,
      serviceName: props.name,
      taskDefinition: this.taskDefinition,
      desiredCount: props.desiredCount,
      capacityProviderStrategies: [{ capacityProvider: props.capacityProvider.capacityProviderName, weight: 1 }],
      vpcSubnets: props.subnets,
      securityGroups: [props.securityGroup],
      minHealthyPercent: props.deployment.minimumHealthyPercent,
      maxHealthyPercent: props.deployment.maximumPercent,
      circuitBreaker: { enable: true, rollback: true },
      placementStrategies: [ecs.PlacementStrategy.spreadAcross(ecs.BuiltInAttributes.AVAILABILITY_ZONE), ecs.PlacementStrategy.packedByCpu()],
      cloudMapOptions: props.dns ? { name: props.dns.name, dnsRecordType: sd.DnsRecordType.A, dnsTtl: props.dns.ttl } : undefined,
      propagateTags: ecs.PropagatedTagSource.SERVICE,
    });
  }
}

/** What the metrics collector, the one sidecar, may use at most: a task's main container reserves the rest. */
export const SIDECAR_MEMORY_MIB = 256;

/** The tasks that already have the scratch volume. */
const withScratch = new WeakSet<ecs.TaskDefinition>();

/**
 * Adds a task's main container as every task here runs it (CT.ECS.PR.6 and .7; .3 with the
 * image's user): on a read-only root filesystem with a scratch volume at /tmp, where the start
 * commands write their files, and with the task's memory as its hard limit and all but a
 * sidecar's share reserved. On EC2 the scratch volume is a task-scoped Docker volume, which
 * Docker fills from the image's /tmp, mode 1777 included, so a non-root user can write it; on
 * Fargate it is a bind mount, which only root can write.
 */
export function addTaskContainer(
  task: ecs.TaskDefinition,
  id: string,
  taskMemoryMiB: number,
  options: ecs.ContainerDefinitionOptions,
): ecs.ContainerDefinition {
  const container = task.addContainer(id, {
    ...options,
    readonlyRootFilesystem: true,
    memoryLimitMiB: taskMemoryMiB,
    memoryReservationMiB: taskMemoryMiB - SIDECAR_MEMORY_MIB,
  });
  if (!withScratch.has(task)) {
    task.addVolume({ name: 'scratch', dockerVolumeConfiguration: task.isFargateCompatible ? undefined : { scope: ecs.Scope.TASK, driver: 'local' } });
    withScratch.add(task);
  }
  container.addMountPoints({ sourceVolume: 'scratch', containerPath: '/tmp', readOnly: false });
  return container;
}

export interface TaskSizeProps {
  readonly family?: string;
  /** undefined: no task-level CPU (on EC2 a task may leave it out, and reserves none). */
  readonly vcpu: number | undefined;
  readonly memoryGiB: number;
  readonly taskRole: iam.IRole;
  readonly executionRole: iam.IRole;
}

/**
 * An awsvpc task definition for EC2 of exactly the given size, constrained to arm64
 * instances (on EC2, ECS takes the architecture from where the task is placed).
 */
export function arm64TaskDefinition(scope: Construct, id: string, props: TaskSizeProps): ecs.TaskDefinition {
  const taskDefinition = new ecs.TaskDefinition(scope, id, {
    family: props.family,
    compatibility: ecs.Compatibility.EC2,
    networkMode: ecs.NetworkMode.AWS_VPC,
    cpu: props.vcpu === undefined ? undefined : String(props.vcpu * 1024),
    memoryMiB: String(props.memoryGiB * 1024),
    placementConstraints: [ecs.PlacementConstraint.memberOf('attribute:ecs.cpu-architecture == arm64')],
    taskRole: props.taskRole,
    executionRole: props.executionRole,
  });
  acknowledgeNag(
    taskDefinition,
    'ECS2',
    'The environment holds non-secret settings only (addresses, ports, rates, names). Credentials come from the task role (IAM tokens for DSQL, SigV4 for OpenSearch); no secret is passed in the environment.',
  );
  return taskDefinition;
}

/**
 * A task execution role: the ECS agent's, which pulls images, writes logs and hands over the
 * task's secrets. `who` names the tasks it serves in its description.
 */
export function executionRole(scope: Construct, id: string, who: string): iam.Role {
  const role = new iam.Role(scope, id, {
    assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'),
    description: `ECS agent: pull images, write logs and hand over secrets for the ${who}`,
  });
  acknowledgeNag(
    role,
    'IAM5[Resource::*]',
    'ecr:GetAuthorizationToken takes no resource ARN (ECR documents Resource "*"); pulls themselves are scoped to the repositories.',
  );
  return role;
}
