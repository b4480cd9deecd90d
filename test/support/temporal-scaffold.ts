import { App, Stack } from 'aws-cdk-lib/core';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import { resolveScenario, type TemporalScenario } from '../../config';
import { EcsCapacity } from '../../lib/temporal/constructs/ecs-capacity';
import { HistoryStore } from '../../lib/temporal/constructs/stack-scoped/history-store';
import { Prometheus } from '../../lib/temporal/constructs/prometheus';

/**
 * What the Temporal constructs are built on, in a bare stack: a preset resolved from config, a
 * two-zone VPC of isolated subnets, the servers' security group and task role, and the preset's
 * history store. The construct tests (history store, services, benchmark fleet) add theirs to it.
 */
export function temporalScaffold(name: string) {
  const scenario = resolveScenario({ scenario: name }) as TemporalScenario;
  const stack = new Stack(new App(), 'S', { env: scenario.env });
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 2, natGateways: 0, subnetConfiguration: [{ name: 'private', subnetType: ec2.SubnetType.PRIVATE_ISOLATED }] });
  const subnets = { subnets: vpc.isolatedSubnets };
  const servers = new ec2.SecurityGroup(stack, 'Servers', { vpc, allowAllOutbound: false });
  const taskRole = new iam.Role(stack, 'TaskRole', { assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com') });
  const dynamoDbEndpoint = vpc.addGatewayEndpoint('DynamoDb', { service: ec2.GatewayVpcEndpointAwsService.DYNAMODB });
  const store = new HistoryStore(stack, {
    environment: scenario.environment,
    store: scenario.preset.store,
    protect: true,
    vpc,
    subnets,
    servers,
    taskRole,
    natAddresses: ['203.0.113.10'],
    dynamoDbEndpoint,
    logGroup: new logs.LogGroup(stack, 'Logs'),
  });
  return { scenario, stack, vpc, subnets, servers, taskRole, dynamoDbEndpoint, store };
}

/** A small ECS cluster with both pools, for the constructs that run tasks. */
export function scaffoldCapacity(s: Pick<ReturnType<typeof temporalScaffold>, 'stack' | 'vpc' | 'subnets'>): EcsCapacity {
  return new EcsCapacity(s.stack, 'Capacity', {
    vpc: s.vpc,
    subnets: s.subnets,
    availabilityZones: s.vpc.availabilityZones,
    clusterName: 'c',
    main: { instanceType: 'm7g.2xlarge', minInstances: 1, maxInstances: 1 },
    benchmark: { instanceType: 'm7g.large', minInstances: 0, maxInstances: 2 },
    reservedMemoryMiB: 0,
  });
}

/** An execution role like the stack's, for a task definition that needs one. */
export const scaffoldExecutionRole = (stack: Stack, id = 'ExecutionRole') =>
  new iam.Role(stack, id, { assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com') });

/** A Managed Prometheus workspace with a placeholder collector image. */
export const scaffoldPrometheus = (stack: Stack) =>
  new Prometheus(stack, 'Prometheus', {
    alias: 'p',
    collectorImage: ecs.ContainerImage.fromRegistry('collector'),
    collectorUser: '10001',
    scrapeInterval: '15s',
  });
