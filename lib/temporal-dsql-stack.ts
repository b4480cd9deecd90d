import { CfnOutput, type CfnResource, Stack, type StackProps, aws_ec2 as ec2, aws_ecs as ecs, aws_iam as iam, aws_logs as logs, aws_servicediscovery as sd } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { TEMPORAL_ROLES, type TemporalRole, type TemporalScenario } from '../config';
import { rollingDeployment } from '../config/packing';
import { DsqlCluster } from './constructs/dsql-cluster';
import { EcsCapacity } from './constructs/ecs-capacity';
import { EcsService, arm64TaskDefinition } from './constructs/ecs-service';
import { LogEncryption } from './constructs/log-encryption';
import { acknowledgeNag } from './app/lint-acknowledgements';
import { Prometheus } from './constructs/prometheus';
import { RateLimiterTable } from './constructs/rate-limiter-table';
import { SchemaSetup } from './constructs/schema-setup';
import { ServiceNetwork } from './constructs/service-network';
import { VisibilityDomain } from './constructs/visibility-domain';
import { containerImage } from './app/images';
import { BENCHMARK_WORKER_SERVICE, temporalServiceName } from './app/physical-names';
import { type BenchmarkMode, benchmarkEnvironment, dynamicConfig, schemaCommand, serverEnvironment, startCommand, staticConfig } from './app/temporal-config';

export interface TemporalDsqlStackProps extends StackProps {
  readonly scenario: TemporalScenario;
}

/**
 * A self-hosted Temporal cluster on ECS (EC2, Graviton) with Aurora DSQL for persistence,
 * OpenSearch for visibility, Managed Prometheus for metrics, and a benchmark fleet that
 * parks at zero. One stack per environment; presets resize it in place.
 */
export class TemporalDsqlStack extends Stack {
  readonly network: ServiceNetwork;
  readonly capacity: EcsCapacity;
  readonly dsql: DsqlCluster;
  readonly limiter: RateLimiterTable;
  readonly visibility: VisibilityDomain;
  readonly prometheus: Prometheus;
  readonly schema: SchemaSetup;
  readonly services: Record<TemporalRole, EcsService>;
  readonly benchmarkWorker: EcsService;
  readonly generator: ecs.TaskDefinition;
  private readonly azs: readonly string[];

  constructor(scope: Construct, id: string, props: TemporalDsqlStackProps) {
    const { scenario } = props;
    const { environment: e, preset } = scenario;
    super(scope, id, {
      ...props,
      terminationProtection: scenario.protect,
      description: 'Temporal on Aurora DSQL: ECS on Graviton, OpenSearch visibility, a benchmark fleet that parks at zero',
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

    this.dsql = new DsqlCluster(this, 'Dsql', { name: e.names.cluster, protect: scenario.protect });
    this.limiter = new RateLimiterTable(this, 'RateLimiter', { tableName: e.names.rateLimiterTable });

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
    if (e.persistence.network === 'privatelink') this.dsql.connectThroughPrivateLink(vpc, subnets, servers, e.persistence.port);
    else servers.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(e.persistence.port), 'Aurora DSQL public endpoint through NAT (IAM auth, TLS)');
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
    });

    // One task role for every server process and the schema task: the only principal with
    // DSQL access, limiter writes and visibility access. Instances get none of it.
    const taskRole = new iam.Role(this, 'ServerTaskRole', {
      assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'),
      description: 'Temporal servers: DSQL connect, rate-limiter counter, visibility index, metrics',
    });
    this.dsql.grantConnectAdmin(taskRole);
    this.limiter.grantCount(taskRole);
    this.visibility.grantReadWrite(taskRole);
    const executionRole = new iam.Role(this, 'ExecutionRole', {
      assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'),
      description: 'ECS agent: pull images and write logs for the Temporal and benchmark tasks',
    });
    acknowledgeNag(executionRole, 'IAM5[Resource::*]', 'ecr:GetAuthorizationToken takes no resource ARN (ECR documents Resource "*"); pulls themselves are scoped to the repositories.');

    const serverImage = containerImage(this, 'ServerImage', e.images.server);
    const frontendAddress = `frontend.${e.names.serviceNamespace}:${e.ports.frontend.grpc}`;
    const files = {
      staticConfig: staticConfig(e, { dsqlHost: this.dsql.connectHost, visibilityHost: this.visibility.domain.domainEndpoint, frontendAddress }),
      dynamicConfig: dynamicConfig(preset),
    };

    const schemaLogs = new logs.LogGroup(this, 'SchemaLogs', { retention });
    this.schema = new SchemaSetup(this, 'Schema', {
      cluster,
      capacityProvider: this.capacity.main,
      subnets,
      securityGroup: servers,
      image: serverImage,
      taskRole,
      executionRole,
      ...e.schemaSetupTask,
      command: schemaCommand(e),
      environment: {
        SQL_HOST: this.dsql.connectHost,
        CLUSTER_ENDPOINT: this.dsql.endpoint,
        SQL_PORT: String(e.persistence.port),
        SQL_USER: e.persistence.user,
        SQL_DATABASE: e.persistence.databaseName,
        AWS_REGION: e.region,
        VISIBILITY_HOST: this.visibility.domain.domainEndpoint,
        VISIBILITY_INDEX: e.visibility.index,
      },
      logGroup: schemaLogs,
      numHistoryShards: e.persistence.numHistoryShards,
    });
    // RunTask needs the capacity providers associated with the cluster: CDK adds that
    // association under the cluster when it synthesizes, so depend on the whole cluster.
    this.schema.resource.node.addDependency(cluster);
    // The PrivateLink name resolves only once the endpoint exists; every server starts after the schema task.
    if (this.dsql.privateEndpoint) this.schema.resource.node.addDependency(this.dsql.privateEndpoint);
    (this.schema.resource.node.defaultChild as CfnResource).addMetadata('cfn-lint', { config: { ignore_checks: ['W3005'] } });

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
        deployment: rollingDeployment(size.replicas, e.deployment.minimumHealthyPercent, e.deployment.maximumPercent),
        ports,
        // The worker role serves no gRPC API: probe its membership port instead.
        healthCheckPort: role === 'worker' ? e.ports.worker.membership : e.ports[role].grpc,
        entryPoint: ['/bin/sh', '-c'],
        command: [startCommand()],
        environment: serverEnvironment(e, role, files, { rateLimiterTable: this.limiter.table.tableName, tokenEndpoint: this.dsql.endpoint }),
        logRetention: retention,
        dnsName: role === 'frontend' ? 'frontend' : undefined,
      });
      this.prometheus.addCollector(svc.taskDefinition, temporalServiceName(role), e.ports.metrics, svc.logGroup);
      svc.service.node.addDependency(previous);
      // Every new DSQL connection first takes a slot in the limiter table; a DynamoDB error
      // fails the connection, so the table and the route to it come before any server.
      svc.service.node.addDependency(this.limiter, this.network.dynamoDbEndpoint);
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
    const benchEnv = (mode: BenchmarkMode) => benchmarkEnvironment(preset, mode, { frontendAddress, metricsPort: e.ports.metrics });
    this.benchmarkWorker = new EcsService(this, 'BenchmarkWorker', {
      cluster,
      capacityProvider: this.capacity.benchmark,
      subnets,
      securityGroup: clients,
      name: BENCHMARK_WORKER_SERVICE,
      image: benchImage,
      taskRole: benchRole,
      executionRole,
      size: bench.workers,
      desiredCount: scenario.fleet === 'running' ? bench.workers.replicas : scenario.fleet === 'parked' ? 0 : undefined,
      deployment: rollingDeployment(bench.workers.replicas, e.deployment.minimumHealthyPercent, e.deployment.maximumPercent),
      ports: { metrics: e.ports.metrics },
      environment: benchEnv('worker'),
      logRetention: retention,
    });
    this.prometheus.addCollector(this.benchmarkWorker.taskDefinition, BENCHMARK_WORKER_SERVICE, e.ports.metrics, this.benchmarkWorker.logGroup);
    this.benchmarkWorker.service.node.addDependency(previous);

    const generatorLogs = new logs.LogGroup(this, 'GeneratorLogs', { retention });
    this.generator = arm64TaskDefinition(this, 'Generator', {
      family: 'benchmark-generator',
      ...bench.generator,
      taskRole: benchRole,
      executionRole,
    });
    this.generator.addContainer('Generator', {
      image: benchImage,
      environment: benchEnv('generator'),
      logging: ecs.LogDrivers.awsLogs({ logGroup: generatorLogs, streamPrefix: 'generator' }),
    });
    this.prometheus.addCollector(this.generator, 'benchmark-generator', e.ports.metrics, generatorLogs);

    const out = (name: string, value: string, description?: string) => new CfnOutput(this, name, { value, description });
    out('Scenario', scenario.name, 'The preset this stack was last deployed with');
    out('ClusterName', cluster.clusterName);
    out('FrontendAddress', frontendAddress, 'Temporal frontend gRPC, inside the VPC');
    out('DsqlEndpoint', this.dsql.endpoint);
    out('DsqlClusterId', this.dsql.identifier, 'Dimension ClusterId of the AWS/AuroraDSQL metrics');
    out('RateLimiterTable', this.limiter.table.tableName);
    out('VisibilityEndpoint', this.visibility.domain.domainEndpoint);
    out('PrometheusWorkspaceId', this.prometheus.workspace.attrWorkspaceId);
    out('BenchmarkWorkerService', this.benchmarkWorker.service.serviceName);
    out('BenchmarkAsgName', this.capacity.benchmark.autoScalingGroup.autoScalingGroupName);
    out('BenchmarkCapacityProvider', this.capacity.benchmark.capacityProviderName);
    out('GeneratorTaskDefinition', this.generator.taskDefinitionArn);
    out('BenchmarkSecurityGroupId', clients.securityGroupId);
    out('PrivateSubnets', vpc.selectSubnets(subnets).subnetIds.join(','));
  }

  /** Pinned in config, so synth never performs an availability-zone lookup. */
  override get availabilityZones(): string[] {
    return [...this.azs];
  }
}
