import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Construct } from 'constructs';
import { SERVICE_NETWORK_ENDPOINTS } from '../contract/temporal-endpoints';
import { acknowledgeDefaultSecurityGroupHandler, acknowledgePinnedZones, logRejectedTraffic } from '../../platform/constructs/network';

export interface ServiceNetworkProps {
  readonly cidr: string;
  /** Pinned in config: the stack never looks availability zones up. */
  readonly availabilityZones: readonly string[];
  readonly natGateways: number;
}

/**
 * A VPC for ECS services: tasks and instances in private subnets, NAT for what has no
 * endpoint (the ECS control plane, Aurora DSQL's public endpoint), gateway endpoints for S3
 * (ECR layers) and DynamoDB (the rate limiter), and interface endpoints for the APIs every
 * task calls, so that image pulls, logs and metrics stay off the NAT.
 */
export class ServiceNetwork extends Construct {
  static readonly PRIVATE_SUBNETS = 'Private';

  readonly vpc: ec2.Vpc;

  constructor(scope: Construct, id: string, props: ServiceNetworkProps) {
    super(scope, id);
    this.vpc = new ec2.Vpc(this, 'Vpc', {
      ipAddresses: ec2.IpAddresses.cidr(props.cidr),
      availabilityZones: [...props.availabilityZones],
      natGateways: props.natGateways,
      subnetConfiguration: [
        { name: 'Public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24, mapPublicIpOnLaunch: false },
        { name: ServiceNetwork.PRIVATE_SUBNETS, subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 20 },
      ],
      gatewayEndpoints: {
        S3: { service: ec2.GatewayVpcEndpointAwsService.S3 },
        DynamoDB: { service: ec2.GatewayVpcEndpointAwsService.DYNAMODB },
      },
    });
    for (const [name, shortName] of SERVICE_NETWORK_ENDPOINTS) {
      const service = new ec2.InterfaceVpcEndpointAwsService(shortName);
      // The endpoint's security group admits HTTPS from the VPC's own range only, written as the
      // literal range from config so that a reviewer (and cdk-nag) can read it.
      const endpoint = this.vpc.addInterfaceEndpoint(name, { service, subnets: this.privateSubnets, privateDnsEnabled: true, open: false });
      endpoint.connections.allowFrom(ec2.Peer.ipv4(props.cidr), ec2.Port.tcp(443), 'HTTPS from the VPC');
    }
    acknowledgePinnedZones(this.vpc);
    acknowledgeDefaultSecurityGroupHandler(this.vpc);
    logRejectedTraffic(this.vpc);
  }

  /** The DynamoDB gateway endpoint: the route by which tasks reach the rate-limiter table. */
  get dynamoDbEndpoint(): ec2.GatewayVpcEndpoint {
    return this.vpc.node.findChild('DynamoDB') as ec2.GatewayVpcEndpoint;
  }

  /** The NAT gateways' public addresses: where the environment's traffic to public endpoints comes from. */
  get natAddresses(): string[] {
    return this.vpc.publicSubnets.flatMap((s) => {
      const eip = s.node.tryFindChild('EIP');
      return eip ? [(eip as ec2.CfnEIP).attrPublicIp] : [];
    });
  }

  get privateSubnets(): ec2.SubnetSelection {
    return { subnetGroupName: ServiceNetwork.PRIVATE_SUBNETS };
  }
}
