import { Stack, type StackProps } from 'aws-cdk-lib/core';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { TemporalScenario } from '../config';
import { BenchmarkFleet } from './temporal/constructs/stack-scoped/benchmark-fleet';
import { HistoryStore } from './temporal/constructs/stack-scoped/history-store';
import { addIdleAlarms } from './temporal/constructs/stack-scoped/temporal-idle-alarms';
import { addTemporalOutputs } from './temporal/constructs/stack-scoped/temporal-outputs';
import { TemporalPlatform } from './temporal/constructs/stack-scoped/temporal-platform';
import { TemporalServers } from './temporal/constructs/stack-scoped/temporal-servers';
import { TemporalTools } from './temporal/constructs/stack-scoped/temporal-tools';

export interface TemporalDsqlStackProps extends StackProps {
  readonly scenario: TemporalScenario;
}

/**
 * A self-hosted Temporal cluster on ECS (EC2, Graviton) with its history in Aurora DSQL (the
 * fork's plugin) or Aurora PostgreSQL (upstream's), OpenSearch for visibility, Managed
 * Prometheus for metrics, and a benchmark fleet that parks at zero. One stack per environment;
 * presets resize it in place, and the store is fixed for its life. It only wires its groups, in
 * the order they are created: platform, store, servers, tools, fleet. Each group is
 * stack-scoped, so every resource keeps the logical ID deployed environments have.
 */
export class TemporalDsqlStack extends Stack {
  /** The network, pools, hibernation switch, security groups, visibility domain and metrics workspace. */
  readonly platform: TemporalPlatform;
  /** The store the history keeps for life (DSQL and its limiter, or Aurora PostgreSQL) and its guard. */
  readonly historyStore: HistoryStore;
  /** The schema task, then history, matching, frontend and worker. */
  readonly servers: TemporalServers;
  /** The Web UI and Grafana, on the main pool, reached by port forwarding only. */
  readonly tools: TemporalTools;
  /** The benchmark worker service, load generator and store probe, on their own pool. */
  readonly fleet: BenchmarkFleet;
  private readonly azs: readonly string[];

  constructor(scope: Construct, id: string, props: TemporalDsqlStackProps) {
    const { scenario } = props;
    const { environment: e, preset } = scenario;
    super(scope, id, {
      ...props,
      terminationProtection: scenario.protect,
      description: `Temporal on ${preset.store.engine === 'dsql' ? 'Aurora DSQL' : 'Aurora PostgreSQL'}: ECS on Graviton, OpenSearch visibility, a benchmark fleet that parks at zero`,
    });
    this.azs = e.availabilityZones;
    const platform = (this.platform = new TemporalPlatform(this, scenario));
    const { network, capacity, securityGroups, visibility, prometheus, hibernation, logRetention } = platform;
    const { vpc, privateSubnets: subnets } = network;
    const { servers, clients } = securityGroups;
    const placement = { environment: e, preset, cluster: capacity.cluster, capacityProvider: capacity.main, subnets, logRetention, hibernation };

    // One task role for every server process and the schema task: the only principal with
    // store access, limiter writes and visibility access. Instances get none of it.
    const taskRole = new iam.Role(this, 'ServerTaskRole', {
      assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'),
      description: 'Temporal servers: DSQL connect, rate-limiter counter, visibility index, metrics',
    });
    visibility.grantReadWrite(taskRole);
    const schemaLogs = new logs.LogGroup(this, 'SchemaLogs', { retention: logRetention });
    const store = (this.historyStore = new HistoryStore(this, {
      environment: e,
      store: preset.store,
      protect: scenario.protect,
      vpc,
      subnets,
      servers,
      taskRole,
      natAddresses: network.natAddresses,
      dynamoDbEndpoint: network.dynamoDbEndpoint,
      logGroup: schemaLogs,
    }));
    const core = (this.servers = new TemporalServers(this, {
      ...placement,
      securityGroup: servers,
      taskRole,
      store,
      visibilityHost: visibility.domain.domainEndpoint,
      prometheus,
      schemaLogs,
    }));
    const { frontendAddress, stopTimeout, maximumPercent } = core;
    const after = core.services.last;
    const rolling = { stopTimeout, maximumPercent, frontendAddress, prometheus };
    const tools = (this.tools = new TemporalTools(this, { ...placement, ...rolling, vpc, servers, capacity, after }));

    // The benchmark fleet, on its own pool. `fleet` decides who owns the worker count.
    const fleet = (this.fleet = new BenchmarkFleet(this, {
      ...placement,
      ...rolling,
      fleet: scenario.fleet,
      capacityProvider: capacity.benchmark,
      securityGroup: clients,
      probe: { taskRole, executionRole: core.executionRole, store },
    }));
    fleet.worker.service.node.addDependency(after);
    addIdleAlarms(this, scenario, fleet, store);
    addTemporalOutputs(this, scenario, { network, capacity, securityGroups, store, visibility, prometheus, servers: core, tools, fleet });
  }

  /** Pinned in config, so synth never performs an availability-zone lookup. */
  override get availabilityZones(): string[] {
    return [...this.azs];
  }
}
