import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { durationSeconds } from '../config/fields';
import { TEMPORAL_ROLES, type TemporalRole, type TemporalScenario, resolveScenario } from '../config';
import { PASSWORD_VARIABLE, type StoreWiring, dynamicConfig, serverEnvironment, startCommand, staticConfig } from '../lib/temporal/contract/temporal-config';
import { freePort, listening } from './ports';
import { ServiceName } from './service-name';
import { stopProcess, tailOf, waitFor } from './processes';
import type { Postgres } from './postgres';
import { type Binaries, binaries } from './binaries';
import { type LocalIamAuth, localIamAuth } from './local-iam';
import { serveMetadata } from './task-metadata';
import { type LocalStores, atRelease, createStores, localStaticConfig, localStores } from './temporal-stores';
import { type PostureProcess, spawnInPosture, taskPosture } from './task-posture';

/*
 * A four-process Temporal cluster on this machine, started the way ECS starts it: each role
 * runs the task definition's own command (startCommand) with the environment the stack
 * renders (serverEnvironment: the static and dynamic config as rendered), in a private /tmp
 * as a container has, and learns its address from a local stand-in of the ECS task metadata
 * endpoint. Every task has an address of its own (127.0.0.10 up: a replacement task is a new
 * address, as on awsvpc), and clients reach the frontends through a stand-in of the Cloud Map
 * name (a TCP forwarder on the rendered frontend port). What cannot run here is swapped by
 * localStaticConfig() (temporal-stores.ts) and nothing else.
 */

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

/** The rendered dynamic config with some keys set over it (a measurement of what a setting buys). */
function withOverrides(rendered: string, overrides: ClusterOptions['dynamicConfigOverrides']): string {
  if (!overrides) return rendered;
  const c = parse(rendered);
  for (const [key, value] of Object.entries(overrides)) c[key] = [{ value, constraints: {} }];
  return stringify(c, { lineWidth: 0 });
}

/** Every task's address: 127.0.0.10, .11, ... (127.0.0.1 is the frontends' service name). */
const taskAddress = (n: number) => `127.0.0.${10 + n}`;

/** What the stack gives each store: the DSQL plugin's settings, or nothing (the Aurora login is in the config, or its password an ECS secret). */
function localWiring(scenario: TemporalScenario): StoreWiring {
  const store = scenario.preset.store;
  if (store.engine !== 'dsql') return { engine: 'aurora-postgresql' };
  return {
    engine: 'dsql',
    rateLimiterTable: 'local-no-limiter',
    connectionLeaseTable: 'local-no-lease',
    tokenEndpoint: '127.0.0.1',
    connections: store.connections,
  };
}

/** What every task of one cluster shares: where it runs, what it renders, whom it registers with. */
interface TaskContext {
  readonly o: ClusterOptions;
  readonly scenario: TemporalScenario;
  readonly stores: LocalStores;
  readonly dir: string;
  readonly iam: LocalIamAuth;
  /** Each task's address by id, as the metadata stand-in answers. */
  readonly addresses: Map<string, string>;
  readonly metadataUrl: string;
  readonly frontends: ServiceName;
  readonly frontendAddress: string;
  /** Every task started, running or not, in start order. */
  readonly all: RoleProcess[];
  /** The task definition's image: what a task started now runs. */
  image(): Binaries;
}

const healthPort = (e: TemporalScenario['environment'], role: TemporalRole) => (role === 'worker' ? e.ports.worker.membership : e.ports[role].grpc);

/** One task of a role, started as ECS starts it; resolves once its health check passes. */
async function startTask(c: TaskContext, role: TemporalRole, metricsPort?: number): Promise<RoleProcess> {
  const { scenario, dir } = c;
  const e = scenario.environment;
  const engine = scenario.preset.store.engine;
  const image = c.image();
  const id = `${role}-${c.all.filter((t) => t.role === role).length + 1}`;
  const ip = taskAddress(c.all.length);
  c.addresses.set(id, ip);
  const tmp = join(dir, id);
  mkdirSync(tmp);
  const port = metricsPort ?? (await freePort());
  // Each role's own rendering (its pool size is its own), as its release renders it.
  const endpoints = { storeHost: 'store.invalid', visibilityHost: 'opensearch.invalid', frontendAddress: c.frontendAddress };
  const rendered = staticConfig(atRelease(e, image.release), engine, endpoints, scenario.preset.pools[role]);
  const login = parse(rendered).persistence.datastores[engine].sql;
  if (login.passwordCommand) await c.iam.admit(login.user);
  const files = {
    staticConfig: localStaticConfig(rendered, c.stores, port, c.iam.command),
    dynamicConfig: withOverrides(dynamicConfig(e, scenario.preset), c.o.dynamicConfigOverrides),
  };
  const env = {
    PATH: `${image.serverDir}:/usr/local/bin:/usr/bin:/bin`,
    ...serverEnvironment(e, role, files, localWiring(scenario), scenario.preset.pools[role]),
    // The password where the stack gives one: an Aurora store's server that signs no tokens.
    ...(login.password ? { [PASSWORD_VARIABLE]: c.o.postgres.password } : {}),
    ECS_CONTAINER_METADATA_URI_V4: `${c.metadataUrl}/${id}`,
  };
  const log = join(dir, `${id}.log`);
  const fd = openSync(log, 'a');
  // Each container has its own /tmp: every role writes its config to the same rendered path (/tmp/temporal).
  const child = await spawnInPosture(taskPosture(`temporal-${role}`), { writable: { '/tmp': tmp }, inputs: [c.iam.dir] }, '/bin/sh', ['-c', startCommand()], {
    env,
    stdio: ['ignore', fd, fd],
  }).finally(() => closeSync(fd));
  const task: RoleProcess = { id, role, release: image.release, ip, process: child, log, tmp, metricsPort: port, exited: child.exited };
  c.all.push(task);
  let exit: string | undefined;
  void child.exited.then((x) => (exit = `exited (${x.code ?? x.signal})`));
  const why = () => (exit ? `${exit}:\n${tailOf(log)}` : undefined);
  const health = healthPort(e, role);
  await waitFor(`${id} listening on ${ip}:${health}`, c.o.startTimeoutMs ?? 90_000, () => listening(health, ip), why);
  // ECS registers a task under the service's name once it is healthy.
  if (role === 'frontend') c.frontends.register(`${ip}:${e.ports.frontend.grpc}`);
  return task;
}

/** Out of the service's DNS name first (a frontend), SIGTERM to the container's process, SIGKILL once stopTimeoutMs has passed. */
async function stopTask(c: TaskContext, task: RoleProcess, stopTimeoutMs: number): Promise<TaskStop> {
  if (task.role === 'frontend') c.frontends.deregister(`${task.ip}:${c.scenario.environment.ports.frontend.grpc}`);
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
}

/** Roles with a live membership record, by Temporal's ServiceType number. */
async function liveRoles(pg: Postgres, database: string): Promise<TemporalRole[]> {
  const out = await pg.psql("SELECT DISTINCT role FROM cluster_membership WHERE record_expiry > (now() AT TIME ZONE 'UTC') ORDER BY role", database);
  return out
    .split('\n')
    .filter(Boolean)
    .map((r) => SERVICE_TYPE[Number(r)])
    .filter(Boolean);
}

/** Each role's addresses that heartbeat within the last `withinSeconds` (membership rows). */
async function heartbeatAddresses(pg: Postgres, database: string, withinSeconds: number): Promise<Partial<Record<TemporalRole, string[]>>> {
  const out = await pg.psql(
    `SELECT role, rpc_address FROM cluster_membership WHERE last_heartbeat > (now() AT TIME ZONE 'UTC') - interval '${withinSeconds} seconds' ORDER BY role, rpc_address`,
    database,
  );
  const members: Partial<Record<TemporalRole, string[]>> = {};
  for (const [role, address] of out
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('|')))
    (members[SERVICE_TYPE[Number(role)]] ??= []).push(address);
  return members;
}

/**
 * Starts history, matching, frontend and worker in that order, each once the one before
 * it answers on its health-check port (the stack's start order and health checks).
 */
export async function startCluster(o: ClusterOptions): Promise<LocalCluster> {
  let image = o.binaries ?? binaries();
  const scenario = resolveScenario({ scenario: o.scenario ?? 'temporal-150wps' }) as TemporalScenario;
  const e = scenario.environment;
  const stores = localStores(o.postgres, o.databasePrefix ?? 'temporal', o.numHistoryShards);
  const dir = mkdtempSync(join(tmpdir(), 'temporal-local-'));
  const iam = localIamAuth(o.postgres, dir);
  const frontendAddress = `127.0.0.1:${e.ports.frontend.grpc}`;
  if (await listening(e.ports.frontend.grpc)) throw new Error(`port ${e.ports.frontend.grpc} is in use: another Temporal server is running on this machine`);
  // A later deploy (existingStores) changes services, pools and dynamic config; the stores stay.
  if (!o.existingStores) await createStores(image, scenario, stores);
  const addresses = new Map<string, string>();
  const metadata = await serveMetadata(addresses);
  const frontends = new ServiceName(durationSeconds(e.deployment.dnsTtl) * 1000);
  await frontends.listen(frontendAddress);
  const all: RoleProcess[] = [];
  const c: TaskContext = { o, scenario, stores, dir, iam, addresses, metadataUrl: metadata.url, frontends, frontendAddress, all, image: () => image };

  let keep = false;
  const stop = async () => {
    for (const t of [...all].reverse()) await stopProcess(t.process);
    frontends.close();
    metadata.server.close();
    if (keep || process.env.KEEP_TEMPORAL_LOGS) console.warn(`the cluster's role logs are kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  };
  const first: RoleProcess[] = [];
  try {
    for (const [i, role] of TEMPORAL_ROLES.entries()) first.push(await startTask(c, role, e.ports.metrics + i));
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
    tasks: (role) => all.filter((t) => t.process.running() && (role === undefined || t.role === role)),
    startTask: (role, metricsPort) => startTask(c, role, metricsPort),
    setImage: (next) => {
      image = next;
    },
    stopTask: (task, stopTimeoutMs) => stopTask(c, task, stopTimeoutMs),
    killTask: async (task) => {
      if (task.role === 'frontend') frontends.deregister(`${task.ip}:${e.ports.frontend.grpc}`);
      task.process.kill('SIGKILL');
      await task.exited;
    },
    tail: (role, lines) => tailOf(first.find((t) => t.role === role)!.log, lines),
    members: () => liveRoles(o.postgres, stores.database),
    memberAddresses: (withinSeconds) => heartbeatAddresses(o.postgres, stores.database, withinSeconds),
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
