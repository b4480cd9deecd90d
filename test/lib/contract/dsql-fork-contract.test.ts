import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { TEMPORAL_ROLES, type TemporalScenario, resolveScenario } from '../../../config';
import { schemaCommand, serverEnvironment, startCommand, staticConfig } from '../../../lib/contract/temporal-config';
import { editedCatalog, logicalId, synthScenario } from '../../support/synth';

/*
 * The rendered stack held to what the DSQL fork's source expects (test/fixtures/dsql-fork,
 * recorded with file and line at the pinned commit). The fork cannot be built in CI; these
 * tests are how a mismatch, or a pin moved without re-reading the source, fails.
 */

const ROOT = join(__dirname, '../../..');
const contract = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/dsql-fork/contract.json'), 'utf8'));
const scenario = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
const e = scenario.environment;
const endpoints = { storeHost: 'abc.dsql.eu-west-1.on.aws', visibilityHost: 'vpc-x.eu-west-1.es.amazonaws.com', frontendAddress: 'frontend.temporal.internal:7233' };
const files = { staticConfig: staticConfig(e, 'dsql', endpoints, scenario.preset.pools.history), dynamicConfig: '' };
const pluginEnv = [...contract.plugin.regionEnv, contract.plugin.endpointEnv, ...contract.rateLimiter.local.env, ...contract.rateLimiter.distributed.env, ...contract.optionalPluginEnv];

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
});

test("the schema task's environment names only variables the tool reads", () => {
  const { json } = synthScenario({ scenario: 'temporal-150wps' });
  const task = Object.values(json.Resources as Record<string, any>).find((r) => r.Type === 'AWS::ECS::TaskDefinition' && String(r.Metadata?.['aws:cdk:path']).includes('/Schema/'));
  const names: string[] = task.Properties.ContainerDefinitions[0].Environment.map((v: any) => v.Name);
  const toolEnv = names.filter((n) => n.startsWith('SQL_') || n.includes('REGION') || n === 'CLUSTER_ENDPOINT');
  expect(toolEnv.sort()).toEqual(['AWS_REGION', 'CLUSTER_ENDPOINT', 'SQL_DATABASE', 'SQL_HOST', 'SQL_PORT', 'SQL_USER']);
  for (const n of toolEnv) expect(contract.schemaTool.env).toContain(n);
});

test('the start command uses the server CLI as the fork defines it', () => {
  const exec = startCommand().split('\n').find((l) => l.startsWith('exec '))!;
  const s = contract.server;
  expect(exec).toMatch(new RegExp(`^exec ${s.binary} ${s.globalFlags[0]} \\S+ ${s.globalFlags[1]} ${s.startCommand} ${s.serviceFlag} "\\$TEMPORAL_SERVICE"$`));
});

test('the datastore names the plugin and the user it connects as', () => {
  const sql = parse(files.staticConfig).persistence.datastores.dsql.sql;
  expect(sql.pluginName).toBe(contract.plugin.name);
  expect(sql.user).toBe(contract.plugin.user);
});

test.each(TEMPORAL_ROLES)('%s: every DSQL_* variable rendered is one the plugin reads, in the mode it reads it', (role) => {
  const rendered = serverEnvironment(e, role, files, { engine: 'dsql', rateLimiterTable: 'table', tokenEndpoint: endpoints.storeHost });
  const dsql = Object.keys(rendered).filter((k) => k.startsWith('DSQL_'));
  for (const k of dsql) expect(pluginEnv).toContain(k);
  expect(contract.plugin.regionEnv.some((k: string) => k in rendered)).toBe(true);
  // The host tokens are signed for, which the plugin reads before falling back to connectAddr's.
  expect(rendered[contract.plugin.endpointEnv]).toBe(endpoints.storeHost);
  // Distributed on: the local limiter's variables would never be read.
  expect(dsql.sort()).toEqual(['DSQL_DISTRIBUTED_RATE_LIMITER_ENABLED', 'DSQL_DISTRIBUTED_RATE_LIMITER_LIMIT', 'DSQL_DISTRIBUTED_RATE_LIMITER_TABLE']);
});

test('with the distributed limiter off, each task gets the local limiter its role is configured with, and nothing else', () => {
  const catalog = editedCatalog((c) => {
    c.temporal.environment.persistence.distributedRateLimiter.enabled = false;
    c.temporal.scenarios = c.temporal.scenarios.filter((s: any) => s.name === 'temporal-25wps');
  });
  const local = resolveScenario({ scenario: 'temporal-25wps' }, catalog) as TemporalScenario;
  for (const role of TEMPORAL_ROLES) {
    const limit = local.environment.persistence.connectionRateLimits[role];
    const dsql = Object.entries(serverEnvironment(local.environment, role, files, { engine: 'dsql', rateLimiterTable: 'table', tokenEndpoint: endpoints.storeHost })).filter(([k]) => k.startsWith('DSQL_'));
    expect(Object.fromEntries(dsql)).toEqual({ DSQL_CONNECTION_RATE_LIMIT: String(limit.perSecond), DSQL_CONNECTION_BURST_LIMIT: String(limit.burst) });
    for (const [k] of dsql) expect(contract.rateLimiter.local.env).toContain(k);
  }
});

test("IAM: the server task role may connect as admin, the action the plugin's tokens need, and no other DSQL action", () => {
  const { json } = synthScenario({ scenario: 'temporal-150wps' });
  const dsqlActions = Object.values(json.Resources as Record<string, any>)
    .filter((r) => r.Type === 'AWS::IAM::Policy')
    .flatMap((p) => p.Properties.PolicyDocument.Statement.flatMap((s: any) => [s.Action].flat()))
    .filter((a: string) => a.startsWith('dsql:'));
  expect(dsqlActions).toEqual([contract.plugin.iamAction]);
});

test("the limiter table and its grant match the plugin's UpdateItem", () => {
  const { json } = synthScenario({ scenario: 'temporal-150wps' });
  const table = json.Resources[logicalId(json, 'AWS::DynamoDB::Table', 'RateLimiter/Table/Resource')].Properties;
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
