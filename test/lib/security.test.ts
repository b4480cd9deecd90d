import { type TemporalScenario, resolveScenario } from '../../config';
import { ALL_SCENARIO_NAMES, FOLIO_PHASE_NAMES, TEMPORAL_SCENARIO_NAMES, synthObservability, synthScenario } from '../support/synth';

/*
 * IAM, data safety and network exposure, proven on the synthesized templates of every
 * scenario (data and observability stacks), not argued in comments.
 */

type Template = { Resources: Record<string, any> };

const templates: ReadonlyArray<[string, Template]> = ALL_SCENARIO_NAMES.flatMap((scenario) => [
  [scenario, synthScenario({ scenario }).json as Template],
  [`${scenario} (observability)`, synthObservability({ scenario }).json as Template],
]);

const resources = (t: Template, type: string) => Object.entries(t.Resources).filter(([, r]) => r.Type === type);
const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Every IAM statement, with the logical IDs of the roles it is attached to. */
function statements(t: Template) {
  const out: Array<{ policy: string; roles: string[]; actions: string[]; resources: unknown[]; effect: string }> = [];
  for (const [id, p] of resources(t, 'AWS::IAM::Policy'))
    for (const s of p.Properties.PolicyDocument.Statement)
      out.push({ policy: id, roles: list(p.Properties.Roles).map((r: any) => r.Ref), actions: list(s.Action), resources: list(s.Resource), effect: s.Effect });
  for (const [id, r] of resources(t, 'AWS::IAM::Role'))
    for (const inline of r.Properties.Policies ?? [])
      for (const s of inline.PolicyDocument.Statement)
        out.push({ policy: `${id}/${inline.PolicyName}`, roles: [id], actions: list(s.Action), resources: list(s.Resource), effect: s.Effect });
  return out;
}

/**
 * Actions AWS documents without resource-level permissions ("Resource": "*" is the only
 * form): the ECS container agent's calls, the ECR registry token, the agent's log calls
 * on instance roles (the awslogs driver names streams at run time), and the SSM agent's
 * Session Manager channels (the Service Authorization Reference lists no resource type for them).
 */
const NO_RESOURCE_LEVEL = new Set([
  'ecr:GetAuthorizationToken',
  'ecs:DiscoverPollEndpoint',
  'ecs:Poll',
  'ecs:StartTelemetrySession',
  'logs:CreateLogStream',
  'logs:PutLogEvents',
  'ssmmessages:CreateControlChannel',
  'ssmmessages:CreateDataChannel',
  'ssmmessages:OpenControlChannel',
  'ssmmessages:OpenDataChannel',
]);

const roleNamed = (t: Template, pathSuffix: string) =>
  resources(t, 'AWS::IAM::Role')
    .filter(([, r]) => String(r.Metadata?.['aws:cdk:path'] ?? '').endsWith(pathSuffix))
    .map(([id]) => id);

/** Allow statements on Resource "*" whose actions do have resource-level permissions. */
const wideStatements = (t: Template) =>
  statements(t).filter((s) => s.effect === 'Allow' && s.resources.includes('*') && !s.actions.every((a) => NO_RESOURCE_LEVEL.has(a)));

/** Statements on an ECS instance role that reach data (databases, tables, indices, secrets, keys). */
function instanceDataPlane(t: Template) {
  const instanceRoles = new Set(
    resources(t, 'AWS::IAM::Role')
      .filter(([, r]) => /Asg\/InstanceRole\/Resource$/.test(r.Metadata?.['aws:cdk:path'] ?? ''))
      .map(([id]) => id),
  );
  const dataPlane = /^(dsql|dynamodb|es|secretsmanager|s3|rds-db|kms):/;
  return statements(t).filter((s) => s.roles.some((r) => instanceRoles.has(r)) && s.actions.some((a) => dataPlane.test(a)));
}

const STATEFUL = [
  'AWS::DSQL::Cluster',
  'AWS::RDS::DBCluster',
  'AWS::RDS::DBInstance',
  'AWS::OpenSearchService::Domain',
  'AWS::SecretsManager::Secret',
  'AWS::KMS::Key',
  'AWS::Logs::LogGroup',
  'AWS::DynamoDB::Table',
];

/** Stateful resources that a stack deletion would delete. */
function droppedStateful(t: Template): string[] {
  // Module secrets are copies of the admin credential rewritten on every deploy; kept, they
  // would block the names of the next deploy. The rate limiter and the connection lease hold
  // only counters and slot blocks that expire within minutes.
  // An Aurora instance holds no data of its own: its cluster's final snapshot does.
  const derived = (id: string, r: any) =>
    (r.Type === 'AWS::SecretsManager::Secret' && /\/Routing\//.test(r.Metadata?.['aws:cdk:path'] ?? '')) ||
    (r.Type === 'AWS::DynamoDB::Table' && (id.startsWith('RateLimiter') || id.startsWith('ConnectionLease'))) ||
    (r.Type === 'AWS::RDS::DBInstance' && r.Properties.DBClusterIdentifier !== undefined);
  return Object.entries(t.Resources)
    .filter(([id, r]) => STATEFUL.includes(r.Type) && !derived(id, r) && !['Retain', 'Snapshot'].includes(r.DeletionPolicy))
    .map(([id, r]) => `${id} (${r.Type}): ${r.DeletionPolicy ?? 'Delete'}`);
}

/** Security groups, or separate ingress rules, open to the whole internet. */
function openIngress(t: Template): string[] {
  const open = (rule: any) => rule.CidrIp === '0.0.0.0/0' || rule.CidrIpv6 === '::/0';
  const inline = resources(t, 'AWS::EC2::SecurityGroup').filter(([, g]) => (g.Properties.SecurityGroupIngress ?? []).some(open));
  const separate = resources(t, 'AWS::EC2::SecurityGroupIngress').filter(([, r]) => open(r.Properties));
  return [...inline, ...separate].map(([id]) => id);
}

/** Databases and domains placed in a public subnet, or publicly accessible. */
function publicPlacements(t: Template): string[] {
  const publicSubnets = new Set(
    resources(t, 'AWS::EC2::Subnet')
      .filter(([, s]) => /\/Public/.test(s.Metadata?.['aws:cdk:path'] ?? ''))
      .map(([id]) => id),
  );
  const inPublic = (ids: any[]) => ids.some((x) => publicSubnets.has(x.Ref));
  return [
    ...resources(t, 'AWS::RDS::DBSubnetGroup').filter(([, g]) => inPublic(g.Properties.SubnetIds)),
    ...resources(t, 'AWS::RDS::DBInstance').filter(([, i]) => i.Properties.PubliclyAccessible === true),
    ...resources(t, 'AWS::OpenSearchService::Domain').filter(
      ([, d]) => !d.Properties.VPCOptions?.SubnetIds?.length || inPublic(d.Properties.VPCOptions.SubnetIds),
    ),
  ].map(([id]) => id);
}

test('each check finds what it looks for (negative control on a broken copy of a real template)', () => {
  const t = structuredClone(synthScenario({ scenario: 'temporal-150wps' }).json) as Template;
  const [policyId, policy] = resources(t, 'AWS::IAM::Policy').find(([, p]) => /Asg\/InstanceRole\/DefaultPolicy/.test(p.Metadata?.['aws:cdk:path'] ?? ''))!;
  policy.Properties.PolicyDocument.Statement.push({ Effect: 'Allow', Action: 'dsql:DbConnect', Resource: '*' });
  const [logId, log] = resources(t, 'AWS::Logs::LogGroup')[0];
  log.DeletionPolicy = 'Delete';
  const [groupId, group] = resources(t, 'AWS::EC2::SecurityGroup')[0];
  group.Properties.SecurityGroupIngress = [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, CidrIp: '0.0.0.0/0' }];
  const publicSubnet = resources(t, 'AWS::EC2::Subnet').find(([, s]) => /\/Public/.test(s.Metadata['aws:cdk:path']))![0];
  const [domainId, domain] = resources(t, 'AWS::OpenSearchService::Domain')[0];
  domain.Properties.VPCOptions.SubnetIds[0] = { Ref: publicSubnet };

  expect(wideStatements(t).map((s) => s.policy)).toEqual([policyId]);
  expect(instanceDataPlane(t).map((s) => s.policy)).toEqual([policyId]);
  expect(droppedStateful(t)).toEqual([`${logId} (AWS::Logs::LogGroup): Delete`]);
  expect(openIngress(t)).toEqual([groupId]);
  expect(publicPlacements(t)).toEqual([domainId]);
});

describe.each(templates)('%s', (_name, t) => {
  test('no IAM statement has Resource "*" unless every action in it has no resource-level permissions', () => {
    expect(wideStatements(t)).toEqual([]);
  });

  test('no instance role holds a data-plane permission', () => {
    expect(instanceDataPlane(t)).toEqual([]);
  });

  test('stateful resources are kept: Retain or Snapshot, and deletion protection where the resource has it', () => {
    expect(droppedStateful(t)).toEqual([]);
    for (const [, c] of resources(t, 'AWS::RDS::DBCluster')) expect(c.Properties.DeletionProtection).toBe(true);
    for (const [, c] of resources(t, 'AWS::DSQL::Cluster')) expect(c.Properties.DeletionProtectionEnabled).toBe(true);
  });

  test('encrypted at rest and in transit', () => {
    for (const [, c] of resources(t, 'AWS::RDS::DBCluster')) {
      expect(c.Properties.StorageEncrypted).toBe(true);
      expect(c.Properties.KmsKeyId).toBeDefined();
    }
    for (const [, p] of resources(t, 'AWS::RDS::DBClusterParameterGroup')) expect(p.Properties.Parameters['rds.force_ssl']).toBe('1');
    for (const [, d] of resources(t, 'AWS::OpenSearchService::Domain')) {
      expect(d.Properties.EncryptionAtRestOptions).toEqual({ Enabled: true });
      expect(d.Properties.NodeToNodeEncryptionOptions).toEqual({ Enabled: true });
      expect(d.Properties.DomainEndpointOptions).toMatchObject({ EnforceHTTPS: true, TLSSecurityPolicy: 'Policy-Min-TLS-1-2-2019-07' });
    }
    for (const [, s] of resources(t, 'AWS::SecretsManager::Secret')) expect(s.Properties.KmsKeyId).toBeDefined();
    for (const [, k] of resources(t, 'AWS::KMS::Key')) expect(k.Properties.EnableKeyRotation).toBe(true);
    for (const [, tbl] of resources(t, 'AWS::DynamoDB::Table')) expect(tbl.Properties.SSESpecification).toEqual({ SSEEnabled: true });
    // Every log group under the stack's own log key (LogEncryption), CDK's included.
    const keys = resources(t, 'AWS::KMS::Key').filter(([, k]) => /\/LogEncryption\/Key\/Resource$/.test(k.Metadata?.['aws:cdk:path'] ?? ''));
    for (const [, g] of resources(t, 'AWS::Logs::LogGroup')) expect(g.Properties.KmsKeyId).toEqual({ 'Fn::GetAtt': [keys[0]?.[0], 'Arn'] });
    for (const [, topic] of resources(t, 'AWS::SNS::Topic')) expect(topic.Properties.KmsMasterKeyId).toBeDefined();
    for (const [, pol] of resources(t, 'AWS::SNS::TopicPolicy'))
      expect(pol.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
  });

  test('no security group admits 0.0.0.0/0 or ::/0', () => {
    expect(openIngress(t)).toEqual([]);
  });

  test('databases and the OpenSearch domain sit in private subnets only', () => {
    expect(publicPlacements(t)).toEqual([]);
  });
});

const storeOf = (name: string) => (resolveScenario({ scenario: name }) as TemporalScenario).preset.store.engine;
const temporalData = (engine: string) =>
  TEMPORAL_SCENARIO_NAMES.filter((n) => storeOf(n) === engine).map((n) => [n, synthScenario({ scenario: n }).json as Template] as const);

test('both stores are covered below', () => {
  expect(temporalData('dsql').length).toBeGreaterThan(0);
  expect(temporalData('aurora-postgresql').length).toBeGreaterThan(0);
});

describe.each(temporalData('dsql'))('%s (dsql): who may do what', (_name, t) => {
  const taskRole = roleNamed(t, '/ServerTaskRole/Resource');

  test('DSQL connect: only the Temporal task role, only on the cluster ARN', () => {
    const connect = statements(t).filter((s) => s.actions.some((a) => a.startsWith('dsql:DbConnect')));
    expect(connect).toEqual([
      expect.objectContaining({
        roles: taskRole,
        actions: ['dsql:DbConnectAdmin'],
        resources: [{ 'Fn::GetAtt': [expect.stringMatching(/^Dsql/), 'ResourceArn'] }],
      }),
    ]);
  });

  test("the cluster's resource policy: set and read back only by its deploy-time function, only on the cluster ARN", () => {
    const other = statements(t).filter((s) => s.actions.some((a) => a.startsWith('dsql:') && !a.startsWith('dsql:DbConnect')));
    expect(other).toEqual([
      expect.objectContaining({
        roles: [expect.stringMatching(/^DsqlConnectionPolicyPutServiceRole/)],
        actions: ['dsql:GetClusterPolicy', 'dsql:PutClusterPolicy'],
        resources: [{ 'Fn::GetAtt': [expect.stringMatching(/^Dsql/), 'ResourceArn'] }],
      }),
    ]);
  });

  test("the DSQL plugin's tables: written only by the task role, each with no more than the calls its preset's controls make", () => {
    const table = (prefix: string) => resources(t, 'AWS::DynamoDB::Table').find(([id]) => id.startsWith(prefix))![0];
    const preset = (resolveScenario({ scenario: _name }) as TemporalScenario).preset;
    const c = preset.store.engine === 'dsql' ? preset.store.connections : undefined;
    const writes = statements(t).filter((s) => s.actions.some((a) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(a) || a === 'dynamodb:*'));
    expect(writes).toEqual([
      expect.objectContaining({
        roles: taskRole,
        actions: c?.limiter.kind === 'token-bucket' ? ['dynamodb:GetItem', 'dynamodb:UpdateItem'] : ['dynamodb:UpdateItem'],
        resources: [{ 'Fn::GetAtt': [table('RateLimiter'), 'Arn'] }],
      }),
      ...(c?.lease
        ? [
            expect.objectContaining({
              roles: taskRole,
              actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
              resources: [{ 'Fn::GetAtt': [table('ConnectionLease'), 'Arn'] }],
            }),
          ]
        : []),
    ]);
  });
});

describe.each(temporalData('aurora-postgresql'))('%s (aurora-postgresql): who may do what', (_name, t) => {
  test('no DSQL cluster, no DSQL permission, no limiter table', () => {
    expect(resources(t, 'AWS::DSQL::Cluster')).toEqual([]);
    expect(statements(t).filter((s) => s.actions.some((a) => a.startsWith('dsql:')))).toEqual([]);
    expect(resources(t, 'AWS::DynamoDB::Table')).toEqual([]);
  });

  test("the servers' login: rds-db:connect as their own database user of this cluster, to the servers' task role only (which the store probe shares)", () => {
    const cluster = resources(t, 'AWS::RDS::DBCluster')[0][0];
    const connects = statements(t).filter((s) => s.actions.some((a) => a.startsWith('rds-db:')));
    expect(connects).toEqual([expect.objectContaining({ roles: roleNamed(t, '/ServerTaskRole/Resource'), actions: ['rds-db:connect'] })]);
    const arn = connects[0].resources[0] as { 'Fn::Join': [string, unknown[]] };
    const e = (resolveScenario({ scenario: 'temporal-aurora-150wps' }) as TemporalScenario).environment;
    expect(arn['Fn::Join'][1]).toEqual([
      `arn:aws:rds-db:${e.region}:`,
      { Ref: 'AWS::AccountId' },
      ':dbuser:',
      { 'Fn::GetAtt': [cluster, 'DBClusterResourceId'] },
      `/${e.auroraPostgresql.serverUser}`,
    ]);
  });

  test("the store's password: readable only by the schema task's execution role (ECS hands it to the schema task, which logs in as the master user), decryptable with its key only by it", () => {
    const secret = resources(t, 'AWS::SecretsManager::Secret');
    expect(secret).toHaveLength(1);
    const schemaExecution = roleNamed(t, '/SchemaExecutionRole/Resource');
    expect(schemaExecution).toHaveLength(1);
    // The schema task's definition names it; no other task definition does.
    const schemaTask = resources(t, 'AWS::ECS::TaskDefinition').filter(([, d]) => JSON.stringify(d.Properties.ExecutionRoleArn).includes(schemaExecution[0]));
    expect(schemaTask.map(([, d]) => String(d.Metadata['aws:cdk:path']).split('/')[1])).toEqual(['Schema']);
    const reads = statements(t).filter((s) => s.actions.some((a) => a === 'secretsmanager:GetSecretValue' || a === 'secretsmanager:*'));
    expect(reads).toEqual([expect.objectContaining({ roles: schemaExecution, resources: [{ Ref: secret[0][0] }] })]);
    const decrypts = statements(t).filter((s) => s.actions.some((a) => a === 'kms:Decrypt' || a === 'kms:*'));
    const storeKey = resources(t, 'AWS::KMS::Key').find(([, k]) => /\/Aurora\/Key\//.test(k.Metadata['aws:cdk:path']))![0];
    for (const d of decrypts.filter((x) => JSON.stringify(x.resources).includes(storeKey))) expect(d.roles).toEqual(schemaExecution);
    // And which containers get it: the schema task alone; not the servers nor the store probe (they sign IAM tokens), no benchmark task.
    const withSecret = resources(t, 'AWS::ECS::TaskDefinition')
      .filter(([, d]) => d.Properties.ContainerDefinitions.some((c: any) => (c.Secrets ?? []).length))
      .map(([, d]) => String(d.Metadata['aws:cdk:path']).split('/')[1]);
    expect(withSecret).toEqual(['Schema']);
  });

  test("the database: reachable on 5432 from the servers' security group and nothing else", () => {
    const store = resources(t, 'AWS::EC2::SecurityGroup').find(([, g]) => /\/Aurora\/SecurityGroup\//.test(g.Metadata['aws:cdk:path']))![0];
    const servers = resources(t, 'AWS::EC2::SecurityGroup').find(([, g]) => /\/ServerSecurityGroup\//.test(g.Metadata['aws:cdk:path']))![0];
    const ingress = resources(t, 'AWS::EC2::SecurityGroupIngress').filter(([, r]) => JSON.stringify(r.Properties.GroupId).includes(store));
    expect(ingress.map(([, r]) => [r.Properties.FromPort, r.Properties.ToPort, r.Properties.SourceSecurityGroupId])).toEqual([
      [5432, 5432, { 'Fn::GetAtt': [servers, 'GroupId'] }],
    ]);
  });
});

describe.each(templates)('%s: secrets', (_name, t) => {
  test('Secrets Manager values are readable by no role but the one execution role that hands each to its tasks', () => {
    const reads = statements(t).filter((s) => s.actions.some((a) => a === 'secretsmanager:GetSecretValue' || a === 'secretsmanager:*'));
    if (FOLIO_PHASE_NAMES.includes(_name))
      return expect(reads).toEqual([
        expect.objectContaining({
          roles: roleNamed(t, '/SchemaMover/Task/ExecutionRole/Resource'),
          resources: [{ Ref: expect.stringMatching(/^AuroraAdminSecret/) }],
        }),
      ]);
    if (TEMPORAL_SCENARIO_NAMES.includes(_name) && storeOf(_name) === 'aurora-postgresql')
      return expect(reads).toEqual([
        expect.objectContaining({
          roles: roleNamed(t, '/SchemaExecutionRole/Resource'),
          resources: [{ Ref: expect.stringMatching(/^AuroraSecret/) }],
        }),
      ]);
    expect(reads).toEqual([]);
  });
});
