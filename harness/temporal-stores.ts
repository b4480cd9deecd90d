import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import type { TemporalEnvironment, TemporalScenario } from '../config';
import { PASSWORD_VARIABLE, POSTGRES_PLUGIN, TASK_IP_PLACEHOLDER } from '../lib/temporal/contract/temporal-config';
import { schemaCommand, schemaEnvironment } from '../lib/temporal/contract/temporal-schema-task';
import type { Binaries } from './binaries';
import type { Postgres } from './postgres';
import { runInPosture, taskPosture } from './task-posture';

/*
 * The local cluster's stores: PostgreSQL databases set up with the server's own SQL tool (or
 * the aurora-postgresql store's schema task, run as ECS runs it), and the one swap of the
 * rendered static config that points the servers at them.
 */

const run = promisify(execFile);

/**
 * The environment as a task of `release` renders it: an upgrade's older release logs in the
 * way that release can (auroraServerLogin).
 */
export function atRelease(e: TemporalEnvironment, release: string): TemporalEnvironment {
  return release === e.servers.upstream.release ? e : { ...e, servers: { ...e.servers, upstream: { ...e.servers.upstream, release } } };
}

/** The local stand-ins for the stores that only exist on AWS. */
export interface LocalStores {
  readonly postgres: Postgres;
  /** Persistence database (replaces Aurora DSQL). */
  readonly database: string;
  /** SQL visibility database (replaces OpenSearch). */
  readonly visibilityDatabase: string;
  /** The rendered 4,096 shards, scaled down for one machine. */
  readonly numHistoryShards: number;
}

/** The stores under a database prefix: its databases (the shard count is per database), 16 shards unless told. */
export function localStores(postgres: Postgres, prefix: string, numHistoryShards = 16): LocalStores {
  return { postgres, database: prefix, visibilityDatabase: `${prefix}_visibility`, numHistoryShards };
}

/**
 * The one swap between the config ECS runs and what runs here. It replaces exactly:
 * - the persistence datastore's server: for the dsql store, the DSQL plugin becomes upstream's
 *   PostgreSQL plugin (`postgres12_pgx`) on the local server, keeping the rendered pool
 *   settings; for the aurora-postgresql store, where it connects (address and database)
 *   changes, and a passwordCommand runs the local IAM stand-in with the rendered arguments:
 *   plugin, user, password template, pool and TLS are used as rendered;
 * - the visibility store: OpenSearch becomes SQL visibility on the same server;
 * - `persistence.numHistoryShards`, scaled down;
 * - the metrics port, one per task, since all tasks share this host's network
 *   (on ECS each task has its own address and they all use the rendered port);
 * - where each service binds: the task's own address (filled in by the start command, as the
 *   broadcast address is) rather than 0.0.0.0, which on one host only one task could bind.
 * Every other key (ports, membership, broadcast address, dynamic config, clients) is used as
 * rendered, and so is the template header that makes the server read the password.
 */
export function localStaticConfig(rendered: string, s: LocalStores, metricsPort: number, tokenCommand: string): string {
  const header = rendered.split('\n').filter((l) => l.startsWith('#'));
  const c = parse(rendered);
  const p = c.persistence;
  const history = p.datastores[p.defaultStore].sql;
  const connectAddr = `${s.postgres.host}:${s.postgres.port}`;
  const sql = (databaseName: string) => ({
    pluginName: POSTGRES_PLUGIN,
    databaseName,
    connectAddr,
    connectProtocol: 'tcp',
    user: s.postgres.user,
    password: s.postgres.password,
    maxConns: history.maxConns,
    maxIdleConns: history.maxIdleConns,
    maxConnLifetime: history.maxConnLifetime,
    ...(s.postgres.tls ? { tls: { enabled: true, enableHostVerification: false } } : {}),
  });
  p.numHistoryShards = s.numHistoryShards;
  const store = history.pluginName === POSTGRES_PLUGIN ? { ...history, connectAddr, databaseName: s.database } : sql(s.database);
  if (store.passwordCommand) store.passwordCommand = { ...store.passwordCommand, command: tokenCommand };
  p.datastores = { [p.defaultStore]: { sql: store }, [p.visibilityStore]: { sql: sql(s.visibilityDatabase) } };
  for (const service of Object.values<any>(c.services)) service.rpc.bindOnIP = TASK_IP_PLACEHOLDER;
  const prometheus = c.global.metrics.prometheus;
  prometheus.listenAddress = `${String(prometheus.listenAddress).split(':')[0]}:${metricsPort}`;
  return [...header, stringify(c, { lineWidth: 0 })].join('\n');
}

const sqlToolBase = (pg: Postgres) => [
  '--plugin',
  POSTGRES_PLUGIN,
  '--ep',
  pg.host,
  '-p',
  String(pg.port),
  '-u',
  pg.user,
  '--pw',
  pg.password,
  ...(pg.tls ? ['--tls', '--tls-disable-host-verification'] : []),
];

/**
 * Creates a database with the server's own SQL tool and sets up a schema: the version table
 * at 0.0, then every versioned update of the schema named (embedded in the tool).
 */
async function setUpDatabase(b: Binaries, pg: Postgres, db: string, schema: string): Promise<void> {
  await run(b.sqlTool, [...sqlToolBase(pg), '--db', db, 'create-database']);
  await run(b.sqlTool, [...sqlToolBase(pg), '--db', db, 'setup-schema', '-v', '0.0']);
  await run(b.sqlTool, [...sqlToolBase(pg), '--db', db, 'update-schema', '--schema-name', schema]);
}

/**
 * The local visibility database brought to a release's schema, as the schema task brings the
 * OpenSearch index's template and mappings there on AWS (its tool is a stand-in here).
 */
export async function updateLocalVisibility(b: Binaries, pg: Postgres, db: string): Promise<string> {
  const { stdout, stderr } = await run(b.sqlTool, [...sqlToolBase(pg), '--db', db, 'update-schema', '--schema-name', 'postgresql/v12/visibility']);
  return stdout + stderr;
}

/** Creates both databases with the server's own SQL tool, as the stock setup does. */
export async function setUpDatabases(b: Binaries, pg: Postgres, database: string, visibilityDatabase: string): Promise<void> {
  await setUpDatabase(b, pg, database, 'postgresql/v12/temporal');
  await setUpDatabase(b, pg, visibilityDatabase, 'postgresql/v12/visibility');
}

/**
 * The aurora-postgresql store's schema task, run here as ECS runs it: the rendered command
 * under /bin/sh with the rendered environment, the password where ECS puts the secret, and
 * upstream's temporal-sql-tool on the PATH. Swapped: where it connects (address, database),
 * and temporal-elasticsearch-tool, a stand-in that records its arguments (no OpenSearch here).
 * The database and its owner exist beforehand, as Aurora creates its default database and master
 * user, and so does Aurora's rds_iam role (a stand-in here), which the servers' login is granted.
 */
export async function runSchemaTask(
  b: Binaries,
  scenario: TemporalScenario,
  pg: Postgres,
  database: string,
  action: 'create' | 'update',
): Promise<{ output: string; elasticsearchCalls: string[] }> {
  const e = atRelease(scenario.environment, b.release);
  const dir = mkdtempSync(join(tmpdir(), 'schema-task-'));
  try {
    // The task's /tmp, and the stand-in tool (read-only) that records its calls there.
    const [scratch, tools] = [join(dir, 'tmp'), join(dir, 'bin')];
    mkdirSync(scratch);
    mkdirSync(tools);
    const calls = join(scratch, 'elasticsearch-calls');
    writeFileSync(join(tools, 'temporal-elasticsearch-tool'), `#!/bin/sh\necho "$*" >> /tmp/elasticsearch-calls\n`, { mode: 0o755 });
    const rendered = schemaEnvironment(e, scenario.preset.store.engine, { storeHost: pg.host, visibilityHost: 'opensearch.invalid' });
    const env = {
      ...rendered,
      SQL_PORT: String(pg.port),
      SQL_DATABASE: database,
      [PASSWORD_VARIABLE]: pg.password,
      SCHEMA_ACTION: action,
      PATH: `${tools}:${b.serverDir}:/usr/bin:/bin`,
    };
    const { stdout, stderr } = await runInPosture(
      taskPosture('temporal-schema'),
      { writable: { '/tmp': scratch }, inputs: [tools] },
      '/bin/sh',
      ['-c', schemaCommand(e, scenario.preset.store.engine)],
      env,
    );
    return { output: stdout + stderr, elasticsearchCalls: existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n') : [] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What the cluster's first start makes (a later deploy changes services, pools and dynamic
 * config; the stores stay): the stock databases for the dsql store, or for aurora-postgresql
 * what Aurora creates with the cluster (its master user, as rendered, owning the default
 * database; Aurora's rds_iam role, which the master may grant) and then the schema task.
 */
export async function createStores(b: Binaries, scenario: TemporalScenario, stores: LocalStores): Promise<void> {
  const pg = stores.postgres;
  if (scenario.preset.store.engine === 'dsql') return setUpDatabases(b, pg, stores.database, stores.visibilityDatabase);
  const user = scenario.environment.auroraPostgresql.user;
  await pg.psql(`CREATE ROLE "${user}" LOGIN CREATEROLE CREATEDB PASSWORD '${pg.password}'`);
  await pg.psql(`SET ROLE "${user}"; CREATE ROLE rds_iam NOLOGIN`);
  await pg.psql(`CREATE DATABASE "${stores.database}" OWNER "${user}"`);
  await runSchemaTask(b, scenario, pg, stores.database, 'create');
  await setUpDatabase(b, pg, stores.visibilityDatabase, 'postgresql/v12/visibility');
}
