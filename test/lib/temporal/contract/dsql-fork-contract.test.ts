import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { TEMPORAL_ROLES, type TemporalScenario, resolveScenario } from '../../../../config';
import { DYNAMIC_CONFIG_KEYS } from '../../../../config/temporal-dynamic-config-keys';
import { compareReleases } from '../../../../config/temporal-schema';
import { serverEnvironment, startCommand, staticConfig } from '../../../../lib/temporal/contract/temporal-config';
import { schemaCommand } from '../../../../lib/temporal/contract/temporal-schema-task';
import { editedCatalog, logicalId, synthScenario } from '../../../support/synth';

/*
 * The rendered stack held to what the DSQL fork's source expects (test/fixtures/dsql-fork,
 * recorded with file and line at the pinned commit). The fork cannot be built in CI; these
 * tests are how a mismatch, or a pin moved without re-reading the source, fails.
 */

const ROOT = join(__dirname, '../../../..');
const contract = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/dsql-fork/contract.json'), 'utf8'));
const scenario = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
const e = scenario.environment;
const endpoints = {
  storeHost: 'abc.dsql.eu-west-1.on.aws',
  visibilityHost: 'vpc-x.eu-west-1.es.amazonaws.com',
  frontendAddress: 'frontend.temporal.internal:7233',
};
const files = { staticConfig: staticConfig(e, 'dsql', endpoints, scenario.preset.pools.history), dynamicConfig: '' };
const pluginEnv = [
  ...contract.plugin.regionEnv,
  contract.plugin.endpointEnv,
  ...contract.rateLimiter.local.env,
  ...contract.rateLimiter.distributed.env,
  ...contract.rateLimiter.tokenBucket.env,
  ...contract.reservoir.env,
  ...contract.connectionLease.env,
  ...contract.optionalPluginEnv,
];
const wiring = (connections: any) => ({
  engine: 'dsql' as const,
  rateLimiterTable: 'table',
  connectionLeaseTable: 'lease',
  tokenEndpoint: endpoints.storeHost,
  connections,
});
const dsqlStore = (p: { store: any }) => p.store.connections;

test('the server image is built from the commit this record was read at', () => {
  const dockerfile = readFileSync(join(ROOT, 'docker/temporal-dsql/Dockerfile'), 'utf8');
  const ref = /^ARG TEMPORAL_DSQL_REF=(\S+)$/m.exec(dockerfile)?.[1];
  expect(ref).toBeDefined();
  expect(contract.commit.startsWith(ref!)).toBe(true);
  expect(dockerfile).toContain(`github.com/${contract.repository}.git`);
});

test('the schema task sets up a schema name the tool accepts, at its version, and updates by the same name', () => {
  const cmd = schemaCommand(e, 'dsql');
  const setup = /temporal-dsql-tool setup-schema --schema-name (\S+) --version (\S+)/.exec(cmd);
  expect(setup).not.toBeNull();
  expect(contract.schemaTool.schemaNames).toContain(setup![1]);
  expect(setup![2]).toBe(contract.schemaTool.version);
  expect(cmd).toContain(`temporal-dsql-tool update-schema --schema-name ${setup![1]}`);
  const [ep, credentials] = contract.elasticsearchTool.globalFlags;
  expect(cmd).toMatch(new RegExp(`temporal-elasticsearch-tool ${ep} \\S+ ${credentials} aws-sdk-default setup-schema`));
  expect(cmd).toMatch(new RegExp(`temporal-elasticsearch-tool ${ep} \\S+ ${credentials} aws-sdk-default create-index --index `));
  // An update brings the index's template and mappings to the release too, after the store's schema.
  expect(contract.elasticsearchTool.commands).toContain('update-schema --index');
  const update = cmd.slice(cmd.indexOf('update)'));
  expect(update).toMatch(
    new RegExp(
      `temporal-dsql-tool update-schema[^\\n]*\\n\\s*temporal-elasticsearch-tool ${ep} \\S+ ${credentials} aws-sdk-default update-schema --index "\\$VISIBILITY_INDEX" ;;`,
    ),
  );
});

test("the schema task's environment names only variables the tool reads", () => {
  const { json } = synthScenario({ scenario: 'temporal-150wps' });
  const task = Object.values(json.Resources as Record<string, any>).find(
    (r) => r.Type === 'AWS::ECS::TaskDefinition' && String(r.Metadata?.['aws:cdk:path']).includes('/Schema/'),
  );
  const names: string[] = task.Properties.ContainerDefinitions[0].Environment.map((v: any) => v.Name);
  const toolEnv = names.filter((n) => n.startsWith('SQL_') || n.includes('REGION') || n === 'CLUSTER_ENDPOINT');
  expect(toolEnv.sort()).toEqual(['AWS_REGION', 'CLUSTER_ENDPOINT', 'SQL_DATABASE', 'SQL_HOST', 'SQL_PORT', 'SQL_USER']);
  for (const n of toolEnv) expect(contract.schemaTool.env).toContain(n);
});

test('the start command uses the server CLI as the fork defines it', () => {
  const exec = startCommand()
    .split('\n')
    .find((l) => l.startsWith('exec '))!;
  const s = contract.server;
  expect(exec).toMatch(new RegExp(`^exec ${s.binary} ${s.globalFlags[0]} \\S+ ${s.globalFlags[1]} ${s.startCommand} ${s.serviceFlag} "\\$TEMPORAL_SERVICE"$`));
});

test('the datastore names the plugin and the user it connects as', () => {
  const sql = parse(files.staticConfig).persistence.datastores.dsql.sql;
  expect(sql.pluginName).toBe(contract.plugin.name);
  expect(sql.user).toBe(contract.plugin.user);
});

test.each(TEMPORAL_ROLES)('%s: every DSQL_* variable rendered is one the plugin reads, in the mode it reads it', (role) => {
  const rendered = serverEnvironment(e, role, files, wiring(dsqlStore(scenario.preset)), scenario.preset.pools[role]);
  const dsql = Object.keys(rendered).filter((k) => k.startsWith('DSQL_'));
  for (const k of dsql) expect(pluginEnv).toContain(k);
  expect(contract.plugin.regionEnv.some((k: string) => k in rendered)).toBe(true);
  // The host tokens are signed for, which the plugin reads before falling back to connectAddr's.
  expect(rendered[contract.plugin.endpointEnv]).toBe(endpoints.storeHost);
  // The counter on: the local limiter's variables would never be read.
  expect(dsql.sort()).toEqual([
    'DSQL_DISTRIBUTED_RATE_LIMITER_ENABLED',
    'DSQL_DISTRIBUTED_RATE_LIMITER_LIMIT',
    'DSQL_DISTRIBUTED_RATE_LIMITER_MAX_WAIT',
    'DSQL_DISTRIBUTED_RATE_LIMITER_TABLE',
  ]);
});

test('with the per-task limiter, each task gets the local limiter its role is configured with, and nothing else', () => {
  const catalog = editedCatalog((c) => {
    c.temporal.scenarios = c.temporal.scenarios.filter((s: any) => s.name === 'temporal-25wps');
    c.temporal.scenarios[0].store = { engine: 'dsql', connections: { limiter: { kind: 'per-task' } } };
  });
  const local = resolveScenario({ scenario: 'temporal-25wps' }, catalog) as TemporalScenario;
  for (const role of TEMPORAL_ROLES) {
    const limit = local.environment.persistence.connectionRateLimits[role];
    const dsql = Object.entries(serverEnvironment(local.environment, role, files, wiring(dsqlStore(local.preset)), local.preset.pools[role])).filter(([k]) =>
      k.startsWith('DSQL_'),
    );
    expect(Object.fromEntries(dsql)).toEqual({ DSQL_CONNECTION_RATE_LIMIT: String(limit.perSecond), DSQL_CONNECTION_BURST_LIMIT: String(limit.burst) });
    for (const [k] of dsql) expect(contract.rateLimiter.local.env).toContain(k);
  }
});

test("IAM: the server task role may connect as admin, the action the plugin's tokens need, and no other DSQL action", () => {
  const { json } = synthScenario({ scenario: 'temporal-150wps' });
  const dsqlActions = Object.values(json.Resources as Record<string, any>)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes('ServerTaskRole'))
    .flatMap((p) => p.Properties.PolicyDocument.Statement.flatMap((s: any) => [s.Action].flat()))
    .filter((a: string) => a.startsWith('dsql:'));
  expect(dsqlActions).toEqual([contract.plugin.iamAction]);
});

test("the limiter table and its grant match the plugin's UpdateItem", () => {
  const { json } = synthScenario({ scenario: 'temporal-150wps' });
  const table = json.Resources[logicalId(json, 'AWS::DynamoDB::Table', 'RateLimiter/Table/Resource')].Properties;
  // temporal-150wps counts per second and leases nothing: UpdateItem on the limiter table only.
  const t = contract.rateLimiter.table;
  expect(table.KeySchema).toEqual([{ AttributeName: t.partitionKey.name, KeyType: 'HASH' }]);
  expect(table.AttributeDefinitions).toEqual([{ AttributeName: t.partitionKey.name, AttributeType: t.partitionKey.type }]);
  expect(table.TimeToLiveSpecification).toEqual({ AttributeName: t.ttlAttribute, Enabled: true });
  const actions = Object.values(json.Resources as Record<string, any>)
    .filter((r) => r.Type === 'AWS::IAM::Policy')
    .flatMap((p) => p.Properties.PolicyDocument.Statement.flatMap((s: any) => [s.Action].flat()))
    .filter((a: string) => a.startsWith('dynamodb:'));
  expect(actions).toEqual(t.actions);
});

/** Every dynamodb: action granted, by the table it is granted on (the logical ID of RateLimiter or ConnectionLease). */
function dynamoGrants(json: any): Record<string, string[]> {
  const tables = {
    limiter: logicalId(json, 'AWS::DynamoDB::Table', 'RateLimiter/Table/Resource'),
    lease: logicalId(json, 'AWS::DynamoDB::Table', 'ConnectionLease/Table/Resource'),
  };
  const out: Record<string, string[]> = { limiter: [], lease: [] };
  for (const p of Object.values(json.Resources as Record<string, any>).filter((r) => r.Type === 'AWS::IAM::Policy'))
    for (const st of p.Properties.PolicyDocument.Statement) {
      const actions = [st.Action].flat().filter((a: string) => a.startsWith('dynamodb:'));
      if (!actions.length) continue;
      const on = JSON.stringify(st.Resource);
      for (const [name, id] of Object.entries(tables)) if (on.includes(`"${id}"`)) out[name].push(...actions);
    }
  return out;
}

describe.each([
  ['temporal-1200wps', 'counter'],
  ['temporal-2000wps', 'token-bucket'],
])('%s (%s limiter, reservoir, lease): rendered as the fork reads it', (name, kind) => {
  const s = resolveScenario({ scenario: name }) as TemporalScenario;
  const controls = dsqlStore(s.preset);
  const render = (role: (typeof TEMPORAL_ROLES)[number]) => serverEnvironment(s.environment, role, files, wiring(controls), s.preset.pools[role]);

  test.each(TEMPORAL_ROLES)('%s: every variable one the plugin reads, with what each mode requires beside it', (role) => {
    const env = render(role);
    const dsql = Object.keys(env).filter((k) => k.startsWith('DSQL_'));
    for (const k of dsql) expect(pluginEnv).toContain(k);
    for (const k of [...contract.reservoir.env, ...contract.connectionLease.env, ...contract.connectionLease.requires]) expect(Object.keys(env)).toContain(k);
    for (const k of Object.keys(contract.connectionLease.notRead)) expect(env).not.toHaveProperty(k);
    // The reservoir keeps the role's pool ready; the lease leases blocks against that target.
    expect(env.DSQL_RESERVOIR_TARGET_READY).toBe(String(s.preset.pools[role].maxConns));
    expect(env.DSQL_RESERVOIR_LOW_WATERMARK).toBe(String(s.preset.pools[role].maxConns));
    if (kind === 'token-bucket')
      for (const k of [...contract.rateLimiter.tokenBucket.env, ...contract.rateLimiter.tokenBucket.requires]) expect(Object.keys(env)).toContain(k);
    else expect(dsql.filter((k) => k.startsWith('DSQL_TOKEN_BUCKET_'))).toEqual([]);
    expect(dsql.filter((k) => contract.rateLimiter.local.env.includes(k))).toEqual([]);
  });

  test('IAM: each table gets exactly the calls the fork makes on it, and the lease table matches its items', () => {
    const { json } = synthScenario({ scenario: name });
    const expected = kind === 'token-bucket' ? contract.rateLimiter.tokenBucket.actions : contract.rateLimiter.table.actions;
    const grants = dynamoGrants(json);
    expect(grants.limiter.sort()).toEqual([...expected].sort());
    expect(grants.lease.sort()).toEqual([...contract.connectionLease.table.actions].sort());
    const lease = json.Resources[logicalId(json, 'AWS::DynamoDB::Table', 'ConnectionLease/Table/Resource')].Properties;
    const t = contract.connectionLease.table;
    expect(lease.KeySchema).toEqual([{ AttributeName: t.partitionKey.name, KeyType: 'HASH' }]);
    expect(lease.TimeToLiveSpecification).toEqual({ AttributeName: t.ttlAttribute, Enabled: true });
    expect(lease.TableName).toBe(s.environment.names.connectionLeaseTable);
  });
});

test('a preset that leases nothing grants nothing on the lease table, which exists all the same (a preset switch never creates or deletes it)', () => {
  const { json } = synthScenario({ scenario: 'temporal-150wps' });
  expect(dynamoGrants(json).lease).toEqual([]);
  expect(json.Resources[logicalId(json, 'AWS::DynamoDB::Table', 'ConnectionLease/Table/Resource')]).toBeDefined();
});

describe("the fork's upstream code, from the tag history: each dynamic-config key config lets a DSQL preset set is one the fork's source registers", () => {
  const base = contract.upstreamBase;
  const fork = e.servers.dsqlFork.upstream;

  test('config names the upstream commit and the releases the record established', () => {
    expect(fork).toEqual({ commit: base.upstreamCommit, date: base.upstreamDate, branchedAfter: base.branchedAfter, firstRelease: base.firstRelease });
  });

  test('every key the record reads in the fork is one config accepts there, and every key it does not find config refuses', () => {
    expect(Object.keys(base.registered).sort()).toEqual(Object.keys(DYNAMIC_CONFIG_KEYS).sort());
    for (const [key, spec] of Object.entries(DYNAMIC_CONFIG_KEYS)) {
      const accepted = !spec.since || compareReleases(spec.since, fork.branchedAfter) <= 0;
      expect({ key, accepted, registered: base.registered[key] !== null }).toEqual({
        key,
        accepted: base.registered[key] !== null,
        registered: base.registered[key] !== null,
      });
    }
  });

  test('a key newer than the fork set on a DSQL preset is refused, naming the code the fork carries', () => {
    const catalog = editedCatalog((c) => {
      const i = c.temporal.scenarios.findIndex((s: { name: string }) => s.name === 'temporal-150wps');
      c.temporal.scenarios[i] = structuredClone(c.temporal.scenarios[i]);
      c.temporal.scenarios[i].dynamicConfig = { ...c.temporal.scenarios[i].dynamicConfig, 'frontend.enableCancelWorkerPollsOnShutdown': true };
    });
    expect(() => resolveScenario({ scenario: 'temporal-150wps' }, catalog)).toThrow(
      /"frontend\.enableCancelWorkerPollsOnShutdown" is registered from Temporal 1\.31\.0, but this preset's store runs the DSQL fork iw\/temporal@e74d6b69 \(upstream main of 2026-01-26: past 1\.30\.0, before 1\.31\.0\), which would ignore it/,
    );
  });
});
