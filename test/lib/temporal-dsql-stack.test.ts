import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from 'aws-cdk-lib/core';
import { ResourceImpact } from '@aws-cdk/cloudformation-diff';
import { Match } from 'aws-cdk-lib/assertions';
import { parse } from 'yaml';
import { loadCatalog, resolveScenario, TEMPORAL_ROLES, type TemporalScenario } from '../../config';
import { resourceChanges } from '../../lib/commands/plan/resource-changes';
import { switchSnapshot } from '../support/switch-snapshot';
import { buildApp, editedCatalog, hibernatable, inTempOutdir, logicalId, synthScenario, TEMPORAL_SCENARIO_NAMES } from '../support/synth';
import { TOKEN_COMMAND } from '../../lib/temporal/contract/temporal-config';
import { serverLoginSql } from '../../lib/temporal/contract/temporal-schema-task';

const catalog = loadCatalog();
const env = catalog.temporal.environment;
const TASK = 'AWS::ECS::TaskDefinition';
const SERVICE = 'AWS::ECS::Service';
const synth = (scenario: string, extra: Record<string, string> = {}) => synthScenario({ scenario, ...extra });

/** A string property as the container sees it: tokens (Ref, GetAtt) shown as <Logical.Attr>. */
function flatten(value: unknown): string {
  if (typeof value === 'string') return value;
  const v = value as Record<string, any>;
  if (v['Fn::Join']) return (v['Fn::Join'][1] as unknown[]).map(flatten).join(v['Fn::Join'][0]);
  if (v.Ref) return `<${v.Ref}>`;
  if (v['Fn::GetAtt']) return `<${v['Fn::GetAtt'].join('.')}>`;
  throw new Error(`cannot flatten ${JSON.stringify(value)}`);
}

function taskOf(json: Record<string, any>, family: string) {
  const [id, task] = Object.entries(json.Resources as Record<string, any>).find(([, r]) => r.Type === TASK && r.Properties.Family === family)!;
  return { id, props: task.Properties };
}

function containerEnv(json: Record<string, any>, family: string, container = 'Server'): Record<string, string> {
  const def = taskOf(json, family).props.ContainerDefinitions.find((c: any) => c.Name === container);
  return Object.fromEntries(def.Environment.map((e: any) => [e.Name, flatten(e.Value)]));
}

function serviceOf(json: Record<string, any>, name: string) {
  const [id, svc] = Object.entries(json.Resources as Record<string, any>).find(([, r]) => r.Type === SERVICE && r.Properties.ServiceName === name)!;
  return { id, resource: svc };
}

/** The one image asset a scenario's synth stages, for arm64: the named files of its staged build context (nothing is built). */
function stagedImage(scenario: string, catalog: ReturnType<typeof editedCatalog>, ...files: string[]): string[] {
  return inTempOutdir((dir) => {
    const { stack } = buildApp({ scenario }, catalog, dir);
    const assembly = (stack.node.root as App).synth();
    const manifest = JSON.parse(readFileSync(join(assembly.directory, `${stack.artifactId}.assets.json`), 'utf8'));
    const images = Object.values(manifest.dockerImages) as any[];
    expect(images).toHaveLength(1);
    expect(images[0].source).toMatchObject({ platform: 'linux/arm64' });
    return files.map((f) => readFileSync(join(assembly.directory, images[0].source.directory, f), 'utf8'));
  });
}

describe("temporal-150wps reproduces the seed's environment number for number", () => {
  const { template, json } = synth('temporal-150wps');

  test.each([
    ['history', 8, 4096, 8192],
    ['matching', 6, 1024, 2048],
    ['frontend', 4, 2048, 4096],
    ['worker', 2, 512, 1024],
  ])('%s: %i tasks of %i CPU units / %i MiB', (role, replicas, cpu, memory) => {
    expect(taskOf(json, `temporal-${role}`).props).toMatchObject({ Cpu: String(cpu), Memory: String(memory), NetworkMode: 'awsvpc' });
    expect(serviceOf(json, `temporal-${role}`).resource.Properties.DesiredCount).toEqual(hibernatable(replicas));
  });

  test('benchmark workers 6 × 2 vCPU / 4 GiB, generator 1 vCPU / 2 GiB, both on the benchmark pool', () => {
    expect(taskOf(json, 'benchmark-worker').props).toMatchObject({ Cpu: '2048', Memory: '4096' });
    expect(taskOf(json, 'benchmark-generator').props).toMatchObject({ Cpu: '1024', Memory: '2048' });
    const bench = logicalId(json, 'AWS::ECS::CapacityProvider', 'Capacity/BenchmarkCapacityProvider/BenchmarkCapacityProvider');
    expect(serviceOf(json, 'benchmark-worker').resource.Properties.CapacityProviderStrategy).toEqual([{ CapacityProvider: { Ref: bench }, Weight: 1 }]);
    expect(containerEnv(json, 'benchmark-generator', 'Generator')).toMatchObject({
      BENCHMARK_TARGET_RATE: '150',
      BENCHMARK_DURATION: '5m',
      BENCHMARK_RAMP_UP: '30s',
      BENCHMARK_WORKFLOW_TYPE: 'simple',
      BENCHMARK_GENERATOR_ONLY: 'true',
    });
  });

  test('main ASG: 10 × m7g.2xlarge, scale-in protected; benchmark ASG: 0 to 4 × m7g.2xlarge', () => {
    const groups = template.findResources('AWS::AutoScaling::AutoScalingGroup');
    const byPath = (suffix: string) => Object.values(groups).find((g: any) => g.Metadata['aws:cdk:path'].endsWith(suffix)) as any;
    expect(byPath('Capacity/MainAsg/ASG').Properties).toMatchObject({ MinSize: hibernatable('10'), MaxSize: '10', NewInstancesProtectedFromScaleIn: true });
    expect(byPath('Capacity/BenchmarkAsg/ASG').Properties).toMatchObject({ MinSize: '0', MaxSize: '4' });
    for (const g of Object.values(groups) as any[]) expect(g.Properties.DesiredCapacity).toBeUndefined();
    for (const lt of Object.values(template.findResources('AWS::EC2::LaunchTemplate')) as any[]) {
      expect(lt.Properties.LaunchTemplateData).toMatchObject({
        InstanceType: 'm7g.2xlarge',
        ImageId: { Ref: expect.stringMatching(/^SsmParameterValueawsserviceecsoptimizedamiamazonlinux2023arm64recommendedimageid/) },
        MetadataOptions: { HttpTokens: 'required' },
      });
    }
  });

  test('capacity providers: managed scaling; termination protection on the main pool only', () => {
    template.resourceCountIs('AWS::ECS::CapacityProvider', 2);
    template.hasResourceProperties('AWS::ECS::CapacityProvider', {
      AutoScalingGroupProvider: { ManagedScaling: { Status: 'ENABLED', TargetCapacity: 100 }, ManagedTerminationProtection: 'ENABLED' },
    });
    template.hasResourceProperties('AWS::ECS::CapacityProvider', {
      AutoScalingGroupProvider: { ManagedScaling: { Status: 'ENABLED' }, ManagedTerminationProtection: 'DISABLED', ManagedDraining: 'ENABLED' },
    });
    template.hasResourceProperties('AWS::ECS::Cluster', { ClusterName: 'temporal-dsql', ClusterSettings: [{ Name: 'containerInsights', Value: 'enabled' }] });
  });

  test('OpenSearch: 3 × m6g.large.search in the VPC, encrypted, HTTPS with TLS 1.2, retained', () => {
    template.hasResource('AWS::OpenSearchService::Domain', {
      DeletionPolicy: 'Retain',
      Properties: {
        DomainName: 'temporal-visibility',
        ClusterConfig: Match.objectLike({ InstanceCount: 3, InstanceType: 'm6g.large.search', ZoneAwarenessEnabled: true }),
        EncryptionAtRestOptions: { Enabled: true },
        NodeToNodeEncryptionOptions: { Enabled: true },
        DomainEndpointOptions: { EnforceHTTPS: true, TLSSecurityPolicy: 'Policy-Min-TLS-1-2-2019-07' },
      },
    });
    const domain = logicalId(json, 'AWS::OpenSearchService::Domain', 'Visibility/Domain/Resource');
    const privateSubnets = ['a', 'b', 'c'].map((_, i) => ({ Ref: logicalId(json, 'AWS::EC2::Subnet', `Network/Vpc/PrivateSubnet${i + 1}/Subnet`) }));
    expect(json.Resources[domain].Properties.VPCOptions.SubnetIds).toEqual(privateSubnets);
  });

  test("the seed's ten dynamic-config keys, its server's eager-activity default, and the environment's shutdown drains, in {value, constraints} form, in every server container", () => {
    const expected = {
      'frontend.rps': 8000,
      'frontend.namespaceRPS': 8000,
      'frontend.namespaceCount': 4000,
      'matching.numTaskqueueWritePartitions': 32,
      'matching.numTaskqueueReadPartitions': 32,
      'matching.forwarderMaxOutstandingPolls': 40,
      'matching.forwarderMaxRatePerSecond': 400,
      'matching.forwarderMaxOutstandingTasks': 400,
      'matching.maxTaskBatchSize': 200,
      'matching.getTasksBatchSize': 2000,
      // Off, as on the seed's server (1.30 code); upstream 1.32 defaults it on.
      'system.enableActivityEagerExecution': false,
      // Measured by npm run bench:faults (docs/local-cluster.md, "Faults and rolling deploys").
      'frontend.shutdownFailHealthCheckDuration': '15s',
      'frontend.shutdownDrainDuration': '10s',
      'history.shutdownDrainDuration': '0s',
      'matching.shutdownDrainDuration': '5s',
    };
    for (const role of TEMPORAL_ROLES) {
      const file = parse(containerEnv(json, `temporal-${role}`).TEMPORAL_DYNAMIC_CONFIG);
      expect(file).toEqual(Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, [{ value: v, constraints: {} }]])));
    }
  });
});

test("a stopped server gets the rendered stopTimeout, longer than its role's drain; the frontends', the UI's and Grafana's DNS records the rendered TTL", () => {
  const { json } = synth('temporal-150wps');
  const d = env.deployment;
  for (const role of TEMPORAL_ROLES) {
    const def = taskOf(json, `temporal-${role}`).props.ContainerDefinitions.find((c: any) => c.Name === 'Server');
    expect(def.StopTimeout).toBe(60);
  }
  expect(d.stopTimeout).toBe('60s');
  const services = Object.values(json.Resources as Record<string, any>).filter((r) => r.Type === 'AWS::ServiceDiscovery::Service');
  expect(services.map((r) => [r.Properties.Name, r.Properties.DnsConfig.DnsRecords])).toEqual([
    ['frontend', [{ Type: 'A', TTL: 10 }]],
    ['ui', [{ Type: 'A', TTL: 10 }]],
    ['grafana', [{ Type: 'A', TTL: 10 }]],
  ]);
});

const DSQL_PRESETS = TEMPORAL_SCENARIO_NAMES.filter((n) => catalog.temporal.scenarios.find((s) => s.name === n)!.store.engine === 'dsql');

test('the presets of both stores are covered', () => {
  expect(DSQL_PRESETS).toEqual(expect.arrayContaining(['temporal-25wps', 'temporal-150wps', 'temporal-800wps', 'temporal-1200wps']));
  expect(TEMPORAL_SCENARIO_NAMES.filter((n) => !DSQL_PRESETS.includes(n))).toContain('temporal-aurora-150wps');
});

describe.each(DSQL_PRESETS)('%s', (name) => {
  const { template, json } = synth(name);
  const preset = catalog.temporal.scenarios.find((s) => s.name === name)!;
  const dsql = logicalId(json, 'AWS::DSQL::Cluster', 'Dsql/Resource');
  const table = logicalId(json, 'AWS::DynamoDB::Table', 'RateLimiter/Table/Resource');
  const serverRole = logicalId(json, 'AWS::IAM::Role', 'ServerTaskRole/Resource');
  const serverSg = logicalId(json, 'AWS::EC2::SecurityGroup', 'ServerSecurityGroup/Resource');
  const benchSg = logicalId(json, 'AWS::EC2::SecurityGroup', 'BenchmarkSecurityGroup/Resource');

  test('services are sized from config', () => {
    for (const role of TEMPORAL_ROLES) {
      const s = preset.services[role];
      expect(taskOf(json, `temporal-${role}`).props).toMatchObject({ Cpu: String(s.vcpu * 1024), Memory: String(s.memoryGiB * 1024) });
      expect(serviceOf(json, `temporal-${role}`).resource.Properties).toMatchObject({
        DesiredCount: hibernatable(s.replicas),
        DeploymentConfiguration: { DeploymentCircuitBreaker: { Enable: true, Rollback: true }, MinimumHealthyPercent: 100 },
      });
    }
  });

  test("each role's own pool from the preset, pre-warmed, in its own static config; everything else the same for every role", () => {
    const configs = TEMPORAL_ROLES.map((role) => parse(containerEnv(json, `temporal-${role}`).TEMPORAL_STATIC_CONFIG));
    TEMPORAL_ROLES.forEach((role, i) => expect(configs[i].persistence.datastores.dsql.sql).toMatchObject({ ...preset.pools[role], maxConnLifetime: '55m' }));
    const withoutPool = (c: any) => ({
      ...c,
      persistence: {
        ...c.persistence,
        datastores: { ...c.persistence.datastores, dsql: { sql: { ...c.persistence.datastores.dsql.sql, maxConns: 0, maxIdleConns: 0 } } },
      },
    });
    for (const c of configs) expect(withoutPool(c)).toEqual(withoutPool(configs[0]));
  });

  test('static config: DSQL with IAM (dsql plugin) and TLS, the pre-warmed pool, 4096 shards, the task IP as broadcast address', () => {
    const config = parse(containerEnv(json, 'temporal-history').TEMPORAL_STATIC_CONFIG);
    expect(config.persistence.numHistoryShards).toBe(4096);
    expect(config.persistence.datastores.dsql.sql).toEqual({
      pluginName: 'dsql',
      databaseName: 'postgres',
      connectAddr: `<${dsql}.VpcEndpoint>:5432`,
      connectProtocol: 'tcp',
      user: 'admin',
      maxConns: preset.pools.history.maxConns,
      maxIdleConns: preset.pools.history.maxIdleConns,
      maxConnLifetime: '55m',
      tls: { enabled: true },
    });
    expect(env.persistence.pool.maxConnIdleTime).toBe('0s');
    expect(config.global.membership).toEqual({ maxJoinDuration: '120s', broadcastAddress: '__TASK_IP__' });
    expect(config.persistence.datastores.visibility.elasticsearch['aws-request-signing']).toMatchObject({
      enabled: true,
      credentialProvider: 'aws-sdk-default',
    });
    expect(config.publicClient.hostPort).toBe('frontend.temporal.internal:7233');
    const start = taskOf(json, 'temporal-history').props.ContainerDefinitions.find((c: any) => c.Name === 'Server');
    expect(start.EntryPoint).toEqual(['/bin/sh', '-c']);
    expect(start.Command[0]).toContain('$ECS_CONTAINER_METADATA_URI_V4/task');
    expect(start.Command[0]).toContain('sed "s/__TASK_IP__/$ip/"');
  });

  test('a cluster-wide limiter at 100/s (the counter, or the token bucket in its table), and none of the per-task variables the plugin would then ignore', () => {
    const limiter = preset.store.engine === 'dsql' ? preset.store.connections.limiter : undefined;
    for (const role of TEMPORAL_ROLES) {
      const rendered = containerEnv(json, `temporal-${role}`);
      expect(rendered).toMatchObject({
        TEMPORAL_SERVICE: role,
        DSQL_DISTRIBUTED_RATE_LIMITER_ENABLED: 'true',
        DSQL_DISTRIBUTED_RATE_LIMITER_TABLE: `<${table}>`,
        ...(limiter?.kind === 'token-bucket'
          ? { DSQL_TOKEN_BUCKET_ENABLED: 'true', DSQL_TOKEN_BUCKET_RATE: '100', DSQL_TOKEN_BUCKET_CAPACITY: '1000' }
          : { DSQL_DISTRIBUTED_RATE_LIMITER_LIMIT: '100' }),
        AWS_EC2_METADATA_DISABLED: 'true',
      });
      expect(rendered).not.toHaveProperty('DSQL_CONNECTION_RATE_LIMIT');
      expect(rendered).not.toHaveProperty('DSQL_CONNECTION_BURST_LIMIT');
    }
  });

  test('every server starts after the limiter table and the DynamoDB route exist (a limiter error fails each connection)', () => {
    const endpoint = logicalId(json, 'AWS::EC2::VPCEndpoint', 'Network/Vpc/DynamoDB/Resource');
    for (const role of TEMPORAL_ROLES) expect(serviceOf(json, `temporal-${role}`).resource.DependsOn).toEqual(expect.arrayContaining([table, endpoint]));
  });

  test("every role's gRPC, membership and metrics ports, with a TCP health check", () => {
    for (const role of TEMPORAL_ROLES) {
      const c = taskOf(json, `temporal-${role}`).props.ContainerDefinitions.find((d: any) => d.Name === 'Server');
      const p = env.ports[role];
      const expected = [p.grpc, p.membership, ...('http' in p ? [p.http] : []), env.ports.metrics];
      expect(c.PortMappings.map((m: any) => m.ContainerPort)).toEqual(expected);
      const probed = role === 'worker' ? p.membership : p.grpc;
      expect(c.HealthCheck.Command).toEqual(['CMD-SHELL', `nc -z 127.0.0.1 ${probed} || exit 1`]);
    }
  });

  test('security groups: role-to-role gRPC and membership only; benchmark clients reach 7233 only; nothing from the internet', () => {
    const ingress = Object.values(template.findResources('AWS::EC2::SecurityGroupIngress')).map((r: any) => r.Properties);
    const intoServers = ingress.filter((r) => r.GroupId['Fn::GetAtt']?.[0] === serverSg);
    const rolePorts = TEMPORAL_ROLES.flatMap((r) => [env.ports[r].grpc, env.ports[r].membership]).sort();
    expect(
      intoServers
        .filter((r) => r.SourceSecurityGroupId['Fn::GetAtt'][0] === serverSg)
        .map((r) => r.FromPort)
        .sort(),
    ).toEqual(rolePorts);
    expect(intoServers.filter((r) => r.SourceSecurityGroupId['Fn::GetAtt'][0] === benchSg).map((r) => [r.FromPort, r.ToPort])).toEqual([[7233, 7233]]);
    expect(intoServers.every((r) => r.FromPort === r.ToPort)).toBe(true);
    for (const sg of Object.values(template.findResources('AWS::EC2::SecurityGroup')) as any[]) {
      for (const rule of sg.Properties.SecurityGroupIngress ?? []) expect(rule.CidrIp).not.toBe('0.0.0.0/0');
    }
    expect(ingress.some((r) => r.CidrIp === '0.0.0.0/0')).toBe(false);
  });

  test("IAM: DSQL connect on the cluster ARN, the plugin's table calls on its tables, all for the server task role only", () => {
    const policies = Object.values(template.findResources('AWS::IAM::Policy')) as any[];
    const statements = (p: any) => p.Properties.PolicyDocument.Statement as any[];
    const withAction = (prefix: string) => policies.filter((p) => statements(p).some((s) => [s.Action].flat().some((a: string) => a.startsWith(prefix))));
    const lease = logicalId(json, 'AWS::DynamoDB::Table', 'ConnectionLease/Table/Resource');
    const c = preset.store.engine === 'dsql' ? preset.store.connections : undefined;
    const expected = [
      {
        Action: c?.limiter.kind === 'token-bucket' ? ['dynamodb:GetItem', 'dynamodb:UpdateItem'] : 'dynamodb:UpdateItem',
        Resource: { 'Fn::GetAtt': [table, 'Arn'] },
      },
      ...(c?.lease ? [{ Action: ['dynamodb:PutItem', 'dynamodb:UpdateItem'], Resource: { 'Fn::GetAtt': [lease, 'Arn'] } }] : []),
    ];
    for (const prefix of ['dsql:DbConnect', 'dynamodb:']) expect(withAction(prefix).map((p) => p.Properties.Roles)).toEqual([[{ Ref: serverRole }]]);
    const [dsqlStatement] = statements(withAction('dsql:DbConnect')[0]).filter((st) => String(st.Action).includes('dsql'));
    expect(dsqlStatement).toMatchObject({ Action: 'dsql:DbConnectAdmin', Resource: { 'Fn::GetAtt': [dsql, 'ResourceArn'] } });
    const dynamo = statements(withAction('dynamodb:')[0]).filter((st) => [st.Action].flat().some((a: string) => a.startsWith('dynamodb:')));
    expect(dynamo.map((st) => ({ Action: st.Action, Resource: st.Resource }))).toEqual(expected);
  });

  test("rate-limiter table matches the plugin's contract", () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      TableName: 'temporal-dsql-conn-limiter',
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'ttl_epoch', Enabled: true },
    });
  });

  test('the DSQL cluster has deletion protection and is retained', () => {
    template.hasResource('AWS::DSQL::Cluster', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain', Properties: { DeletionProtectionEnabled: true } });
  });

  test('the store is recorded for life (dsql, 4096 shards) before the cluster is touched', () => {
    const guard = logicalId(json, 'Custom::TemporalHistoryStore', 'HistoryStore/Resource/Default');
    expect(json.Resources[guard].Properties).toMatchObject({ Store: 'dsql', NumHistoryShards: 4096 });
    expect(json.Resources[dsql].DependsOn).toContain(guard);
  });

  test('the schema task runs first, then history, matching, frontend, worker, then the benchmark workers', () => {
    const schema = logicalId(json, 'Custom::TemporalSchema', 'Schema/Resource/Default');
    const order = [schema, ...TEMPORAL_ROLES.map((r) => serviceOf(json, `temporal-${r}`).id), serviceOf(json, 'benchmark-worker').id];
    for (let i = 1; i < order.length; i++) expect(json.Resources[order[i]].DependsOn).toContain(order[i - 1]);
  });

  test('every server and benchmark-worker task scrapes itself into Managed Prometheus', () => {
    const workspace = logicalId(json, 'AWS::APS::Workspace', 'Prometheus/Workspace');
    for (const family of [...TEMPORAL_ROLES.map((r) => `temporal-${r}`), 'benchmark-worker']) {
      const collector = parse(containerEnv(json, family, 'MetricsCollector').AOT_CONFIG_CONTENT);
      expect(collector.receivers.prometheus.config.scrape_configs[0].static_configs).toEqual([{ targets: ['localhost:9090'] }]);
      expect(collector.exporters.prometheusremotewrite.endpoint).toBe(`<${workspace}.PrometheusEndpoint>api/v1/remote_write`);
    }
  });

  test('the benchmark fleet leaves its size to `bench up/down` by default', () => {
    expect(preset.benchmark.fleet).toBe('external');
    expect(serviceOf(json, 'benchmark-worker').resource.Properties.DesiredCount).toBeUndefined();
  });

  test('snapshot (the whole template for the first preset, else the switch from its predecessor)', () => {
    expect(switchSnapshot(name, json)).toMatchSnapshot();
  });
});

describe('Aurora DSQL over PrivateLink (the default) or its public endpoint', () => {
  const publicPath = editedCatalog((c) => (c.temporal.environment.persistence.network = 'public'));
  const variants = {
    privatelink: synth('temporal-150wps').json,
    public: synthScenario({ scenario: 'temporal-150wps' }, publicPath).json,
  };
  const ids = (json: Record<string, any>) => ({
    dsql: logicalId(json, 'AWS::DSQL::Cluster', 'Dsql/Resource'),
    servers: logicalId(json, 'AWS::EC2::SecurityGroup', 'ServerSecurityGroup/Resource'),
  });
  const ofType = (json: Record<string, any>, type: string) => Object.entries(json.Resources as Record<string, any>).filter(([, r]) => r.Type === type);
  const serverEnv = (json: Record<string, any>, family: string, container = 'Server') =>
    Object.fromEntries(
      taskOf(json, family)
        .props.ContainerDefinitions.find((c: any) => c.Name === container)
        .Environment.map((v: any) => [v.Name, v.Value]),
    );
  const schemaEnv = (json: Record<string, any>) => {
    const [, task] = ofType(json, TASK).find(([, r]) => String(r.Metadata?.['aws:cdk:path']).includes('/Schema/'))!;
    return Object.fromEntries(task.Properties.ContainerDefinitions[0].Environment.map((v: any) => [v.Name, v.Value]));
  };

  test("an interface endpoint for the cluster's connection service, in the private subnets, with private DNS", () => {
    const json = variants.privatelink;
    const { dsql } = ids(json);
    const endpoints = ofType(json, 'AWS::EC2::VPCEndpoint').filter(([, r]) => JSON.stringify(r.Properties.ServiceName).includes('VpcEndpointServiceName'));
    expect(endpoints).toHaveLength(1);
    const [, endpoint] = endpoints[0];
    expect(endpoint.Properties).toMatchObject({
      ServiceName: { 'Fn::GetAtt': [dsql, 'VpcEndpointServiceName'] },
      VpcEndpointType: 'Interface',
      PrivateDnsEnabled: true,
    });
    const privateSubnets = ofType(json, 'AWS::EC2::Subnet')
      .filter(([, r]) => r.Metadata['aws:cdk:path'].includes('/Private'))
      .map(([id]) => ({ Ref: id }));
    expect(endpoint.Properties.SubnetIds.sort((a: any, b: any) => a.Ref.localeCompare(b.Ref))).toEqual(
      privateSubnets.sort((a, b) => a.Ref.localeCompare(b.Ref)),
    );
  });

  test("the endpoint's own security group admits the Temporal servers on 5432 and nothing else", () => {
    const json = variants.privatelink;
    const { servers } = ids(json);
    const [[, endpoint]] = ofType(json, 'AWS::EC2::VPCEndpoint').filter(([, r]) => JSON.stringify(r.Properties.ServiceName).includes('VpcEndpointServiceName'));
    expect(endpoint.Properties.SecurityGroupIds).toHaveLength(1);
    const sg = endpoint.Properties.SecurityGroupIds[0]['Fn::GetAtt'][0];
    const group = json.Resources[sg];
    expect(group.Properties.SecurityGroupIngress ?? []).toEqual([]);
    const ingress = ofType(json, 'AWS::EC2::SecurityGroupIngress')
      .map(([, r]) => r.Properties)
      .filter((r) => r.GroupId['Fn::GetAtt'][0] === sg);
    expect(ingress.map((r) => ({ from: r.SourceSecurityGroupId['Fn::GetAtt'][0], ports: [r.FromPort, r.ToPort] }))).toEqual([
      { from: servers, ports: [5432, 5432] },
    ]);
    // No outbound: the group only answers.
    expect(group.Properties.SecurityGroupEgress).toEqual([expect.objectContaining({ CidrIp: '255.255.255.255/32' })]);
  });

  test("the servers' security group reaches 5432 only at that endpoint, never 0.0.0.0/0; the public path keeps its egress to the public endpoint", () => {
    for (const [path, json] of Object.entries(variants)) {
      const { servers } = ids(json);
      const group = json.Resources[servers];
      const on5432 = [
        ...(group.Properties.SecurityGroupEgress ?? []).filter((r: any) => r.FromPort === 5432).map((r: any) => r.CidrIp),
        ...ofType(json, 'AWS::EC2::SecurityGroupEgress')
          .map(([, r]) => r.Properties)
          .filter((r) => r.GroupId['Fn::GetAtt'][0] === servers && r.FromPort === 5432)
          .map((r) => r.DestinationSecurityGroupId['Fn::GetAtt'][0]),
      ];
      if (path === 'privatelink') expect(on5432).toEqual([expect.stringMatching(/^DsqlEndpointSecurityGroup/)]);
      else expect(on5432).toEqual(['0.0.0.0/0']);
    }
  });

  test('the servers and the schema task connect to the PrivateLink name and sign IAM tokens for the cluster endpoint', () => {
    for (const [path, json] of Object.entries(variants)) {
      const { dsql } = ids(json);
      const connect = path === 'privatelink' ? 'VpcEndpoint' : 'Endpoint';
      for (const role of TEMPORAL_ROLES) {
        const e = serverEnv(json, `temporal-${role}`);
        expect({ path, role, token: e.CLUSTER_ENDPOINT }).toEqual({ path, role, token: { 'Fn::GetAtt': [dsql, 'Endpoint'] } });
        const config = parse(flatten(e.TEMPORAL_STATIC_CONFIG));
        expect({ path, role, connectAddr: config.persistence.datastores.dsql.sql.connectAddr }).toEqual({
          path,
          role,
          connectAddr: `<${dsql}.${connect}>:5432`,
        });
      }
      const schema = schemaEnv(json);
      expect({ path, host: schema.SQL_HOST, token: schema.CLUSTER_ENDPOINT }).toEqual({
        path,
        host: { 'Fn::GetAtt': [dsql, connect] },
        token: { 'Fn::GetAtt': [dsql, 'Endpoint'] },
      });
    }
  });

  test('the schema task, which every server starts after, waits for the endpoint', () => {
    const json = variants.privatelink;
    const [[endpointId]] = ofType(json, 'AWS::EC2::VPCEndpoint').filter(([, r]) => JSON.stringify(r.Properties.ServiceName).includes('VpcEndpointServiceName'));
    const [, schema] = Object.entries(json.Resources as Record<string, any>).find(([, r]) =>
      String(r.Metadata?.['aws:cdk:path']).endsWith('/Schema/Resource/Default'),
    )!;
    expect(schema.DependsOn).toContain(endpointId);
  });

  const clusterPolicy = (json: Record<string, any>) => {
    const policies = ofType(json, 'Custom::DsqlClusterPolicy');
    expect(policies).toHaveLength(1);
    const [, policy] = policies[0];
    return { identifier: policy.Properties.Identifier, document: JSON.parse(flatten(policy.Properties.Policy)) };
  };
  const denyUnless = (condition: Record<string, any>, resource: string) => ({
    Version: '2012-10-17',
    Statement: [
      {
        Sid: expect.any(String),
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: ['dsql:DbConnect', 'dsql:DbConnectAdmin'],
        Resource: resource,
        Condition: condition,
      },
    ],
  });

  test("the cluster's resource policy refuses every connection that does not come through the environment's own endpoint", () => {
    const json = variants.privatelink;
    const { dsql } = ids(json);
    const [[endpointId]] = ofType(json, 'AWS::EC2::VPCEndpoint').filter(([, r]) => JSON.stringify(r.Properties.ServiceName).includes('VpcEndpointServiceName'));
    const { identifier, document } = clusterPolicy(json);
    expect(identifier).toEqual({ 'Fn::GetAtt': [dsql, 'Identifier'] });
    expect(document).toEqual(denyUnless({ StringNotEquals: { 'aws:SourceVpce': `<${endpointId}>` } }, `<${dsql}.ResourceArn>`));
  });

  test("over NAT, the policy refuses every connection that does not come from the environment's NAT gateways", () => {
    const json = variants.public;
    const { dsql } = ids(json);
    const eips = ofType(json, 'AWS::EC2::EIP').map(([id]) => `<${id}.PublicIp>/32`);
    expect(eips).toHaveLength(env.natGateways);
    expect(clusterPolicy(json).document).toEqual(denyUnless({ NotIpAddress: { 'aws:SourceIp': eips } }, `<${dsql}.ResourceArn>`));
  });

  test("the policy's function may set and read that cluster's policy and nothing else of DSQL", () => {
    for (const json of Object.values(variants)) {
      const { dsql } = ids(json);
      const statements = ofType(json, 'AWS::IAM::Policy').flatMap(([, r]) => r.Properties.PolicyDocument.Statement as any[]);
      const onPolicy = statements.filter((s) => [s.Action].flat().some((a: string) => /Cluster(Policy)?$/.test(a) && a.startsWith('dsql:')));
      expect(onPolicy).toEqual([
        { Action: ['dsql:GetClusterPolicy', 'dsql:PutClusterPolicy'], Effect: 'Allow', Resource: { 'Fn::GetAtt': [dsql, 'ResourceArn'] } },
      ]);
    }
  });

  test('switching between the two paths replaces, destroys or orphans nothing stateful, either way', () => {
    const both = [
      [variants.privatelink, variants.public],
      [variants.public, variants.privatelink],
    ];
    for (const [from, to] of both) {
      const changes = resourceChanges(from, to);
      expect(changes.filter((c) => c.unsafe || (c.stateful && c.impact !== ResourceImpact.WILL_UPDATE))).toEqual([]);
      expect(changes.some((c) => c.type === 'AWS::DSQL::Cluster')).toBe(false);
    }
  });
});

describe('the benchmark fleet', () => {
  test('fleet=parked: 0 worker tasks, and a benchmark ASG that may drain to 0', () => {
    const { json, template } = synth('temporal-150wps', { fleet: 'parked' });
    expect(serviceOf(json, 'benchmark-worker').resource.Properties.DesiredCount).toBe(0);
    template.hasResourceProperties('AWS::AutoScaling::AutoScalingGroup', { MinSize: '0', MaxSize: '4' });
  });

  test('fleet=running: the configured worker count', () => {
    const { json } = synth('temporal-150wps', { fleet: 'running' });
    expect(serviceOf(json, 'benchmark-worker').resource.Properties.DesiredCount).toEqual(hibernatable(6));
  });

  test('only the worker service differs between fleet states', () => {
    const base = synth('temporal-150wps').json;
    const parked = synth('temporal-150wps', { fleet: 'parked' }).json;
    const changed = Object.keys(parked.Resources).filter((id) => JSON.stringify(parked.Resources[id]) !== JSON.stringify(base.Resources[id]));
    expect(changed).toEqual([serviceOf(base, 'benchmark-worker').id]);
  });
});

describe('tearing down', () => {
  test('unprotect=true lifts DSQL deletion protection and stack termination protection, and nothing else', () => {
    const { json, artifact } = synth('temporal-150wps', { unprotect: 'true' });
    const base = synth('temporal-150wps');
    const dsql = logicalId(json, 'AWS::DSQL::Cluster', 'Dsql/Resource');
    expect(json.Resources[dsql].Properties.DeletionProtectionEnabled).toBe(false);
    expect(json.Resources[dsql].DeletionPolicy).toBe('Retain');
    expect(artifact.terminationProtection).toBe(false);
    expect(base.artifact.terminationProtection).toBe(true);
    const changed = Object.keys(json.Resources).filter((id) => JSON.stringify(json.Resources[id]) !== JSON.stringify(base.json.Resources[id]));
    expect(changed).toEqual([dsql]);
  });
});

describe('the server image', () => {
  test('defaults to an ECR repository in the account, with pulls granted on that repository only', () => {
    const { json } = synth('temporal-150wps');
    const image = taskOf(json, 'temporal-history').props.ContainerDefinitions[0].Image;
    const ecr = (resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario).environment.images.server as {
      ecr: { repository: string; tag: string };
    };
    expect(flatten(image)).toBe(`<AWS::AccountId>.dkr.ecr.eu-west-1.<AWS::URLSuffix>/${ecr.ecr.repository}:${ecr.ecr.tag}`);
  });

  test('as an asset, synth stages the Dockerfile and builds nothing', () => {
    const catalog = editedCatalog((c) => (c.temporal.environment.images.server = { asset: 'docker/temporal-dsql', user: '1000:1000' }));
    expect(stagedImage('temporal-25wps', catalog, 'Dockerfile')[0]).toContain('temporal-dsql-tool');
  });
});

describe('temporal-aurora-150wps: the seed sizing on Aurora PostgreSQL', () => {
  const { template, json } = synth('temporal-aurora-150wps');
  const seed = synth('temporal-150wps').json;
  const aurora = env.auroraPostgresql;
  const cluster = logicalId(json, 'AWS::RDS::DBCluster', 'Aurora/Cluster/Resource');
  const writer = logicalId(json, 'AWS::RDS::DBInstance', 'Aurora/Cluster/Writer/Resource');
  const secret = logicalId(json, 'AWS::SecretsManager::Secret', 'Aurora/Secret/Resource');
  const serverSg = logicalId(json, 'AWS::EC2::SecurityGroup', 'ServerSecurityGroup/Resource');
  const storeSg = logicalId(json, 'AWS::EC2::SecurityGroup', 'Aurora/SecurityGroup/Resource');
  const guard = logicalId(json, 'Custom::TemporalHistoryStore', 'HistoryStore/Resource/Default');
  const schemaTask = () =>
    Object.values(json.Resources as Record<string, any>).find((r) => r.Type === TASK && String(r.Metadata?.['aws:cdk:path']).includes('/Schema/')).Properties
      .ContainerDefinitions[0];

  test('the store is the one difference: same config, same ECS sizing, same OpenSearch and benchmark', () => {
    const [a, b] = ['temporal-aurora-150wps', 'temporal-150wps'].map((n) => catalog.temporal.scenarios.find((s) => s.name === n)!);
    const rest = ({ name: _n, title: _t, store: _s, recorded: _r, ...x }: typeof a) => x;
    expect(rest(a)).toEqual(rest(b));
    for (const family of [...TEMPORAL_ROLES.map((r) => `temporal-${r}`), 'benchmark-worker', 'benchmark-generator']) {
      const size = (j: Record<string, any>) => (({ Cpu, Memory }) => ({ Cpu, Memory }))(taskOf(j, family).props);
      expect(size(json)).toEqual(size(seed));
    }
    const asgs = (j: Record<string, any>) =>
      Object.values(j.Resources as Record<string, any>)
        .filter((r) => r.Type === 'AWS::AutoScaling::AutoScalingGroup')
        .map((r) => [r.Properties.MinSize, r.Properties.MaxSize]);
    expect(asgs(json)).toEqual(asgs(seed));
  });

  test('Aurora PostgreSQL, one r7g.2xlarge writer, encrypted with its own key, private, TLS only, deletion-protected, snapshot on delete', () => {
    expect(json.Resources[cluster]).toMatchObject({
      DeletionPolicy: 'Snapshot',
      Properties: {
        Engine: 'aurora-postgresql',
        EngineVersion: aurora.engineVersion,
        DBClusterIdentifier: 'temporal-history',
        DatabaseName: 'temporal',
        Port: 5432,
        StorageEncrypted: true,
        KmsKeyId: { 'Fn::GetAtt': [expect.stringMatching(/^AuroraKey/), 'Arn'] },
        DeletionProtection: true,
        BackupRetentionPeriod: aurora.backupRetentionDays,
        VpcSecurityGroupIds: [{ 'Fn::GetAtt': [storeSg, 'GroupId'] }],
        // DBLoad, the report's load figure, comes from Performance Insights.
        PerformanceInsightsEnabled: true,
      },
    });
    expect(json.Resources[writer].Properties).toMatchObject({ DBInstanceClass: 'db.r7g.2xlarge', Engine: 'aurora-postgresql', MonitoringInterval: 60 });
    template.hasResourceProperties('AWS::RDS::DBClusterParameterGroup', { Parameters: { 'rds.force_ssl': '1' } });
    const subnets = Object.values(template.findResources('AWS::RDS::DBSubnetGroup')) as any[];
    expect(subnets).toHaveLength(1);
    for (const ref of subnets[0].Properties.SubnetIds) expect(ref.Ref).toMatch(/^NetworkVpcPrivate/);
  });

  test('the store is recorded for life (aurora-postgresql) before any of its resources is created', () => {
    expect(json.Resources[guard].Properties).toMatchObject({ Store: 'aurora-postgresql', NumHistoryShards: 4096 });
    for (const id of [cluster, writer, secret, storeSg]) expect(json.Resources[id].DependsOn).toContain(guard);
  });

  test("upstream's server with its PostgreSQL plugin: the writer's endpoint, the pool from config, TLS, its own user with an IAM token per connection", () => {
    const rendered = containerEnv(json, 'temporal-history').TEMPORAL_STATIC_CONFIG;
    // No template: nothing in the file comes from the environment.
    expect(rendered).not.toMatch(/enable-template|\{\{/);
    const config = parse(rendered);
    expect(config.persistence.defaultStore).toBe('aurora-postgresql');
    expect(config.persistence.numHistoryShards).toBe(4096);
    expect(config.persistence.datastores['aurora-postgresql'].sql).toEqual({
      pluginName: 'postgres12_pgx',
      databaseName: 'temporal',
      connectAddr: `<${cluster}.Endpoint.Address>:5432`,
      connectProtocol: 'tcp',
      user: aurora.serverUser,
      passwordCommand: {
        command: TOKEN_COMMAND,
        args: ['--host', `<${cluster}.Endpoint.Address>`, '--port', '5432', '--user', aurora.serverUser, '--region', env.region],
        timeout: '10s',
      },
      maxConns: 50,
      maxIdleConns: 50,
      maxConnLifetime: env.persistence.pool.maxConnLifetime,
      tls: { enabled: true, enableHostVerification: false },
    });
    // Everything else in the file is the DSQL preset's.
    const seedConfig = parse(containerEnv(seed, 'temporal-history').TEMPORAL_STATIC_CONFIG);
    const { persistence: _a, ...others } = config;
    const { persistence: _b, ...seedOthers } = seedConfig;
    expect(others).toEqual(seedOthers);
    for (const role of TEMPORAL_ROLES) {
      const def = taskOf(json, `temporal-${role}`).props.ContainerDefinitions.find((c: any) => c.Name === 'Server');
      expect(flatten(def.Image)).toMatch(new RegExp(`/temporal-aurora:${env.servers.upstream.release}$`));
      expect(def.Secrets).toBeUndefined();
      const environment = containerEnv(json, `temporal-${role}`);
      expect(Object.keys(environment).filter((k) => k.startsWith('DSQL_') || k === 'CLUSTER_ENDPOINT' || k === 'SQL_PASSWORD')).toEqual([]);
    }
  });

  test("the schema task: upstream's temporal-sql-tool (admin-tools) against the writer as the master user, TLS on, the password from the secret; then the servers' login", () => {
    const def = schemaTask();
    expect(flatten(def.Image)).toBe((aurora.images.schemaTool as { registry: string }).registry);
    expect(def.Command[0]).toContain('temporal-sql-tool setup-schema -v 0.0');
    expect(def.Command[0]).toContain('temporal-sql-tool update-schema --schema-name postgresql/v12/temporal');
    const e = Object.fromEntries(def.Environment.map((v: any) => [v.Name, flatten(v.Value)]));
    expect(e).toMatchObject({
      SQL_PLUGIN: 'postgres12_pgx',
      SQL_HOST: `<${cluster}.Endpoint.Address>`,
      SQL_PORT: '5432',
      SQL_USER: 'temporal',
      SQL_DATABASE: 'temporal',
      SQL_TLS: 'true',
      SERVER_LOGIN_SQL: serverLoginSql(env),
    });
    // The login after each branch's schema change, before the index work that ends it.
    for (const branch of def.Command[0].split(/\n {2}(?=create|update)/).slice(1))
      expect(branch).toMatch(
        /update-schema --schema-name postgresql\/v12\/temporal\n.*\n *temporal-sql-tool setup-schema --disable-versioning --schema-file \/tmp\/server-login.sql\n/,
      );
    expect(def.Secrets).toEqual([{ Name: 'SQL_PASSWORD', ValueFrom: { 'Fn::Join': ['', [{ Ref: secret }, ':password::']] } }]);
    const schema = logicalId(json, 'Custom::TemporalSchema', 'Schema/Resource/Default');
    expect(json.Resources[schema].DependsOn).toEqual(expect.arrayContaining([cluster]));
  });

  test('the servers reach the database on 5432 through its security group, and nothing else reaches it; no DSQL, limiter or endpoint', () => {
    const egress = (json.Resources[serverSg].Properties.SecurityGroupEgress ?? []) as any[];
    expect(egress.filter((r) => r.FromPort === 5432)).toEqual([]);
    const separate = Object.values(template.findResources('AWS::EC2::SecurityGroupEgress'))
      .map((r: any) => r.Properties)
      .filter((r) => r.FromPort === 5432);
    expect(separate).toEqual([
      expect.objectContaining({ GroupId: { 'Fn::GetAtt': [serverSg, 'GroupId'] }, DestinationSecurityGroupId: { 'Fn::GetAtt': [storeSg, 'GroupId'] } }),
    ]);
    for (const type of ['AWS::DSQL::Cluster', 'AWS::DynamoDB::Table']) expect(template.findResources(type)).toEqual({});
    const endpoints = Object.values(template.findResources('AWS::EC2::VPCEndpoint')) as any[];
    expect(endpoints.filter((r) => JSON.stringify(r.Properties.ServiceName).includes('VpcEndpointServiceName'))).toEqual([]);
  });

  test('outputs say which store holds the history, and where', () => {
    expect(Object.keys(json.Outputs)).toEqual(expect.arrayContaining(['HistoryStoreEngine', 'AuroraEndpoint', 'AuroraClusterId', 'AuroraSecretArn']));
    expect(json.Outputs.HistoryStoreEngine.Value).toBe('aurora-postgresql');
    expect(Object.keys(json.Outputs)).not.toContain('DsqlClusterId');
  });

  test('Serverless v2 from config: the ACU range on the cluster, a db.serverless writer, the same everything else', () => {
    const serverless = editedCatalog((c) => {
      c.temporal.scenarios.find((s: any) => s.name === 'temporal-aurora-150wps').store.writer = { serverlessAcu: { min: 2, max: 64 } };
    });
    const s = synthScenario({ scenario: 'temporal-aurora-150wps' }, serverless).json;
    expect(s.Resources[cluster].Properties.ServerlessV2ScalingConfiguration).toEqual({ MinCapacity: 2, MaxCapacity: 64 });
    expect(s.Resources[writer].Properties.DBInstanceClass).toBe('db.serverless');
    const changes = resourceChanges(json, s);
    expect(changes.map((c) => c.logicalId).sort()).toEqual([cluster, writer].sort());
    expect(changes.filter((c) => c.unsafe)).toEqual([]);
  });

  test('snapshot: the switch from temporal-150wps', () => {
    expect(switchSnapshot('temporal-aurora-150wps', json)).toMatchSnapshot();
  });

  test('a release without passwordCommand: the servers log in as the master user with the password their execution role hands them, and no rds-db:connect', () => {
    const older = editedCatalog((c) => {
      const upstream = c.temporal.environment.servers.upstream;
      [upstream.release, upstream.upgradeTestedFrom] = ['1.30.0', '1.29.0'];
      c.temporal.environment.auroraPostgresql.images.server = { ecr: { repository: 'temporal-aurora', tag: '1.30.0' }, user: '1000:1000' };
      c.temporal.environment.auroraPostgresql.images.schemaTool = { registry: 'docker.io/temporalio/admin-tools:1.30.0', user: '1000:1000' };
    });
    const o = synthScenario({ scenario: 'temporal-aurora-150wps' }, older).json;
    const sql = parse(containerEnv(o, 'temporal-history').TEMPORAL_STATIC_CONFIG).persistence.datastores['aurora-postgresql'].sql;
    expect([sql.user, sql.password, sql.passwordCommand]).toEqual([aurora.user, '{{ env "SQL_PASSWORD" }}', undefined]);
    const server = taskOf(o, 'temporal-history').props;
    expect(server.ContainerDefinitions[0].Secrets).toEqual([{ Name: 'SQL_PASSWORD', ValueFrom: expect.anything() }]);
    expect(JSON.stringify(o)).not.toContain('rds-db:connect');
    const probe = taskOf(o, 'store-probe').props.ContainerDefinitions[0];
    expect(probe.Environment.map((v: any) => v.Name)).not.toContain('PROBE_TOKEN_HOST');
    expect(probe.Secrets).toEqual([{ Name: 'PROBE_PASSWORD', ValueFrom: server.ContainerDefinitions[0].Secrets[0].ValueFrom }]);
  });

  test("the server image as an asset: synth stages docker/temporal-aurora (upstream's image and the token signer) and builds nothing", () => {
    const catalog = editedCatalog((c) => (c.temporal.environment.auroraPostgresql.images.server = { asset: 'docker/temporal-aurora', user: '1000:1000' }));
    const [dockerfile, signer] = stagedImage('temporal-aurora-150wps', catalog, 'Dockerfile', 'main.go');
    expect(dockerfile).toContain('rds-iam-token');
    expect(signer).toContain('BuildAuthToken');
  });
});

describe("bench run's store probe", () => {
  test.each([
    ['temporal-150wps', 'dsql'],
    ['temporal-aurora-150wps', 'aurora-postgresql'],
  ])("%s: the benchmark image in probe mode, with the servers' role, host, user and credential (%s)", (name, store) => {
    const { json } = synth(name);
    const probe = taskOf(json, 'store-probe');
    const server = taskOf(json, 'temporal-history').props;
    expect(probe.props).toMatchObject({ Cpu: '256', Memory: '512', TaskRoleArn: server.TaskRoleArn, ExecutionRoleArn: server.ExecutionRoleArn });
    const def = probe.props.ContainerDefinitions[0];
    expect(flatten(def.Image)).toBe(flatten(taskOf(json, 'benchmark-generator').props.ContainerDefinitions[0].Image));
    const e = Object.fromEntries(def.Environment.map((v: any) => [v.Name, flatten(v.Value)]));
    const config = parse(containerEnv(json, 'temporal-history').TEMPORAL_STATIC_CONFIG);
    const sql = config.persistence.datastores[config.persistence.defaultStore].sql;
    // The same host, user and database the servers use.
    expect(`${e.PROBE_HOST}:${e.PROBE_PORT}`).toBe(flatten(sql.connectAddr));
    expect([e.PROBE_USER, e.PROBE_DATABASE, e.BENCHMARK_PROBE_ONLY, e.PROBE_SSLMODE]).toEqual([sql.user, sql.databaseName, 'true', 'require']);
    if (store === 'dsql') {
      expect(e.PROBE_TOKEN_HOST).toBe(containerEnv(json, 'temporal-history').CLUSTER_ENDPOINT);
      expect(def.Secrets).toBeUndefined();
    } else {
      // The servers' token: for their user at the writer's endpoint, with the role they share.
      expect([e.PROBE_TOKEN_HOST, e.PROBE_TOKEN_KIND, e.AWS_REGION]).toEqual([e.PROBE_HOST, 'rds', env.region]);
      expect(sql.passwordCommand.args).toEqual(['--host', e.PROBE_HOST, '--port', e.PROBE_PORT, '--user', e.PROBE_USER, '--region', e.AWS_REGION]);
      expect(def.Secrets).toBeUndefined();
    }
    expect(json.Outputs.StoreProbeTaskDefinition.Value).toEqual({ Ref: probe.id });
    expect(json.Outputs.ServerSecurityGroupId.Value).toEqual({
      'Fn::GetAtt': [logicalId(json, 'AWS::EC2::SecurityGroup', 'ServerSecurityGroup/Resource'), 'GroupId'],
    });
  });
});

describe('per-role pools at 800 workflows/s', () => {
  test("history 300, matching 150, frontend 100, worker 50: each role's container carries its own", () => {
    const { json } = synth('temporal-800wps');
    const pool = (role: string) => parse(containerEnv(json, `temporal-${role}`).TEMPORAL_STATIC_CONFIG).persistence.datastores.dsql.sql;
    expect(TEMPORAL_ROLES.map((r) => [r, pool(r).maxConns, pool(r).maxIdleConns])).toEqual([
      ['history', 300, 300],
      ['matching', 150, 150],
      ['frontend', 100, 100],
      ['worker', 50, 50],
    ]);
    // Its rolling deploys are gentler than the environment's 150%: each adds one task's pool.
    expect(serviceOf(json, 'temporal-history').resource.Properties.DeploymentConfiguration).toMatchObject({ MaximumPercent: 110, MinimumHealthyPercent: 100 });
  });

  test('the seed presets keep 50 per service', () => {
    const { json } = synth('temporal-150wps');
    for (const role of TEMPORAL_ROLES)
      expect(parse(containerEnv(json, `temporal-${role}`).TEMPORAL_STATIC_CONFIG).persistence.datastores.dsql.sql).toMatchObject({
        maxConns: 50,
        maxIdleConns: 50,
      });
  });
});
