import { CfnOutput } from 'aws-cdk-lib/core';
import type { Construct } from 'constructs';
import type { TemporalScenario } from '../../../../config';
import { TEMPORAL_OUTPUTS as O, type TemporalOutput } from '../../contract/temporal-stack-outputs';
import type { EcsCapacity } from '../ecs-capacity';
import type { Prometheus } from '../prometheus';
import type { ServiceNetwork } from '../service-network';
import type { VisibilityDomain } from '../visibility-domain';
import type { BenchmarkFleet } from './benchmark-fleet';
import type { HistoryStore } from './history-store';
import type { TemporalSecurityGroups } from './temporal-security-groups';
import type { TemporalServers } from './temporal-servers';
import type { TemporalTools } from './temporal-tools';

/** What the stack's outputs read: the wired parts. */
export interface TemporalOutputParts {
  readonly network: ServiceNetwork;
  readonly capacity: EcsCapacity;
  readonly securityGroups: TemporalSecurityGroups;
  readonly store: HistoryStore;
  readonly visibility: VisibilityDomain;
  readonly prometheus: Prometheus;
  readonly servers: TemporalServers;
  readonly tools: TemporalTools;
  readonly fleet: BenchmarkFleet;
}

/** The outputs the companion commands read (lib/temporal/contract/temporal-stack-outputs.ts names them). */
export function addTemporalOutputs(scope: Construct, scenario: TemporalScenario, p: TemporalOutputParts): void {
  const out = (name: TemporalOutput, value: string, description?: string) => new CfnOutput(scope, name, { value, description });
  const { store, capacity } = p;
  out(O.scenario, scenario.name, 'The preset this stack was last deployed with');
  out(O.clusterName, capacity.cluster.clusterName);
  out(O.frontendAddress, p.servers.frontendAddress, 'Temporal frontend gRPC, inside the VPC');
  out(O.historyStoreEngine, scenario.preset.store.engine, "Where Temporal's history is kept, for the life of this environment");
  // A deploy that changes it is refused by the history store's guard and rolled back: the output keeps the value the cluster was created with.
  out(O.historyShards, String(scenario.environment.persistence.numHistoryShards), "Temporal's history shard count, for the life of this environment");
  if (store.dsql && store.limiter) {
    out(O.dsqlEndpoint, store.dsql.endpoint);
    out(O.dsqlClusterId, store.dsql.identifier, 'Dimension ClusterId of the AWS/AuroraDSQL metrics');
    out(O.rateLimiterTable, store.limiter.table.tableName);
  }
  if (store.aurora) {
    out(O.auroraEndpoint, store.aurora.host, 'The Aurora writer, reachable from the server tasks only');
    out(O.auroraClusterId, store.aurora.identifier, 'Dimension DBClusterIdentifier of the AWS/RDS metrics');
    out(O.auroraSecretArn, store.aurora.secret.secretArn, 'The master credential (read by ECS for the schema task; the servers sign IAM tokens)');
  }
  out(O.visibilityEndpoint, p.visibility.domain.domainEndpoint);
  out(O.prometheusWorkspaceId, p.prometheus.workspace.attrWorkspaceId);
  out(O.benchmarkWorkerService, p.fleet.worker.service.serviceName);
  out(O.benchmarkAsgName, capacity.benchmark.autoScalingGroup.autoScalingGroupName);
  out(O.mainAsgName, capacity.main.autoScalingGroup.autoScalingGroupName, "The Temporal servers' pool (0 instances while hibernated)");
  out(O.uiAddress, p.tools.ui.address, 'The Temporal Web UI inside the VPC: npm run ui prints how to forward a port to it');
  out(O.grafanaAddress, p.tools.grafana.address, 'Grafana with the live dashboard inside the VPC: npm run ui prints how to forward a port to it');
  out(O.benchmarkCapacityProvider, capacity.benchmark.capacityProviderName);
  out(O.generatorTaskDefinition, p.fleet.generator.taskDefinitionArn);
  out(O.benchmarkSecurityGroupId, p.securityGroups.clients.securityGroupId);
  out(O.storeProbeTaskDefinition, p.fleet.storeProbe.taskDefinitionArn, "bench run's store round-trip probe");
  out(O.serverSecurityGroupId, p.securityGroups.servers.securityGroupId, 'The Temporal servers (and the store probe) run in it');
  out(O.privateSubnets, p.network.vpc.selectSubnets(p.network.privateSubnets).subnetIds.join(','));
}
