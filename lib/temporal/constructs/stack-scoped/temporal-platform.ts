import { type Stack } from 'aws-cdk-lib/core';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as sd from 'aws-cdk-lib/aws-servicediscovery';
import type { TemporalScenario } from '../../../../config';
import { containerImage } from '../../../platform/contract/images';
import { EcsCapacity } from '../ecs-capacity';
import { HibernationSwitch } from '../hibernation-switch';
import { LogEncryption } from '../../../platform/constructs/log-encryption';
import { Prometheus } from '../prometheus';
import { ServiceNetwork } from '../service-network';
import { VisibilityDomain } from '../visibility-domain';
import { TemporalSecurityGroups } from './temporal-security-groups';

/*
 * A stack-scoped group, not a construct (see temporal-services.ts): what every other part of a
 * Temporal environment runs in or reports to, under the construct paths (LogEncryption, Network,
 * Capacity, Visibility, Prometheus, ...) every deployed environment has.
 */

/**
 * The log key, the VPC, the two pools (main and benchmark) with the cluster and its service
 * namespace, the hibernation switch, the security groups, the visibility domain the servers
 * reach, and the metrics workspace with its collector image.
 */
export class TemporalPlatform {
  readonly network: ServiceNetwork;
  readonly capacity: EcsCapacity;
  /** While hibernated (npm run hibernate), every count it holds is 0, whatever deploys meanwhile. */
  readonly hibernation: HibernationSwitch;
  readonly securityGroups: TemporalSecurityGroups;
  readonly visibility: VisibilityDomain;
  readonly prometheus: Prometheus;
  readonly logRetention: logs.RetentionDays;

  constructor(scope: Stack, scenario: TemporalScenario) {
    const { environment: e, preset } = scenario;
    const logRetention = (this.logRetention = e.logRetentionDays as logs.RetentionDays);
    new LogEncryption(scope, 'LogEncryption');
    this.network = new ServiceNetwork(scope, 'Network', { cidr: e.vpcCidr, availabilityZones: e.availabilityZones, natGateways: e.natGateways });
    const { vpc, privateSubnets: subnets } = this.network;
    const { main, benchmark } = preset.capacity;
    this.capacity = new EcsCapacity(scope, 'Capacity', {
      vpc,
      subnets,
      availabilityZones: e.availabilityZones,
      clusterName: e.names.cluster,
      main: { instanceType: main.instanceType, minInstances: main.instances, maxInstances: main.instances },
      benchmark: { instanceType: benchmark.instanceType, minInstances: 0, maxInstances: benchmark.maxInstances },
      reservedMemoryMiB: e.ecsReservedMemoryMiB,
    });
    this.hibernation = new HibernationSwitch(scope);
    this.hibernation.holdMinimum(this.capacity.main.autoScalingGroup, main.instances);
    this.capacity.cluster.addDefaultCloudMapNamespace({ name: e.names.serviceNamespace, type: sd.NamespaceType.DNS_PRIVATE, vpc });
    this.securityGroups = new TemporalSecurityGroups(scope, { vpc, ports: e.ports });

    this.visibility = new VisibilityDomain(scope, 'Visibility', {
      vpc,
      subnets,
      availabilityZoneCount: Math.min(e.availabilityZones.length, 3),
      domainName: e.names.visibilityDomain,
      engineVersion: e.visibility.engineVersion,
      logRetention,
      ...preset.visibility,
    });
    this.visibility.allowFrom(this.securityGroups.servers);
    this.prometheus = new Prometheus(scope, 'Prometheus', {
      alias: e.names.prometheusWorkspace,
      collectorImage: containerImage(scope, 'CollectorImage', e.images.collector),
      collectorUser: e.images.collector.user,
      scrapeInterval: e.observability.prometheus.scrapeInterval,
    });
  }
}
