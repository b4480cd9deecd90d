import { ResourceImpact } from '@aws-cdk/cloudformation-diff';
import { Match } from 'aws-cdk-lib/assertions';
import { loadCatalog, resolveScenario, type FolioScenario } from '../../config';
import { resourceChanges } from '../../lib/commands/plan/resource-changes';
import { switchSnapshot } from '../support/switch-snapshot';
import { editedCatalog, FOLIO_PHASE_NAMES, logicalId, resourcesOfType, synthPhase, synthScenario } from '../support/synth';

const catalog = loadCatalog();
const CLUSTER = 'AWS::RDS::DBCluster';
const INSTANCE = 'AWS::RDS::DBInstance';
const SECRET = 'AWS::SecretsManager::Secret';

/** A module's secret holds its route (`DB_HOST`); the route's record leads to a cluster: its logical ID. */
function hostClusterOf(json: Record<string, any>, secretLogicalId: string, module: string): string {
  const text = (json.Resources[secretLogicalId].Properties.SecretString['Fn::Join'][1] as unknown[]).filter((p) => typeof p === 'string').join('');
  expect(text).toContain(`{"DB_HOST":"${module}.folio-db.internal"`);
  const [writer, reader] = [`${module}.folio-db.internal.`, `${module}-reader.folio-db.internal.`].map(
    (name) => Object.values(json.Resources as Record<string, any>).find((r) => r.Type === 'AWS::Route53::RecordSet' && r.Properties.Name === name)!.Properties,
  );
  for (const r of [writer, reader])
    expect(r).toMatchObject({ Type: 'CNAME', TTL: '5', HostedZoneId: { Ref: logicalId(json, 'AWS::Route53::HostedZone', 'Routing/Zone/Resource') } });
  // The route for reads leads to the same cluster's reader endpoint (its writer while it has no reader).
  expect(writer.ResourceRecords[0]['Fn::GetAtt'][1]).toBe('Endpoint.Address');
  expect(reader.ResourceRecords[0]).toEqual({ 'Fn::GetAtt': [writer.ResourceRecords[0]['Fn::GetAtt'][0], 'ReadEndpoint.Address'] });
  return writer.ResourceRecords[0]['Fn::GetAtt'][0];
}

function secretKeys(json: Record<string, any>, secretLogicalId: string): string[] {
  const text = (json.Resources[secretLogicalId].Properties.SecretString['Fn::Join'][1] as unknown[]).map((p) => (typeof p === 'string' ? p : '"x"')).join('');
  return [...text.matchAll(/"(DB_[A-Z_]+)":/g)].map((m) => m[1]);
}

describe.each(FOLIO_PHASE_NAMES)('phase %s', (name) => {
  const { template, json } = synthPhase(name);
  const phase = catalog.folio.phases.find((p) => p.name === name)!;
  const scenario = resolveScenario({ scenario: name }) as FolioScenario;
  const provisioned = logicalId(json, CLUSTER, 'Aurora/Provisioned/Resource');
  const serverless = logicalId(json, CLUSTER, 'Aurora/Serverless/Resource');

  test('has exactly the two clusters, each with one writer', () => {
    template.resourceCountIs(CLUSTER, 2);
    template.resourceCountIs(INSTANCE, 2);
  });

  test('provisioned writer class comes from the phase', () => {
    template.hasResourceProperties(INSTANCE, {
      DBClusterIdentifier: { Ref: provisioned },
      DBInstanceClass: phase.primaryInstanceClass,
      DBInstanceIdentifier: 'folio-hybrid-provisioned-writer',
    });
  });

  test('the offload writer is Serverless v2 in the phase ACU range, or provisioned of its class, under the same construct id', () => {
    const writer = logicalId(json, INSTANCE, 'Aurora/Serverless/Writer/Resource');
    const { serverless: acu, provisioned: instances } = phase.offload;
    expect(json.Resources[writer].Properties).toMatchObject({
      DBClusterIdentifier: { Ref: serverless },
      DBInstanceIdentifier: 'folio-hybrid-serverless-writer',
      DBInstanceClass: acu ? 'db.serverless' : instances!.instanceClass,
    });
    expect(json.Resources[serverless].Properties.ServerlessV2ScalingConfiguration).toEqual(acu ? { MinCapacity: acu.min, MaxCapacity: acu.max } : undefined);
    expect(json.Resources[provisioned].Properties.ServerlessV2ScalingConfiguration).toBeUndefined();
  });

  test('both clusters are encrypted, protected, snapshotted on delete, with Performance Insights', () => {
    const key = logicalId(json, 'AWS::KMS::Key', 'Aurora/Key/Resource');
    for (const id of [provisioned, serverless]) {
      const r = json.Resources[id];
      expect(r.DeletionPolicy).toBe('Snapshot');
      expect(r.UpdateReplacePolicy).toBe('Snapshot');
      expect(r.Properties).toMatchObject({
        DeletionProtection: true,
        StorageEncrypted: true,
        KmsKeyId: { 'Fn::GetAtt': [key, 'Arn'] },
        PerformanceInsightsEnabled: true,
        PerformanceInsightsKmsKeyId: { 'Fn::GetAtt': [key, 'Arn'] },
        Engine: 'aurora-postgresql',
        EngineVersion: catalog.folio.environment.database.engineVersion,
        // PostgreSQL's log, for reading after a slow phase (and AWS's proactive control CT.RDS.PR.25).
        EnableCloudwatchLogsExports: ['postgresql'],
      });
    }
    template.hasResource('AWS::KMS::Key', { DeletionPolicy: 'Retain', Properties: { EnableKeyRotation: true } });
    template.hasResourceProperties('AWS::RDS::DBClusterParameterGroup', { Parameters: { 'rds.force_ssl': '1' } });
  });

  test("each module's secret points at the cluster the phase routes it to", () => {
    const routed = new Set(phase.routedToOffload);
    for (const module of catalog.folio.modules) {
      const id = logicalId(json, SECRET, `Routing/${module.name}/Resource`);
      expect(json.Resources[id].Properties.Name).toBe(`folio/db/modules/${module.name}`);
      expect(hostClusterOf(json, id, module.name)).toBe(routed.has(module.name) ? serverless : provisioned);
      // No reader instances in the seed's phases, so no reader host either.
      expect(secretKeys(json, id)).toEqual(['DB_HOST', 'DB_PORT', 'DB_DATABASE', 'DB_USERNAME', 'DB_PASSWORD']);
    }
  });

  test('the routing manifest lists module -> cluster', () => {
    const param = Object.values(json.Resources as Record<string, any>).find((r) => r.Type === 'AWS::SSM::Parameter')!;
    expect(param.Properties.Name).toBe('/folio/db/routing');
    const manifest = JSON.parse(param.Properties.Value);
    expect(Object.keys(manifest)).toHaveLength(catalog.folio.modules.length);
    for (const route of scenario.routes) {
      expect(manifest[route.module]).toEqual({
        cluster: route.cluster,
        clusterIdentifier: route.cluster === 'primary' ? 'folio-hybrid-provisioned' : 'folio-hybrid-serverless',
        secret: route.secretName,
      });
    }
  });

  test('no physical name contains the scenario', () => {
    const nameProps = ['DBClusterIdentifier', 'DBInstanceIdentifier', 'Name', 'DBSubnetGroupName', 'AliasName'];
    const names = Object.values(json.Resources as Record<string, any>).flatMap((r) =>
      nameProps.map((p) => r.Properties?.[p]).filter((v): v is string => typeof v === 'string'),
    );
    expect(names.length).toBeGreaterThan(20);
    for (const n of names) expect(n).not.toMatch(/baseline|test\d+/);
    expect(scenario.stackName).toBe('FolioHybridAurora');
  });

  test('matches the snapshot (the whole template for baseline, else the switch from its predecessor)', () => {
    expect(switchSnapshot(name, json)).toMatchSnapshot();
  });
});

describe('network and access', () => {
  const { template, json } = synthPhase('test12');

  test('databases sit in isolated subnets of a VPC with no internet path', () => {
    template.resourceCountIs('AWS::EC2::InternetGateway', 0);
    template.resourceCountIs('AWS::EC2::NatGateway', 0);
    template.hasResourceProperties('AWS::EC2::VPC', { CidrBlock: '10.60.0.0/16' });
    const azs = resourcesOfType(json, 'AWS::EC2::Subnet').map((r) => r.Properties.AvailabilityZone);
    expect(azs).toEqual(['us-east-1a', 'us-east-1b', 'us-east-1c']);
    template.hasResourceProperties('AWS::EC2::Subnet', { MapPublicIpOnLaunch: false });
  });

  test('the only ingress is PostgreSQL from the client networks, the schema mover and the other cluster, and HTTPS from the mover to its endpoints', () => {
    // No egress of its own but to itself (below): CDK drops its placeholder rule once there is a real one.
    template.hasResourceProperties('AWS::EC2::SecurityGroup', {
      GroupDescription: 'Hybrid Aurora clusters: PostgreSQL from the FOLIO client networks only',
      SecurityGroupIngress: [{ CidrIp: '10.60.0.0/16', FromPort: 5432, ToPort: 5432, IpProtocol: 'tcp' }],
      SecurityGroupEgress: Match.absent(),
    });
    const mover = logicalId(json, 'AWS::EC2::SecurityGroup', 'SchemaMover/SecurityGroup/Resource');
    const rules = resourcesOfType(json, 'AWS::EC2::SecurityGroupIngress').map((r) => r.Properties);
    const aurora = logicalId(json, 'AWS::EC2::SecurityGroup', 'Aurora/SecurityGroup/Resource');
    expect(rules.map((r) => [r.GroupId['Fn::GetAtt'][0].replace(/[0-9A-F]{8}$/, ''), r.FromPort, r.SourceSecurityGroupId['Fn::GetAtt'][0]]).sort()).toEqual([
      ['AuroraSecurityGroup', 5432, aurora],
      ['AuroraSecurityGroup', 5432, mover],
      ['SchemaMoverEndpointSecurityGroup', 443, mover],
    ]);
    // Cluster to cluster, for an online move's subscription: the only egress the clusters have.
    template.hasResourceProperties('AWS::EC2::SecurityGroupEgress', {
      GroupId: { 'Fn::GetAtt': [aurora, 'GroupId'] },
      DestinationSecurityGroupId: { 'Fn::GetAtt': [aurora, 'GroupId'] },
      FromPort: 5432,
      ToPort: 5432,
    });
    template.hasResourceProperties('AWS::EC2::SecurityGroupEgress', {
      GroupId: { 'Fn::GetAtt': [mover, 'GroupId'] },
      DestinationPrefixListId: 'pl-63a5400a',
      FromPort: 443,
    });
    expect(JSON.stringify(json)).not.toContain('0.0.0.0/0');
  });

  test('the admin credential is generated into Secrets Manager, encrypted and retained', () => {
    const id = logicalId(json, SECRET, 'Aurora/AdminSecret/Resource');
    expect(json.Resources[id]).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: {
        Name: 'folio/db/admin',
        GenerateSecretString: { SecretStringTemplate: '{"username":"folio_admin"}', GenerateStringKey: 'password' },
        KmsKeyId: { 'Fn::GetAtt': [logicalId(json, 'AWS::KMS::Key', 'Aurora/Key/Resource'), 'Arn'] },
      },
    });
    // Both clusters take their password from it; it never appears in the template.
    const password = { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: id }, ':SecretString:password::}}']] };
    template.allResourcesProperties('AWS::RDS::DBCluster', { MasterUserPassword: password, MasterUsername: 'folio_admin' });
  });

  test('the stack is protected from deletion', () => {
    expect(synthPhase('test12').artifact.terminationProtection).toBe(true);
  });
});

describe('variants', () => {
  test('unprotect=true lifts deletion and termination protection for teardown', () => {
    const { artifact, template } = synthScenario({ scenario: 'test12', unprotect: 'true' });
    expect(artifact.terminationProtection).toBe(false);
    template.allResourcesProperties(CLUSTER, { DeletionProtection: false });
    // Snapshots on delete stay: tearing down keeps the data.
    template.allResources(CLUSTER, { DeletionPolicy: 'Snapshot' });
  });

  test('envName gives a second, independent copy', () => {
    const { artifact, template } = synthScenario({ scenario: 'test12', envName: 'perf2' });
    expect(artifact.stackName).toBe('perf2-FolioHybridAurora');
    template.hasResourceProperties(CLUSTER, { DBClusterIdentifier: 'perf2-folio-hybrid-serverless' });
    template.hasResourceProperties(SECRET, { Name: 'perf2/folio/db/modules/mod-lists' });
  });

  test('with a provisioned reader, modules on that cluster also get DB_HOST_READER', () => {
    const { json } = synthScenario(
      { scenario: 'test12' },
      editedCatalog((c) => (c.folio.environment.database.primaryReaders = 1)),
    );
    const onProvisioned = logicalId(json, SECRET, 'Routing/mod-users/Resource');
    const onServerless = logicalId(json, SECRET, 'Routing/mod-lists/Resource');
    expect(secretKeys(json, onProvisioned)).toEqual(expect.arrayContaining(['DB_HOST', 'DB_HOST_READER', 'DB_PORT_READER']));
    expect(JSON.stringify(json.Resources[onProvisioned].Properties.SecretString)).toContain('\\"DB_HOST_READER\\":\\"mod-users-reader.folio-db.internal\\"');
    expect(secretKeys(json, onServerless)).not.toContain('DB_HOST_READER');
  });
});

test('a phase at 0 ACU pauses after the time config gives, and moving to it from 0.5 ACU replaces nothing', () => {
  const before = synthScenario({ scenario: 'test10' }).json;
  const paused = editedCatalog((c) => (c.folio.phases.find((p: any) => p.name === 'test10').offload.serverless = { min: 0, max: 32, autoPause: '10m' }));
  const after = synthScenario({ scenario: 'test10' }, paused).json;
  const serverless = logicalId(after, CLUSTER, 'Aurora/Serverless/Resource');
  expect(after.Resources[serverless].Properties.ServerlessV2ScalingConfiguration).toEqual({ MinCapacity: 0, MaxCapacity: 32, SecondsUntilAutoPause: 600 });
  const changes = resourceChanges(before, after);
  expect(changes.find((c) => c.logicalId === serverless)).toMatchObject({ impact: ResourceImpact.WILL_UPDATE });
  expect(changes.filter((c) => c.unsafe)).toEqual([]);
});
