import { execFile, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { durationSeconds } from '../config/fields';
import { TEMPORAL_ROLES, type TemporalEnvironment, type TemporalRole, type TemporalScenario, resolveScenario } from '../config';
import {
  PASSWORD_VARIABLE,
  POSTGRES_PLUGIN,
  type StoreWiring,
  TASK_IP_PLACEHOLDER,
  dynamicConfig,
  schemaCommand,
  schemaEnvironment,
  serverEnvironment,
  startCommand,
  staticConfig,
} from '../lib/temporal/contract/temporal-config';
import { temporalServiceName } from '../lib/temporal/contract/temporal-names';
import { freePort, listening } from './ports';
import { ServiceName } from './service-name';
import { stopProcess, waitFor } from './processes';
import type { Postgres } from './postgres';
import { type Binaries, binaries } from './binaries';
import { type PostureProcess, runInPosture, spawnInPosture, taskPosture } from './task-posture';

/*
 * A four-process Temporal cluster on this machine, started the way ECS starts it: each role
 * runs the task definition's own command (startCommand) with the environment the stack
 * renders (serverEnvironment: the static and dynamic config as rendered), in a private /tmp
 * as a container has, and learns its address from a local stand-in of the ECS task metadata
 * endpoint. Every task has an address of its own (127.0.0.10 up: a replacement task is a new
 * address, as on awsvpc), and clients reach the frontends through a stand-in of the Cloud Map
 * name (a TCP forwarder on the rendered frontend port). What cannot run here is swapped by
 * localStaticConfig() and nothing else.
 */

const run = promisify(execFile);

/**
 * The environment as a task of `release` renders it: an upgrade's older release logs in the
 * way that release can (auroraServerLogin).
 */
function atRelease(e: TemporalEnvironment, release: string): TemporalEnvironment {
  return release === e.servers.upstream.release ? e : { ...e, servers: { ...e.servers, upstream: { ...e.servers.upstream, release } } };
}

/**
 * What RDS does for a user granted rds_iam, done here: a token the servers' passwordCommand
 * prints is accepted as that user's password, and a new token makes the old one useless for
 * new connections (a token's expiry), while open connections stay. The stand-in command
 * records each call's arguments in the task's /tmp and prints the current token.
 */
interface LocalIamAuth {
  /** The stand-in for docker/temporal-aurora's signer, and the folder it is in (read-only in the task). */
  readonly command: string;
  readonly dir: string;
  /** Accepts the current token for `user` (once its login exists: the schema task makes it). */
  admit(user: string): Promise<void>;
  /** A new token for every admitted user; the old one no longer logs in. */
  rotate(): Promise<void>;
  /** The token that logs in now. */
  current(): string;
  /** Each call a task's server made, as the arguments it passed. */
  calls(task: RoleProcess): string[];
}

const TOKEN_CALLS = 'rds-iam-token.calls';

function localIamAuth(pg: Postgres, parent: string): LocalIamAuth {
  const dir = join(parent, 'iam');
  mkdirSync(dir);
  const [command, tokenFile] = [join(dir, 'rds-iam-token'), join(dir, 'token')];
  writeFileSync(command, `#!/bin/sh\nprintf '%s\\n' "$*" >> /tmp/${TOKEN_CALLS}\nexec cat ${tokenFile}\n`, { mode: 0o755 });
  const admitted = new Set<string>();
  let n = 0;
  const token = () => `local-iam-token-${++n}-${process.pid}`;
  let current = token();
  writeFileSync(tokenFile, `${current}\n`);
  const accept = (user: string) => pg.psql(`ALTER ROLE "${user}" PASSWORD '${current}'`);
  return {
    command,
    dir,
    admit: async (user) => {
      if (admitted.has(user)) return;
      await accept(user);
      admitted.add(user);
    },
    rotate: async () => {
      current = token();
      for (const user of admitted) await accept(user);
      writeFileSync(tokenFile, `${current}\n`);
    },
    current: () => current,
    calls: (task) => {
      const file = join(task.tmp, TOKEN_CALLS);
      return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
    },
  };
}

/** The local stand-ins for the stores that only exist on AWS. */
interface LocalStores {
  readonly postgres: Postgres;
  /** Persistence database (replaces Aurora DSQL). */
  readonly database: string;
  /** SQL visibility database (replaces OpenSearch). */
  readonly visibilityDatabase: string;
  /** The rendered 4,096 shards, scaled down for one machine. */
  readonly numHistoryShards: number;
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
function localStaticConfig(rendered: string, s: LocalStores, metricsPort: number, tokenCommand: string): string {
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

/**
 * The ECS task metadata endpoint (v4) as the agent serves it to a task: `/task` describes
 * the task and its awsvpc interface. Every role's address is 127.0.0.1 here. The body keeps
 * the shape and the indentation of the example in the ECS documentation, so the start
 * command's parsing is held to the pretty-printed form as well as the compact one.
 */
function taskMetadata(taskId: string, ip: string): string {
  const body = {
    Cluster: 'temporal-dsql',
    TaskARN: `arn:aws:ecs:eu-west-1:111122223333:task/temporal-dsql/${taskId}`,
    Family: temporalServiceName(taskId.split('-')[0] as TemporalRole),
    Revision: '1',
    DesiredStatus: 'RUNNING',
    KnownStatus: 'RUNNING',
    Containers: [
      {
        Name: 'temporal',
        Image: 'temporal-dsql:1.30.0-dsql-e74d6b69',
        Networks: [{ NetworkMode: 'awsvpc', IPv4Addresses: [ip], AttachmentIndex: 0, IPv4SubnetCIDRBlock: `${ip}/32`, PrivateDNSName: 'localhost' }],
      },
    ],
    LaunchType: 'EC2',
  };
  return JSON.stringify(body, null, 4);
}

/** The metadata endpoint, per task: `/v4/<task id>/task` answers with that task's address. */
async function serveMetadata(addresses: ReadonlyMap<string, string>): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const m = /^\/v4\/([a-z0-9-]+)\/task$/.exec(req.url ?? '');
    const ip = m ? addresses.get(m[1]) : undefined;
    res.writeHead(ip ? 200 : 404, { 'content-type': 'application/json' });
    res.end(ip ? taskMetadata(m![1], ip) : '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}/v4` };
}

/** One ECS task of a role: its own address, /tmp, log and metrics port. */
export interface RoleProcess {
  readonly id: string;
  readonly role: TemporalRole;
  /** The upstream release whose server this task runs (its task definition's image). */
  readonly release: string;
  readonly ip: string;
  /** The program under its task's posture (harness/task-posture.ts). */
  readonly process: PostureProcess;
  readonly log: string;
  readonly tmp: string;
  readonly metricsPort: number;
  /** When the process exited, with its code or signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/** How a task stopped the way ECS stops one (StopTask, or a deploy replacing it). */
export interface TaskStop {
  /** From SIGTERM to the process's exit (ms). */
  readonly drainMs: number;
  /** It outlived stopTimeout and was killed. */
  readonly killed: boolean;
  readonly code: number | null;
  /** The signal reached temporal-server itself (the start command execs it, as it must). */
  readonly serverGotSignal: boolean;
}

export interface LocalCluster {
  readonly scenario: TemporalScenario;
  /** The frontends' service name (the Cloud Map stand-in): what clients dial. */
  readonly frontendAddress: string;
  /** The first task of each role, in start order. */
  readonly roles: readonly RoleProcess[];
  readonly stores: LocalStores;
  readonly dir: string;
  /** The stand-in for RDS's IAM authentication (servers whose release signs tokens). */
  readonly iam: LocalIamAuth;
  /** The tasks running now, of one role or all. */
  tasks(role?: TemporalRole): RoleProcess[];
  /** Starts one more task of a role from the same rendered command; resolves once its health check passes. */
  startTask(role: TemporalRole, metricsPort?: number): Promise<RoleProcess>;
  /** A new task definition revision with another image: tasks started from now on run this release's server. */
  setImage(b: Binaries): void;
  /**
   * Stops a task as ECS does: out of the service's DNS name first (a frontend), SIGTERM to the
   * container's process, SIGKILL once stopTimeoutMs has passed.
   */
  stopTask(task: RoleProcess, stopTimeoutMs: number): Promise<TaskStop>;
  /** SIGKILL, unannounced (an instance lost, the OOM killer); its DNS record goes as ECS notices. */
  killTask(task: RoleProcess): Promise<void>;
  /** The last lines of a role's output (its first task's). */
  tail(role: TemporalRole, lines?: number): string;
  /** Roles with a live membership record, by Temporal's ServiceType number. */
  members(): Promise<TemporalRole[]>;
  /** Each role's addresses that heartbeat within the last `withinSeconds` (membership rows). */
  memberAddresses(withinSeconds: number): Promise<Partial<Record<TemporalRole, string[]>>>;
  /** Keeps `dir` (the role logs) when the cluster stops, as KEEP_TEMPORAL_LOGS does for every cluster: a failed verdict's evidence. */
  keepLogs(): void;
  stop(): Promise<void>;
}

/** Temporal's persistence.ServiceType numbers (common/persistence/data_interfaces.go). */
const SERVICE_TYPE: Record<number, TemporalRole> = { 1: 'frontend', 2: 'history', 3: 'matching', 4: 'worker' };

export interface ClusterOptions {
  readonly postgres: Postgres;
  readonly scenario?: string;
  readonly numHistoryShards?: number;
  /** Database name prefix; each cluster gets its own databases (the shard count is per database). */
  readonly databasePrefix?: string;
  readonly startTimeoutMs?: number;
  /** Dynamic-config keys set over the rendering (a measurement of what a setting buys). */
  readonly dynamicConfigOverrides?: Readonly<Record<string, string | number | boolean>>;
  /** The release to start on (its tools set up the schemas): config's, unless an upgrade starts from an older one. */
  readonly binaries?: Binaries;
  /** The stores exist from an earlier cluster under the same prefix (a deploy keeps them): nothing is created. */
  readonly existingStores?: boolean;
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
async function setUpDatabases(b: Binaries, pg: Postgres, database: string, visibilityDatabase: string): Promise<void> {
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

function tailOf(file: string, lines = 30): string {
  return existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') : '(no output)';
}

/** The rendered dynamic config with some keys set over it (a measurement of what a setting buys). */
function withOverrides(rendered: string, overrides: ClusterOptions['dynamicConfigOverrides']): string {
  if (!overrides) return rendered;
  const c = parse(rendered);
  for (const [key, value] of Object.entries(overrides)) c[key] = [{ value, constraints: {} }];
  return stringify(c, { lineWidth: 0 });
}

/** Every task's address: 127.0.0.10, .11, ... (127.0.0.1 is the frontends' service name). */
const taskAddress = (n: number) => `127.0.0.${10 + n}`;

/**
 * Starts history, matching, frontend and worker in that order, each once the one before
 * it answers on its health-check port (the stack's start order and health checks).
 */
export async function startCluster(o: ClusterOptions): Promise<LocalCluster> {
  const b = o.binaries ?? binaries();
  let image = b;
  const scenario = resolveScenario({ scenario: o.scenario ?? 'temporal-150wps' }) as TemporalScenario;
  const e = scenario.environment;
  const prefix = o.databasePrefix ?? 'temporal';
  const stores: LocalStores = {
    postgres: o.postgres,
    database: prefix,
    visibilityDatabase: `${prefix}_visibility`,
    numHistoryShards: o.numHistoryShards ?? 16,
  };
  const dir = mkdtempSync(join(tmpdir(), 'temporal-local-'));
  const iam = localIamAuth(o.postgres, dir);
  const frontendAddress = `127.0.0.1:${e.ports.frontend.grpc}`;
  if (await listening(e.ports.frontend.grpc)) throw new Error(`port ${e.ports.frontend.grpc} is in use: another Temporal server is running on this machine`);

  const engine = scenario.preset.store.engine;
  // A later deploy (existingStores) changes services, pools and dynamic config; the stores stay.
  if (!o.existingStores && engine === 'dsql') await setUpDatabases(b, o.postgres, stores.database, stores.visibilityDatabase);
  else if (!o.existingStores) {
    // What Aurora creates with the cluster: its master user (as rendered) owning the default database.
    const user = e.auroraPostgresql.user;
    // Aurora's master user may create roles and databases; rds_iam is Aurora's, and the master may grant it.
    await o.postgres.psql(`CREATE ROLE "${user}" LOGIN CREATEROLE CREATEDB PASSWORD '${o.postgres.password}'`);
    await o.postgres.psql(`SET ROLE "${user}"; CREATE ROLE rds_iam NOLOGIN`);
    await o.postgres.psql(`CREATE DATABASE "${stores.database}" OWNER "${user}"`);
    await runSchemaTask(b, scenario, o.postgres, stores.database, 'create');
    await setUpDatabase(b, o.postgres, stores.visibilityDatabase, 'postgresql/v12/visibility');
  }
  const addresses = new Map<string, string>();
  const metadata = await serveMetadata(addresses);
  const frontends = new ServiceName(durationSeconds(e.deployment.dnsTtl) * 1000);
  await frontends.listen(frontendAddress);
  const endpoints = { storeHost: 'store.invalid', visibilityHost: 'opensearch.invalid', frontendAddress };
  // What the stack gives each store: the DSQL plugin's settings, or nothing (the Aurora login is in the config, or its password an ECS secret).
  const wiring: StoreWiring =
    scenario.preset.store.engine === 'dsql'
      ? {
          engine: 'dsql',
          rateLimiterTable: 'local-no-limiter',
          connectionLeaseTable: 'local-no-lease',
          tokenEndpoint: '127.0.0.1',
          connections: scenario.preset.store.connections,
        }
      : { engine: 'aurora-postgresql' };
  const all: RoleProcess[] = [];
  const first: RoleProcess[] = [];
  const running = (t: RoleProcess) => t.process.running();
  const healthPort = (role: TemporalRole) => (role === 'worker' ? e.ports.worker.membership : e.ports[role].grpc);

  const startTask = async (role: TemporalRole, metricsPort?: number): Promise<RoleProcess> => {
    const n = all.length;
    const id = `${role}-${all.filter((t) => t.role === role).length + 1}`;
    const ip = taskAddress(n);
    addresses.set(id, ip);
    const tmp = join(dir, id);
    mkdirSync(tmp);
    const port = metricsPort ?? (await freePort());
    // Each role's own rendering (its pool size is its own), as its release renders it.
    const rendered = staticConfig(atRelease(e, image.release), engine, endpoints, scenario.preset.pools[role]);
    const login = parse(rendered).persistence.datastores[engine].sql;
    if (login.passwordCommand) await iam.admit(login.user);
    const files = {
      staticConfig: localStaticConfig(rendered, stores, port, iam.command),
      dynamicConfig: withOverrides(dynamicConfig(e, scenario.preset), o.dynamicConfigOverrides),
    };
    const env = {
      PATH: `${image.serverDir}:/usr/local/bin:/usr/bin:/bin`,
      ...serverEnvironment(e, role, files, wiring, scenario.preset.pools[role]),
      // The password where the stack gives one: an Aurora store's server that signs no tokens.
      ...(login.password ? { [PASSWORD_VARIABLE]: o.postgres.password } : {}),
      ECS_CONTAINER_METADATA_URI_V4: `${metadata.url}/${id}`,
    };
    const log = join(dir, `${id}.log`);
    const fd = openSync(log, 'a');
    // Each container has its own /tmp: every role writes its config to the same rendered path (/tmp/temporal).
    const child = await spawnInPosture(taskPosture(`temporal-${role}`), { writable: { '/tmp': tmp }, inputs: [iam.dir] }, '/bin/sh', ['-c', startCommand()], {
      env,
      stdio: ['ignore', fd, fd],
    }).finally(() => closeSync(fd));
    const task: RoleProcess = { id, role, release: image.release, ip, process: child, log, tmp, metricsPort: port, exited: child.exited };
    all.push(task);
    let exit: string | undefined;
    void child.exited.then((x) => (exit = `exited (${x.code ?? x.signal})`));
    const why = () => (exit ? `${exit}:\n${tailOf(log)}` : undefined);
    await waitFor(`${id} listening on ${ip}:${healthPort(role)}`, o.startTimeoutMs ?? 90_000, () => listening(healthPort(role), ip), why);
    // ECS registers a task under the service's name once it is healthy.
    if (role === 'frontend') frontends.register(`${ip}:${e.ports.frontend.grpc}`);
    return task;
  };

  const stopTask = async (task: RoleProcess, stopTimeoutMs: number): Promise<TaskStop> => {
    if (task.role === 'frontend') frontends.deregister(`${task.ip}:${e.ports.frontend.grpc}`);
    const comm = (() => {
      try {
        return readFileSync(`/proc/${task.process.pid}/comm`, 'utf8').trim();
      } catch {
        return '';
      }
    })();
    const sent = Date.now();
    task.process.kill('SIGTERM');
    const timer = setTimeout(() => task.process.kill('SIGKILL'), stopTimeoutMs);
    const end = await task.exited;
    clearTimeout(timer);
    return { drainMs: end.at - sent, killed: end.signal === 'SIGKILL', code: end.code, serverGotSignal: comm === 'temporal-server' };
  };

  const killTask = async (task: RoleProcess) => {
    if (task.role === 'frontend') frontends.deregister(`${task.ip}:${e.ports.frontend.grpc}`);
    task.process.kill('SIGKILL');
    await task.exited;
  };

  let keep = false;
  const stop = async () => {
    for (const t of [...all].reverse()) await stopProcess(t.process);
    frontends.close();
    metadata.server.close();
    if (keep || process.env.KEEP_TEMPORAL_LOGS) console.warn(`the cluster's role logs are kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  };

  try {
    for (const [i, role] of TEMPORAL_ROLES.entries()) first.push(await startTask(role, e.ports.metrics + i));
  } catch (err) {
    await stop();
    throw err;
  }

  return {
    scenario,
    frontendAddress,
    roles: first,
    stores,
    dir,
    iam,
    tasks: (role) => all.filter((t) => running(t) && (role === undefined || t.role === role)),
    startTask,
    setImage: (next) => {
      image = next;
    },
    stopTask,
    killTask,
    tail: (role, lines) => tailOf(first.find((t) => t.role === role)!.log, lines),
    members: async () => {
      const out = await o.postgres.psql(
        "SELECT DISTINCT role FROM cluster_membership WHERE record_expiry > (now() AT TIME ZONE 'UTC') ORDER BY role",
        stores.database,
      );
      return out
        .split('\n')
        .filter(Boolean)
        .map((r) => SERVICE_TYPE[Number(r)])
        .filter(Boolean);
    },
    memberAddresses: async (withinSeconds) => {
      const out = await o.postgres.psql(
        `SELECT role, rpc_address FROM cluster_membership WHERE last_heartbeat > (now() AT TIME ZONE 'UTC') - interval '${withinSeconds} seconds' ORDER BY role, rpc_address`,
        stores.database,
      );
      const members: Partial<Record<TemporalRole, string[]>> = {};
      for (const [role, address] of out
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('|')))
        (members[SERVICE_TYPE[Number(role)]] ??= []).push(address);
      return members;
    },
    keepLogs: () => {
      keep = true;
    },
    stop,
  };
}

/** The roles with a live membership record, once all four have one (or what there is after a minute). */
export async function membersOnceFormed(cluster: LocalCluster): Promise<TemporalRole[]> {
  let members: TemporalRole[] = [];
  for (let i = 0; i < 120 && members.length < TEMPORAL_ROLES.length; i++) {
    members = await cluster.members();
    if (members.length < TEMPORAL_ROLES.length) await new Promise((r) => setTimeout(r, 500));
  }
  return members;
}

/** A file the role wrote into its private /tmp (the container's /tmp/<name>). */
export function roleFile(r: RoleProcess, name: string): string {
  return readFileSync(join(r.tmp, name), 'utf8');
}

/**
 * Temporal's stock development setup for comparison: the server module's own
 * config/development-postgres12.yaml and its dynamic config, one process running every role,
 * pointed at the same PostgreSQL (only the connection settings and the shard count changed).
 */
export async function startStockServer(o: ClusterOptions): Promise<{ frontendAddress: string; stop(): Promise<void>; tail(lines?: number): string }> {
  const b = binaries();
  const prefix = o.databasePrefix ?? 'stock';
  const stores: LocalStores = {
    postgres: o.postgres,
    database: prefix,
    visibilityDatabase: `${prefix}_visibility`,
    numHistoryShards: o.numHistoryShards ?? 16,
  };
  await setUpDatabases(b, o.postgres, stores.database, stores.visibilityDatabase);
  const c = parse(readFileSync(join(b.serverSource, 'config/development-postgres12.yaml'), 'utf8'));
  c.persistence.numHistoryShards = stores.numHistoryShards;
  for (const [name, db] of [
    [c.persistence.defaultStore, stores.database],
    [c.persistence.visibilityStore, stores.visibilityDatabase],
  ])
    Object.assign(c.persistence.datastores[name].sql, {
      databaseName: db,
      connectAddr: `${o.postgres.host}:${o.postgres.port}`,
      user: o.postgres.user,
      password: o.postgres.password,
    });
  const dir = mkdtempSync(join(tmpdir(), 'temporal-stock-'));
  const file = join(dir, 'config.yaml');
  writeFileSync(file, stringify(c, { lineWidth: 0 }));
  const log = join(dir, 'server.log');
  const fd = openSync(log, 'a');
  // Its dynamic-config path is relative to the module's root.
  const child = spawn(join(b.serverDir, 'temporal-server'), ['--config-file', file, '--allow-no-auth', 'start'], {
    cwd: b.serverSource,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const stop = async () => {
    await stopProcess(child);
    rmSync(dir, { recursive: true, force: true });
  };
  const port = c.services.frontend.rpc.grpcPort as number;
  try {
    await waitFor(
      `stock server listening on ${port}`,
      o.startTimeoutMs ?? 90_000,
      () => listening(port),
      () => (child.exitCode !== null ? `exited (${child.exitCode}):\n${tailOf(log)}` : undefined),
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { frontendAddress: `127.0.0.1:${port}`, stop, tail: (lines) => tailOf(log, lines) };
}
