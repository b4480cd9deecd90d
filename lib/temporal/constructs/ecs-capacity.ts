import * as autoscaling from 'aws-cdk-lib/aws-autoscaling';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import { Construct } from 'constructs';
import { acknowledgeControl, acknowledgeNag } from '../../platform/constructs/lint-acknowledgements';
import { acknowledgePinnedZones } from '../../platform/constructs/network';

/** Instance types of the 8th generation on (m8g, c8g, ...), which CT.EC2.PR.15's list of Nitro types predates. */
const NEWER_THAN_CONTROL_NITRO_LIST = /^[a-z]+(?:[89]|\d{2,})[a-z-]*\./;

export interface PoolProps {
  readonly instanceType: string;
  readonly minInstances: number;
  readonly maxInstances: number;
}

export interface EcsCapacityProps {
  readonly vpc: ec2.IVpc;
  readonly subnets: ec2.SubnetSelection;
  /** The zones of `subnets`, pinned in config: both groups name them (CT.AUTOSCALING.PR.1). */
  readonly availabilityZones: readonly string[];
  readonly clusterName: string;
  /** Temporal's servers: a fixed-size pool. */
  readonly main: PoolProps;
  /** The benchmark fleet: scales with its tasks, down to zero. */
  readonly benchmark: PoolProps;
  /** ECS_RESERVED_MEMORY on every instance (the capacity model counts with it). */
  readonly reservedMemoryMiB: number;
}

/**
 * An ECS cluster (Container Insights on) with two EC2 capacity providers on Graviton: the
 * main pool for Temporal and the benchmark pool. Both run the ECS-optimized AL2023 arm64
 * AMI, resolved by CloudFormation from its public SSM parameter at deploy time, so synth
 * looks nothing up.
 *
 * The benchmark pool's size follows its tasks (managed scaling, minimum 0, no scale-in
 * protection): when its services are at zero tasks, ECS drains it to zero instances. No
 * desired capacity is set on either group, so a deploy never overrides what scaling chose.
 */
export class EcsCapacity extends Construct {
  readonly cluster: ecs.Cluster;
  readonly main: ecs.AsgCapacityProvider;
  readonly benchmark: ecs.AsgCapacityProvider;
  /** The instances' own security group: no ingress; tasks have their own groups. */
  readonly instanceSecurityGroup: ec2.SecurityGroup;

  constructor(scope: Construct, id: string, props: EcsCapacityProps) {
    super(scope, id);
    this.cluster = new ecs.Cluster(this, 'Cluster', {
      vpc: props.vpc,
      clusterName: props.clusterName,
      containerInsightsV2: ecs.ContainerInsights.ENABLED,
    });
    this.instanceSecurityGroup = new ec2.SecurityGroup(this, 'InstanceSecurityGroup', {
      vpc: props.vpc,
      description: 'ECS container instances: no ingress; egress to the ECS, ECR and SSM APIs',
      allowAllOutbound: true,
    });
    this.main = this.pool('Main', props, props.main, true);
    this.benchmark = this.pool('Benchmark', props, props.benchmark, false);
  }

  private pool(id: string, props: EcsCapacityProps, pool: PoolProps, protectFromScaleIn: boolean): ecs.AsgCapacityProvider {
    const asg = new autoscaling.AutoScalingGroup(this, `${id}Asg`, {
      vpc: props.vpc,
      vpcSubnets: props.subnets,
      instanceType: new ec2.InstanceType(pool.instanceType),
      machineImage: ecs.EcsOptimizedImage.amazonLinux2023(ecs.AmiHardwareType.ARM),
      minCapacity: pool.minInstances,
      maxCapacity: pool.maxInstances,
      // Managed termination protection: ECS never scales in an instance that runs tasks.
      newInstancesProtectedFromScaleIn: protectFromScaleIn,
      securityGroup: this.instanceSecurityGroup,
      requireImdsv2: true,
      // 1-minute EC2 metrics (CT.EC2.PR.10): a run's CPU and network per instance at the
      // resolution the reports read everything else in.
      instanceMonitoring: autoscaling.Monitoring.DETAILED,
      blockDevices: [
        { deviceName: '/dev/xvda', volume: autoscaling.BlockDeviceVolume.ebs(30, { encrypted: true, volumeType: autoscaling.EbsDeviceVolumeType.GP3 }) },
      ],
    });
    // Subnets alone would do for EC2; naming their zones too is what the control reads.
    const group = asg.node.defaultChild as autoscaling.CfnAutoScalingGroup;
    group.availabilityZones = [...props.availabilityZones];
    acknowledgePinnedZones(asg, [group]);
    acknowledgeControl(
      asg,
      'CT.AUTOSCALING.PR.6',
      "One instance type per pool, on purpose: a benchmark's figures are only comparable on the hardware they were measured on, and the capacity model packs tasks for exactly this type's vCPUs, memory and ENIs. A second type would change both between runs.",
    );
    if (NEWER_THAN_CONTROL_NITRO_LIST.test(pool.instanceType))
      acknowledgeControl(
        asg.node.findChild('LaunchTemplate'),
        'CT.EC2.PR.15',
        `${pool.instanceType} is a Nitro instance type (every Graviton and every 8th-generation type is); the control's list of Nitro types was written before the 8th generation and ends at the 7th.`,
      );
    acknowledgeNag(
      asg,
      'AS3',
      'Scaling is ECS managed scaling; what matters (tasks below desired, CPU) alarms in the observability stack, so instance-launch notifications would only add noise.',
    );
    // The ECS agent's own permissions, as CDK grants them for a capacity provider.
    const agent =
      'The ECS container agent\'s permissions (ecs:Submit*, ecs:Poll, ecs:DiscoverPollEndpoint, ecr:GetAuthorizationToken and the like) that ECS documents with Resource "*": these actions take no resource ARN. The role holds no data-plane permission.';
    acknowledgeNag(asg, 'IAM5[Action::ecs:Submit*]', agent);
    acknowledgeNag(asg, 'IAM5[Resource::*]', agent);
    // Tasks must use their own role: block the instance metadata service from awsvpc tasks.
    asg.addUserData(`echo ECS_RESERVED_MEMORY=${props.reservedMemoryMiB} >> /etc/ecs/ecs.config`, 'echo ECS_AWSVPC_BLOCK_IMDS=true >> /etc/ecs/ecs.config');
    const provider = new ecs.AsgCapacityProvider(this, `${id}CapacityProvider`, {
      autoScalingGroup: asg,
      enableManagedScaling: true,
      targetCapacityPercent: 100,
      enableManagedTerminationProtection: protectFromScaleIn,
      // ECS drains an instance's tasks before scale-in itself: no drain-hook Lambda needed.
      enableManagedDraining: true,
    });
    this.cluster.addAsgCapacityProvider(provider);
    return provider;
  }
}
