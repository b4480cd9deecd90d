import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib/core';
import type { Construct } from 'constructs';
import type { FolioScenario } from '../config';
import { AuroraPair } from './folio/constructs/aurora-pair';
import { IdleClusterStop } from './platform/constructs/idle-parking';
import { LogEncryption } from './platform/constructs/log-encryption';
import { ModuleRouting } from './folio/constructs/module-routing';
import { Network } from './platform/constructs/network';
import { SchemaMover } from './folio/constructs/schema-mover';
import { containerImage } from './platform/contract/images';
import { folioIdleRules } from './folio/contract/folio-idle-rule';
import { FOLIO_OUTPUTS } from './folio/contract/folio-stack-outputs';

export interface HybridAuroraStackProps extends StackProps {
  readonly scenario: FolioScenario;
}

/** FOLIO's hybrid database layer for one phase: network, the Aurora pair, module routing, the schema mover. */
export class HybridAuroraStack extends Stack {
  readonly network: Network;
  readonly aurora: AuroraPair;
  readonly routing: ModuleRouting;
  readonly mover: SchemaMover;
  private readonly azs: readonly string[];

  constructor(scope: Construct, id: string, props: HybridAuroraStackProps) {
    const { scenario } = props;
    const { environment: e, phase } = scenario;
    super(scope, id, {
      ...props,
      terminationProtection: scenario.protect,
      description:
        'FOLIO hybrid Aurora: a primary cluster beside an offload cluster (Serverless v2 or provisioned), routed per module, and the task that moves schemas between them',
    });
    this.azs = e.availabilityZones;

    new LogEncryption(this, 'LogEncryption');
    this.network = new Network(this, 'Network', { cidr: e.vpcCidr, availabilityZones: e.availabilityZones });
    this.aurora = new AuroraPair(this, 'Aurora', {
      vpc: this.network.vpc,
      subnets: this.network.databaseSubnets,
      database: e.database,
      names: e.names,
      clientCidrs: e.clientCidrs,
      primaryInstanceClass: phase.primaryInstanceClass,
      offload: phase.offload,
      storage: scenario.storage,
      protect: scenario.protect,
    });
    this.routing = new ModuleRouting(this, 'Routing', {
      routes: scenario.routes,
      member: (role) => this.aurora.member(role),
      adminSecret: this.aurora.adminSecret,
      encryptionKey: this.aurora.key,
      port: e.database.port,
      databaseName: e.database.databaseName,
      manifestParameterName: e.names.routingParameter,
      vpc: this.network.vpc,
      zoneName: e.names.moduleZone,
      ttlSeconds: e.routing.ttlSeconds,
    });

    this.mover = new SchemaMover(this, 'SchemaMover', {
      vpc: this.network.vpc,
      subnets: this.network.databaseSubnets,
      member: (role) => this.aurora.member(role),
      databaseSecurityGroup: this.aurora.securityGroup,
      adminSecret: this.aurora.adminSecret,
      port: e.database.port,
      databaseName: e.database.databaseName,
      image: containerImage(this, 'MoverImage', e.mover.image),
      vcpu: e.mover.vcpu,
      memoryGiB: e.mover.memoryGiB,
      lockTimeout: e.mover.lockTimeout,
      s3PrefixListId: e.mover.s3PrefixListId,
      routeTimeout: e.routing.switchTimeout,
      routeGrace: e.routing.sourceGrace,
    });

    // Both clusters without a client for the configured time are stopped, and the alarm topic told.
    for (const rule of folioIdleRules(scenario))
      new IdleClusterStop(this, 'IdleStop', {
        rule,
        alarmName: `${e.observability.dashboard}-${rule.id}`,
        topicName: e.observability.alarmTopic,
      }).node.addDependency(this.aurora);

    new CfnOutput(this, FOLIO_OUTPUTS.phase, { value: phase.name, description: 'The phase this stack was last deployed with' });
    new CfnOutput(this, FOLIO_OUTPUTS.vpcId, { value: this.network.vpc.vpcId });
    new CfnOutput(this, FOLIO_OUTPUTS.primaryEndpoint, { value: this.aurora.primary.cluster.clusterEndpoint.hostname });
    new CfnOutput(this, FOLIO_OUTPUTS.offloadEndpoint, { value: this.aurora.offload.cluster.clusterEndpoint.hostname });
    new CfnOutput(this, FOLIO_OUTPUTS.primaryReaderEndpoint, { value: this.aurora.primary.cluster.clusterReadEndpoint.hostname });
    new CfnOutput(this, FOLIO_OUTPUTS.offloadReaderEndpoint, { value: this.aurora.offload.cluster.clusterReadEndpoint.hostname });
    new CfnOutput(this, FOLIO_OUTPUTS.moduleZoneId, {
      value: this.routing.zone.hostedZoneId,
      description: "The modules' routes (npm run move --online repoints them)",
    });
    new CfnOutput(this, FOLIO_OUTPUTS.adminSecretName, { value: e.names.adminSecret });
    new CfnOutput(this, FOLIO_OUTPUTS.routingParameterName, { value: e.names.routingParameter });
    new CfnOutput(this, FOLIO_OUTPUTS.moverCluster, { value: this.mover.cluster.clusterName, description: 'ECS cluster of the schema mover (npm run move)' });
    new CfnOutput(this, FOLIO_OUTPUTS.moverTaskDefinition, { value: this.mover.taskDefinition.taskDefinitionArn });
    new CfnOutput(this, FOLIO_OUTPUTS.moverSecurityGroupId, { value: this.mover.securityGroup.securityGroupId });
    new CfnOutput(this, FOLIO_OUTPUTS.moverSubnets, { value: this.network.vpc.selectSubnets(this.network.databaseSubnets).subnetIds.join(',') });
    new CfnOutput(this, FOLIO_OUTPUTS.moverLogGroup, { value: this.mover.logGroup.logGroupName });
  }

  /** Pinned in config, so synth never performs an availability-zone lookup. */
  override get availabilityZones(): string[] {
    return [...this.azs];
  }
}
