import { type CfnResource, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib/core';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct, type IConstruct } from 'constructs';
import { acknowledgeDeployTimeFunctions } from './lint-acknowledgements';

export interface NetworkProps {
  readonly cidr: string;
  /** Pinned in config: the stack never looks availability zones up. */
  readonly availabilityZones: readonly string[];
}

/**
 * A VPC with one isolated subnet per availability zone for databases. No internet gateway and
 * no NAT: nothing in these subnets reaches out, and clients come in over peering or attachments.
 */
export class Network extends Construct {
  static readonly DATABASE_SUBNETS = 'Database';

  readonly vpc: ec2.Vpc;

  constructor(scope: Construct, id: string, props: NetworkProps) {
    super(scope, id);
    this.vpc = new ec2.Vpc(this, 'Vpc', {
      ipAddresses: ec2.IpAddresses.cidr(props.cidr),
      availabilityZones: [...props.availabilityZones],
      natGateways: 0,
      subnetConfiguration: [{ name: Network.DATABASE_SUBNETS, subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 24 }],
    });
    acknowledgePinnedZones(this.vpc);
    acknowledgeDefaultSecurityGroupHandler(this.vpc);
    logRejectedTraffic(this.vpc);
  }

  get databaseSubnets(): ec2.SubnetSelection {
    return { subnetGroupName: Network.DATABASE_SUBNETS };
  }
}

/**
 * A flow log of rejected traffic: what a security group or NACL refused, which is what an
 * audit asks for. Accepted traffic is left out: under benchmark load it would cost more in
 * log ingestion than the instances it describes.
 */
export function logRejectedTraffic(vpc: ec2.Vpc): void {
  const logGroup = new logs.LogGroup(vpc, 'RejectedTrafficLogs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.RETAIN });
  vpc.addFlowLog('RejectedTraffic', { trafficType: ec2.FlowLogTrafficType.REJECT, destination: ec2.FlowLogDestination.toCloudWatchLogs(logGroup) });
}

/**
 * Pinned zones are the point (hermetic synth), so the hard-coded-zone rule does not apply:
 * acknowledged for CDK's validation under `scope` and for cfn-lint on each resource that names
 * a zone (by default, every subnet of the VPC `scope`).
 */
export function acknowledgePinnedZones(scope: IConstruct, resources: readonly CfnResource[] = subnetsOf(scope as ec2.Vpc)): void {
  Validations.of(scope).acknowledge({
    id: 'CloudFormation-Validate::W3010',
    reason: 'Availability zones are pinned in config so that synth never looks them up',
  });
  for (const resource of resources) resource.addMetadata('cfn-lint', { config: { ignore_checks: ['W3010'] } });
}

const subnetsOf = (vpc: ec2.Vpc) => [...vpc.publicSubnets, ...vpc.privateSubnets, ...vpc.isolatedSubnets].map((s) => s.node.defaultChild as CfnResource);

/** The handler CDK adds to a stack to strip a VPC's default security group of its rules: a deploy-time function. */
export function acknowledgeDefaultSecurityGroupHandler(vpc: ec2.Vpc): void {
  acknowledgeDeployTimeFunctions(Stack.of(vpc).node.findChild('Custom::VpcRestrictDefaultSGCustomResourceProvider'));
}
