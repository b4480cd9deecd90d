import { CfnOutput, type CfnResource, Duration, Stack, type StackProps, aws_iam as iam, aws_logs as logs, aws_servicediscovery as sd } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { TemporalScenario } from '../config';
import { durationSeconds } from '../config/fields';
import { benchmarkWorkerCapacity } from '../config/packing';
import { BenchmarkFleet } from './constructs/stack-scoped/benchmark-fleet';
import { EcsCapacity } from './constructs/ecs-capacity';
import { executionRole } from './constructs/ecs-service';
import { HibernationSwitch } from './constructs/hibernation-switch';
import { IdleClusterStop, IdleFleetParking } from './constructs/idle-parking';
import { HistoryStore } from './constructs/stack-scoped/history-store';
import { LogEncryption } from './constructs/log-encryption';
import { Prometheus } from './constructs/prometheus';
import { SchemaSetup } from './constructs/schema-setup';
import { ServiceNetwork } from './constructs/service-network';
import { TemporalSecurityGroups } from './constructs/stack-scoped/temporal-security-groups';
import { TemporalServices } from './constructs/stack-scoped/temporal-services';
import { TemporalUi } from './constructs/temporal-ui';
import { TemporalGrafana } from './constructs/temporal-grafana';
import { VisibilityDomain } from './constructs/visibility-domain';
import { idleRules } from './contract/idle-rule';
import { containerImage } from './contract/images';
import { BENCHMARK_WORKER_SERVICE } from './contract/physical-names';
import { TEMPORAL_OUTPUTS, type TemporalOutput } from './contract/stack-outputs';
import { schemaCommand, schemaEnvironment } from './contract/temporal-config';

export interface TemporalDsqlStackProps extends StackProps {
  readonly scenario: TemporalScenario;
}

/**
 * A self-hosted Temporal cluster on ECS (EC2, Graviton) with its history in Aurora DSQL (the
 * fork's plugin) or Aurora PostgreSQL (upstream's), OpenSearch for visibility, Managed
 * Prometheus for metrics, and a benchmark fleet that parks at zero. One stack per
 * environment; presets resize it in place, and the store is fixed for its life.
 */
export class TemporalDsqlStack extends Stack {
  readonly network: ServiceNetwork;
  readonly capacity: EcsCapacity;
  /** The store the history keeps for life (DSQL and its limiter, or Aurora PostgreSQL) and its guard. */
  readonly historyStore: HistoryStore;
  readonly visibility: VisibilityDomain;
  readonly prometheus: Prometheus;
  readonly schema: SchemaSetup;
  readonly securityGroups: TemporalSecurityGroups;
  /** History, matching, frontend and worker, started in that order after the schema task. */
  readonly services: TemporalServices;
  /** The benchmark worker service, load generator and store probe, on their own pool. */
  readonly fleet: BenchmarkFleet;
  /** The Temporal Web UI: in every environment, running where the preset says so. */
  readonly ui: TemporalUi;
  readonly grafana: TemporalGrafana;
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
    const retention = e.logRetentionDays as logs.RetentionDays;

    new LogEncryption(this, 'LogEncryption');
    this.network = new ServiceNetwork(this, 'Network', { cidr: e.vpcCidr, availabilityZones: e.availabilityZones, natGateways: e.natGateways });
    const { vpc } = this.network;
    const subnets = this.network.privateSubnets;
    this.capacity = new EcsCapacity(this, 'Capacity', {
      vpc,
      subnets,
      availabilityZones: e.availabilityZones,
      clusterName: e.names.cluster,
      main: { instanceType: preset.capacity.main.instanceType, minInstances: preset.capacity.main.instances, maxInstances: preset.capacity.main.instances },
      benchmark: { instanceType: preset.capacity.benchmark.instanceType, minInstances: 0, maxInstances: preset.capacity.benchmark.maxInstances },
      reservedMemoryMiB: e.ecsReservedMemoryMiB,
    });
    const { cluster } = this.capacity;
    // While hibernated (npm run hibernate), every count below is 0, whatever deploys meanwhile.
    const hibernation = new HibernationSwitch(this);
    hibernation.holdMinimum(this.capacity.main.autoScalingGroup, preset.capacity.main.instances);
    cluster.addDefaultCloudMapNamespace({ name: e.names.serviceNamespace, type: sd.NamespaceType.DNS_PRIVATE, vpc });

    const { servers, clients } = (this.securityGroups = new TemporalSecurityGroups(this, { vpc, ports: e.ports }));

    this.visibility = new VisibilityDomain(this, 'Visibility', {
      vpc,
      subnets,
      availabilityZoneCount: Math.min(e.availabilityZones.length, 3),
      domainName: e.names.visibilityDomain,
      engineVersion: e.visibility.engineVersion,
      logRetention: retention,
      ...preset.visibility,
    });
    this.visibility.allowFrom(servers);

    this.prometheus = new Prometheus(this, 'Prometheus', {
      alias: e.names.prometheusWorkspace,
      collectorImage: containerImage(this, 'CollectorImage', e.images.collector),
      collectorUser: e.images.collector.user,
      scrapeInterval: e.observability.prometheus.scrapeInterval,
    });

    // One task role for every server process and the schema task: the only principal with
    // store access, limiter writes and visibility access. Instances get none of it.
    const taskRole = new iam.Role(this, 'ServerTaskRole', {
      assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'),
      description: 'Temporal servers: DSQL connect, rate-limiter counter, visibility index, metrics',
    });
    this.visibility.grantReadWrite(taskRole);

    const schemaLogs = new logs.LogGroup(this, 'SchemaLogs', { retention });
    const store = (this.historyStore = new HistoryStore(this, {
      environment: e,
      store: preset.store,
      protect: scenario.protect,
      vpc,
      subnets,
      servers,
      taskRole,
      dynamoDbEndpoint: this.network.dynamoDbEndpoint,
      logGroup: schemaLogs,
    }));
    // Two execution roles: the servers' (with the schema task's) reads the Aurora store's
    // secret where there is one; the benchmark's never can.
    const serverExecutionRole = executionRole(this, 'ExecutionRole', 'Temporal server and schema tasks');

    const aurora = preset.store.engine === 'aurora-postgresql';
    const serverRef = aurora ? e.auroraPostgresql.images.server : e.images.server;
    const serverImage = containerImage(this, 'ServerImage', serverRef);
    // The fork's image carries its schema tool; upstream's tools come in admin-tools.
    const schemaRef = aurora ? e.auroraPostgresql.images.schemaTool : serverRef;
    const schemaImage = aurora ? containerImage(this, 'SchemaToolImage', schemaRef) : serverImage;
    const frontendAddress = `frontend.${e.names.serviceNamespace}:${e.ports.frontend.grpc}`;

    this.schema = new SchemaSetup(this, 'Schema', {
      cluster,
      capacityProvider: this.capacity.main,
      subnets,
      securityGroup: servers,
      image: schemaImage,
      user: schemaRef.user,
      taskRole,
      executionRole: serverExecutionRole,
      ...e.schemaSetupTask,
      command: schemaCommand(e, preset.store.engine),
      environment: schemaEnvironment(e, preset.store.engine, {
        storeHost: store.host,
        tokenEndpoint: store.tokenEndpoint,
        visibilityHost: this.visibility.domain.domainEndpoint,
      }),
      secrets: store.secrets,
      logGroup: schemaLogs,
    });
    // RunTask needs the capacity providers associated with the cluster: CDK adds that
    // association under the cluster when it synthesizes, so depend on the whole cluster.
    this.schema.resource.node.addDependency(cluster);
    // Every server starts after the schema task, and the schema task once the store is reachable.
    this.schema.resource.node.addDependency(...store.ready);
    (this.schema.resource.node.defaultChild as CfnResource).addMetadata('cfn-lint', { config: { ignore_checks: ['W3005'] } });

    // A preset may roll more gently than the environment: its surge counts against the limits.
    const maximumPercent = preset.deployment?.maximumPercent ?? e.deployment.maximumPercent;
    const stopTimeout = Duration.seconds(durationSeconds(e.deployment.stopTimeout));
    this.services = new TemporalServices(this, {
      environment: e,
      preset,
      cluster,
      capacityProvider: this.capacity.main,
      subnets,
      securityGroup: servers,
      image: serverImage,
      user: serverRef.user,
      taskRole,
      executionRole: serverExecutionRole,
      store,
      endpoints: { storeHost: store.host, visibilityHost: this.visibility.domain.domainEndpoint, frontendAddress },
      prometheus: this.prometheus,
      logRetention: retention,
      stopTimeout,
      maximumPercent,
      hibernation,
      after: this.schema.resource,
    });

    // The Web UI, on the main pool beside the servers, reached by port forwarding only. Every
    // preset has its resources, so a switch never adds or deletes them: `ui` sets its task count.
    const mainPool = {
      environment: e,
      preset,
      vpc,
      cluster,
      capacityProvider: this.capacity.main,
      subnets,
      logRetention: retention,
      stopTimeout,
      maximumPercent,
      hibernation,
    };
    this.ui = new TemporalUi(this, 'WebUi', {
      ...mainPool,
      image: containerImage(this, 'UiImage', e.images.ui),
      user: e.images.ui.user,
      frontendAddress,
      servers,
      instances: { securityGroup: this.capacity.instanceSecurityGroup, group: this.capacity.main.autoScalingGroup },
    });
    this.ui.service.service.node.addDependency(this.services.last);
    // Grafana with the live dashboard, likewise: `dashboards` sets its task count.
    this.grafana = new TemporalGrafana(this, 'Dashboards', {
      ...mainPool,
      image: containerImage(this, 'GrafanaImage', e.images.grafana),
      user: e.images.grafana.user,
      prometheus: this.prometheus,
      instanceSecurityGroup: this.capacity.instanceSecurityGroup,
    });
    this.grafana.service.service.node.addDependency(this.services.last);

    // The benchmark fleet, on its own pool. `fleet` decides who owns the worker count.
    this.fleet = new BenchmarkFleet(this, {
      environment: e,
      preset,
      fleet: scenario.fleet,
      hibernation,
      cluster,
      capacityProvider: this.capacity.benchmark,
      subnets,
      securityGroup: clients,
      frontendAddress,
      prometheus: this.prometheus,
      logRetention: retention,
      stopTimeout,
      maximumPercent,
      probe: { taskRole, executionRole: serverExecutionRole, store },
    });
    this.fleet.worker.service.node.addDependency(this.services.last);
    // An up fleet left idle is parked by its own alarm, an Aurora store nothing connects to is
    // stopped, and the alarm topic told.
    for (const rule of idleRules(scenario)) {
      const alarm = { rule, alarmName: `${e.observability.dashboard}-${rule.id}`, topicName: e.observability.alarmTopic };
      if (rule.action === 'park-fleet')
        new IdleFleetParking(this, 'IdleParking', {
          ...alarm,
          service: this.fleet.worker.service,
          clusterName: e.names.cluster,
          serviceName: BENCHMARK_WORKER_SERVICE,
          maxTasks: Math.max(benchmarkWorkerCapacity(e, preset).workers, preset.benchmark.workers.replicas),
        });
      else new IdleClusterStop(this, 'IdleStoreStop', alarm).node.addDependency(...store.ready);
    }

    const O = TEMPORAL_OUTPUTS;
    const out = (name: TemporalOutput, value: string, description?: string) => new CfnOutput(this, name, { value, description });
    out(O.scenario, scenario.name, 'The preset this stack was last deployed with');
    out(O.clusterName, cluster.clusterName);
    out(O.frontendAddress, frontendAddress, 'Temporal frontend gRPC, inside the VPC');
    out(O.historyStoreEngine, preset.store.engine, "Where Temporal's history is kept, for the life of this environment");
    if (store.dsql && store.limiter) {
      out(O.dsqlEndpoint, store.dsql.endpoint);
      out(O.dsqlClusterId, store.dsql.identifier, 'Dimension ClusterId of the AWS/AuroraDSQL metrics');
      out(O.rateLimiterTable, store.limiter.table.tableName);
    }
    if (store.aurora) {
      out(O.auroraEndpoint, store.aurora.host, 'The Aurora writer, reachable from the server tasks only');
      out(O.auroraClusterId, store.aurora.identifier, 'Dimension DBClusterIdentifier of the AWS/RDS metrics');
      out(O.auroraSecretArn, store.aurora.secret.secretArn, 'The master credential (read by ECS for the server and schema tasks)');
    }
    out(O.visibilityEndpoint, this.visibility.domain.domainEndpoint);
    out(O.prometheusWorkspaceId, this.prometheus.workspace.attrWorkspaceId);
    out(O.benchmarkWorkerService, this.fleet.worker.service.serviceName);
    out(O.benchmarkAsgName, this.capacity.benchmark.autoScalingGroup.autoScalingGroupName);
    out(O.mainAsgName, this.capacity.main.autoScalingGroup.autoScalingGroupName, "The Temporal servers' pool (0 instances while hibernated)");
    out(O.uiAddress, this.ui.address, 'The Temporal Web UI inside the VPC: npm run ui prints how to forward a port to it');
    out(O.grafanaAddress, this.grafana.address, 'Grafana with the live dashboard inside the VPC: npm run ui prints how to forward a port to it');
    out(O.benchmarkCapacityProvider, this.capacity.benchmark.capacityProviderName);
    out(O.generatorTaskDefinition, this.fleet.generator.taskDefinitionArn);
    out(O.benchmarkSecurityGroupId, clients.securityGroupId);
    out(O.storeProbeTaskDefinition, this.fleet.storeProbe.taskDefinitionArn, "bench run's store round-trip probe");
    out(O.serverSecurityGroupId, servers.securityGroupId, 'The Temporal servers (and the store probe) run in it');
    out(O.privateSubnets, vpc.selectSubnets(subnets).subnetIds.join(','));
  }

  /** Pinned in config, so synth never performs an availability-zone lookup. */
  override get availabilityZones(): string[] {
    return [...this.azs];
  }
}
