import { CfnOutput, type CfnResource, Duration, Stack, type StackProps, aws_ec2 as ec2, aws_ecs as ecs, aws_iam as iam, aws_logs as logs, aws_servicediscovery as sd } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { TEMPORAL_ROLES, type TemporalRole, type TemporalScenario } from '../config';
import { rollingDeployment } from '../config/packing';
import { durationSeconds } from '../config/fields';
import { AuroraHistoryStore } from './constructs/aurora-history-store';
import { DsqlCluster } from './constructs/dsql-cluster';
import { EcsCapacity } from './constructs/ecs-capacity';
import { EcsService, arm64TaskDefinition } from './constructs/ecs-service';
import { HistoryStoreGuard } from './constructs/history-store-guard';
import { LogEncryption } from './constructs/log-encryption';
import { acknowledgeNag } from './app/lint-acknowledgements';
import { Prometheus } from './constructs/prometheus';
import { RateLimiterTable } from './constructs/rate-limiter-table';
import { SchemaSetup } from './constructs/schema-setup';
import { ServiceNetwork } from './constructs/service-network';
import { VisibilityDomain } from './constructs/visibility-domain';
import { containerImage } from './app/images';
import { BENCHMARK_GENERATOR_FAMILY, BENCHMARK_WORKER_SERVICE, temporalServiceName } from './app/physical-names';
import {
  type BenchmarkMode,
  PASSWORD_VARIABLE,
  PROBE_PASSWORD_VARIABLE,
  type StoreWiring,
  benchmarkEnvironment,
  dynamicConfig,
  probeEnvironment,
  schemaCommand,
  schemaEnvironment,
  serverEnvironment,
  startCommand,
  staticConfig,
} from './app/temporal-config';

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
  /** What the history keeps for life (store, shard count), checked before any store resource changes. */
  readonly historyGuard: HistoryStoreGuard;
  /** The dsql store: the cluster and the table that rate-limits its new connections. */
  readonly dsql?: DsqlCluster;
  readonly limiter?: RateLimiterTable;
  /** The aurora-postgresql store. */
  readonly aurora?: AuroraHistoryStore;
  readonly visibility: VisibilityDomain;
  readonly prometheus: Prometheus;
  readonly schema: SchemaSetup;
  readonly services: Record<TemporalRole, EcsService>;
  readonly benchmarkWorker: EcsService;
  readonly generator: ecs.TaskDefinition;
  /** `bench run`'s store probe: the benchmark program timing SELECT 1 from the servers' network position. */
  readonly storeProbe: ecs.TaskDefinition;
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
      clusterName: e.names.cluster,
      main: { instanceType: preset.capacity.main.instanceType, minInstances: preset.capacity.main.instances, maxInstances: preset.capacity.main.instances },
      benchmark: { instanceType: preset.capacity.benchmark.instanceType, minInstances: 0, maxInstances: preset.capacity.benchmark.maxInstances },
      reservedMemoryMiB: e.ecsReservedMemoryMiB,
    });
    const { cluster } = this.capacity;
    cluster.addDefaultCloudMapNamespace({ name: e.names.serviceNamespace, type: sd.NamespaceType.DNS_PRIVATE, vpc });

    // Security groups: servers reach each other on every role's gRPC and membership port and
    // nothing else; benchmark clients reach the frontend's gRPC port only.
    const servers = new ec2.SecurityGroup(this, 'ServerSecurityGroup', {
      vpc,
      description: 'Temporal servers: role-to-role gRPC and membership; out to DSQL and AWS APIs',
      allowAllOutbound: false,
    });
    for (const role of TEMPORAL_ROLES) {
      servers.connections.allowInternally(ec2.Port.tcp(e.ports[role].grpc), `${role} gRPC`);
      servers.connections.allowInternally(ec2.Port.tcp(e.ports[role].membership), `${role} membership`);
    }
    servers.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(443), 'HTTPS: AWS APIs and OpenSearch');
    const clients = new ec2.SecurityGroup(this, 'BenchmarkSecurityGroup', {
      vpc,
      description: 'Benchmark workers and load generator: the Temporal frontend and AWS APIs only',
      allowAllOutbound: false,
    });
    clients.connections.allowTo(servers, ec2.Port.tcp(e.ports.frontend.grpc), 'Temporal frontend gRPC');
    clients.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(443), 'HTTPS: AWS APIs');

    this.visibility = new VisibilityDomain(this, 'Visibility', {
      vpc,
      subnets,
      availabilityZoneCount: Math.min(e.availabilityZones.length, 3),
      domainName: e.names.visibilityDomain,
      engineVersion: e.visibility.engineVersion,
      ...preset.visibility,
    });
    this.visibility.allowFrom(servers);

    this.prometheus = new Prometheus(this, 'Prometheus', {
      alias: e.names.prometheusWorkspace,
      collectorImage: containerImage(this, 'CollectorImage', e.images.collector),
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
    this.historyGuard = new HistoryStoreGuard(this, 'HistoryStore', { store: preset.store.engine, numHistoryShards: e.persistence.numHistoryShards, logGroup: schemaLogs });
    let store: { host: string; wiring: StoreWiring; tokenEndpoint?: string; secrets: Record<string, ecs.Secret>; password?: ecs.Secret; ready: Construct[] };
    if (preset.store.engine === 'dsql') {
      const dsql = new DsqlCluster(this, 'Dsql', { name: e.names.cluster, protect: scenario.protect });
      const limiter = new RateLimiterTable(this, 'RateLimiter', { tableName: e.names.rateLimiterTable });
      this.historyGuard.guard(dsql);
      if (e.persistence.network === 'privatelink') dsql.connectThroughPrivateLink(vpc, subnets, servers, e.persistence.port);
      else servers.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(e.persistence.port), 'Aurora DSQL public endpoint through NAT (IAM auth, TLS)');
      dsql.grantConnectAdmin(taskRole);
      limiter.grantCount(taskRole);
      [this.dsql, this.limiter] = [dsql, limiter];
      store = {
        host: dsql.connectHost,
        tokenEndpoint: dsql.endpoint,
        wiring: { engine: 'dsql', rateLimiterTable: limiter.table.tableName, tokenEndpoint: dsql.endpoint },
        secrets: {},
        // Every new DSQL connection first takes a slot in the limiter table; a DynamoDB error
        // fails the connection, so the table and the route to it come before any server. The
        // PrivateLink name resolves only once the endpoint exists.
        ready: [limiter, this.network.dynamoDbEndpoint, ...(dsql.privateEndpoint ? [dsql.privateEndpoint] : [])],
      };
    } else {
      const aurora = new AuroraHistoryStore(this, 'Aurora', {
        vpc,
        subnets,
        settings: e.auroraPostgresql,
        clusterIdentifier: e.names.auroraCluster,
        secretName: e.names.auroraSecret,
        writer: preset.store.writer,
        protect: scenario.protect,
      });
      this.historyGuard.guard(aurora);
      aurora.allowFrom(servers);
      this.aurora = aurora;
      store = { host: aurora.host, wiring: { engine: 'aurora-postgresql' }, secrets: { [PASSWORD_VARIABLE]: aurora.password }, password: aurora.password, ready: [aurora.cluster] };
    }
    // Two execution roles: the servers' (with the schema task's) reads the Aurora store's
    // secret where there is one; the benchmark's never can.
    const executionRoleFor = (id: string, who: string) => {
      const role = new iam.Role(this, id, { assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'), description: `ECS agent: pull images, write logs and hand over secrets for the ${who}` });
      acknowledgeNag(role, 'IAM5[Resource::*]', 'ecr:GetAuthorizationToken takes no resource ARN (ECR documents Resource "*"); pulls themselves are scoped to the repositories.');
      return role;
    };
    const executionRole = executionRoleFor('ExecutionRole', 'Temporal server and schema tasks');

    const aurora = preset.store.engine === 'aurora-postgresql';
    const serverImage = containerImage(this, 'ServerImage', aurora ? e.auroraPostgresql.images.server : e.images.server);
    // The fork's image carries its schema tool; upstream's tools come in admin-tools.
    const schemaImage = aurora ? containerImage(this, 'SchemaToolImage', e.auroraPostgresql.images.schemaTool) : serverImage;
    const frontendAddress = `frontend.${e.names.serviceNamespace}:${e.ports.frontend.grpc}`;
    const endpoints = { storeHost: store.host, visibilityHost: this.visibility.domain.domainEndpoint, frontendAddress };
    // Each role's own pool size is in its static config.
    const filesFor = (role: TemporalRole) => ({ staticConfig: staticConfig(e, preset.store.engine, endpoints, preset.pools[role]), dynamicConfig: dynamicConfig(e, preset) });

    this.schema = new SchemaSetup(this, 'Schema', {
      cluster,
      capacityProvider: this.capacity.main,
      subnets,
      securityGroup: servers,
      image: schemaImage,
      taskRole,
      executionRole,
      ...e.schemaSetupTask,
      command: schemaCommand(e, preset.store.engine),
      environment: schemaEnvironment(e, preset.store.engine, { storeHost: store.host, tokenEndpoint: store.tokenEndpoint, visibilityHost: this.visibility.domain.domainEndpoint }),
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
    // History first, then matching, frontend and worker: each service starts (and on later
    // deploys, rolls) only after the one before it is stable, so ringpop forms in order.
    let previous: Construct = this.schema.resource;
    const services = {} as Record<TemporalRole, EcsService>;
    for (const role of TEMPORAL_ROLES) {
      const size = preset.services[role];
      const ports = { grpc: e.ports[role].grpc, membership: e.ports[role].membership, ...('http' in e.ports[role] ? { http: e.ports.frontend.http } : {}), metrics: e.ports.metrics };
      const svc = new EcsService(this, role.charAt(0).toUpperCase() + role.slice(1), {
        cluster,
        capacityProvider: this.capacity.main,
        subnets,
        securityGroup: servers,
        name: temporalServiceName(role),
        image: serverImage,
        taskRole,
        executionRole,
        size,
        desiredCount: size.replicas,
        deployment: rollingDeployment(size.replicas, e.deployment.minimumHealthyPercent, maximumPercent),
        ports,
        // The worker role serves no gRPC API: probe its membership port instead.
        healthCheckPort: role === 'worker' ? e.ports.worker.membership : e.ports[role].grpc,
        entryPoint: ['/bin/sh', '-c'],
        command: [startCommand()],
        environment: serverEnvironment(e, role, filesFor(role), store.wiring),
        secrets: store.secrets,
        logRetention: retention,
        stopTimeout,
        dns: role === 'frontend' ? { name: 'frontend', ttl: Duration.seconds(durationSeconds(e.deployment.dnsTtl)) } : undefined,
      });
      this.prometheus.addCollector(svc.taskDefinition, temporalServiceName(role), e.ports.metrics, svc.logGroup);
      svc.service.node.addDependency(previous, ...store.ready);
      previous = svc.service;
      services[role] = svc;
    }
    this.services = services;

    // The benchmark fleet, on its own pool. `fleet` decides who owns the worker count.
    const bench = preset.benchmark;
    const benchRole = new iam.Role(this, 'BenchmarkTaskRole', {
      assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'),
      description: 'Benchmark workers and load generator: metrics only',
    });
    const benchImage = containerImage(this, 'BenchmarkImage', e.images.benchmark);
    const benchExecutionRole = executionRoleFor('BenchmarkExecutionRole', 'benchmark worker and load generator');
    const benchEnv = (mode: BenchmarkMode) => benchmarkEnvironment(preset, mode, { frontendAddress, metricsPort: e.ports.metrics });
    this.benchmarkWorker = new EcsService(this, 'BenchmarkWorker', {
      cluster,
      capacityProvider: this.capacity.benchmark,
      subnets,
      securityGroup: clients,
      name: BENCHMARK_WORKER_SERVICE,
      image: benchImage,
      taskRole: benchRole,
      executionRole: benchExecutionRole,
      size: bench.workers,
      desiredCount: scenario.fleet === 'running' ? bench.workers.replicas : scenario.fleet === 'parked' ? 0 : undefined,
      deployment: rollingDeployment(bench.workers.replicas, e.deployment.minimumHealthyPercent, maximumPercent),
      ports: { metrics: e.ports.metrics },
      environment: benchEnv('worker'),
      logRetention: retention,
      stopTimeout,
    });
    this.prometheus.addCollector(this.benchmarkWorker.taskDefinition, BENCHMARK_WORKER_SERVICE, e.ports.metrics, this.benchmarkWorker.logGroup);
    this.benchmarkWorker.service.node.addDependency(previous);

    const generatorLogs = new logs.LogGroup(this, 'GeneratorLogs', { retention });
    this.generator = arm64TaskDefinition(this, 'Generator', {
      family: BENCHMARK_GENERATOR_FAMILY,
      ...bench.generator,
      taskRole: benchRole,
      executionRole: benchExecutionRole,
    });
    this.generator.addContainer('Generator', {
      image: benchImage,
      environment: benchEnv('generator'),
      logging: ecs.LogDrivers.awsLogs({ logGroup: generatorLogs, streamPrefix: 'generator' }),
    });
    this.prometheus.addCollector(this.generator, BENCHMARK_GENERATOR_FAMILY, e.ports.metrics, generatorLogs);

    // The store probe runs as a server would: the servers' role, credential and (at run time) security group.
    const probeLogs = new logs.LogGroup(this, 'ProbeLogs', { retention });
    this.storeProbe = arm64TaskDefinition(this, 'StoreProbe', { family: 'store-probe', vcpu: 0.25, memoryGiB: 0.5, taskRole, executionRole });
    this.storeProbe.addContainer('Probe', {
      image: benchImage,
      environment: probeEnvironment(e, preset.store.engine, { storeHost: store.host, tokenEndpoint: store.tokenEndpoint }),
      secrets: store.password ? { [PROBE_PASSWORD_VARIABLE]: store.password } : undefined,
      logging: ecs.LogDrivers.awsLogs({ logGroup: probeLogs, streamPrefix: 'probe' }),
    });

    const out = (name: string, value: string, description?: string) => new CfnOutput(this, name, { value, description });
    out('Scenario', scenario.name, 'The preset this stack was last deployed with');
    out('ClusterName', cluster.clusterName);
    out('FrontendAddress', frontendAddress, 'Temporal frontend gRPC, inside the VPC');
    out('HistoryStoreEngine', preset.store.engine, "Where Temporal's history is kept, for the life of this environment");
    if (this.dsql && this.limiter) {
      out('DsqlEndpoint', this.dsql.endpoint);
      out('DsqlClusterId', this.dsql.identifier, 'Dimension ClusterId of the AWS/AuroraDSQL metrics');
      out('RateLimiterTable', this.limiter.table.tableName);
    }
    if (this.aurora) {
      out('AuroraEndpoint', this.aurora.host, 'The Aurora writer, reachable from the server tasks only');
      out('AuroraClusterId', this.aurora.identifier, 'Dimension DBClusterIdentifier of the AWS/RDS metrics');
      out('AuroraSecretArn', this.aurora.secret.secretArn, 'The master credential (read by ECS for the server and schema tasks)');
    }
    out('VisibilityEndpoint', this.visibility.domain.domainEndpoint);
    out('PrometheusWorkspaceId', this.prometheus.workspace.attrWorkspaceId);
    out('BenchmarkWorkerService', this.benchmarkWorker.service.serviceName);
    out('BenchmarkAsgName', this.capacity.benchmark.autoScalingGroup.autoScalingGroupName);
    out('BenchmarkCapacityProvider', this.capacity.benchmark.capacityProviderName);
    out('GeneratorTaskDefinition', this.generator.taskDefinitionArn);
    out('BenchmarkSecurityGroupId', clients.securityGroupId);
    out('StoreProbeTaskDefinition', this.storeProbe.taskDefinitionArn, "bench run's store round-trip probe");
    out('ServerSecurityGroupId', servers.securityGroupId, 'The Temporal servers (and the store probe) run in it');
    out('PrivateSubnets', vpc.selectSubnets(subnets).subnetIds.join(','));
  }

  /** Pinned in config, so synth never performs an availability-zone lookup. */
  override get availabilityZones(): string[] {
    return [...this.azs];
  }
}
