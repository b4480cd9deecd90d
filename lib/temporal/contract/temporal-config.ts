import { stringify } from 'yaml';
import type { TemporalEnvironment, TemporalPreset, TemporalRole } from '../../../config';
import { TEMPORAL_ROLES } from '../../../config';
import { type DsqlConnections, type HistoryStore, compareReleases } from '../../../config/temporal-schema';
import { shutdownDynamicConfig } from '../../../config/temporal-shutdown';

/*
 * What the Temporal server reads, rendered from config: the static server config (YAML), the
 * dynamic config (YAML, {value, constraints} per key) and the store's environment variables
 * (the DSQL plugin's); the benchmark program's environment (the schema task's are in
 * temporal-schema-task.ts). Pure functions, so tests
 * (and the local cluster of test/integration) run exactly what a container gets.
 */

/** Replaced with the task's own IP by the container's start command. */
export const TASK_IP_PLACEHOLDER = '__TASK_IP__';
/** Where the start command writes the two files inside the container. */
const CONFIG_DIR = '/tmp/temporal';

/**
 * The variable that carries the Aurora store's master password: ECS sets it from Secrets
 * Manager in the schema container, where temporal-sql-tool reads it under this name, and in the
 * servers' only where their release reads no passwordCommand (their config then reads it
 * through its template, `{{ env ... }}`).
 */
export const PASSWORD_VARIABLE = 'SQL_PASSWORD';

/** Upstream's PostgreSQL plugin (pgx driver): the aurora-postgresql store's. */
export const POSTGRES_PLUGIN = 'postgres12_pgx';

export interface Endpoints {
  /** The host the servers connect to for persistence: DSQL's (PrivateLink or public) or the Aurora writer's. */
  readonly storeHost: string;
  /** OpenSearch domain endpoint (host name). */
  readonly visibilityHost: string;
  /** host:port of the frontend, as the other roles and clients resolve it. */
  readonly frontendAddress: string;
}

/** The first upstream release whose SQL config takes a `passwordCommand` (common/config/config.go, PasswordCommandConfig). */
export const PASSWORD_COMMAND_SINCE = '1.31.0';

/** The IAM token signer docker/temporal-aurora adds to upstream's server image. */
export const TOKEN_COMMAND = '/usr/local/bin/rds-iam-token';

/** How long the server waits for one token (the signer gives up after 8 s of its own). */
const TOKEN_TIMEOUT = '10s';

/**
 * How the aurora-postgresql store's servers log in: as their own user with an IAM token per
 * new connection where the release reads a passwordCommand, else as the master user with its
 * password (an environment that pins an older release, and the upgrade test's start).
 */
export function auroraServerLogin(env: TemporalEnvironment): { user: string; iam: boolean } {
  const iam = compareReleases(env.servers.upstream.release, PASSWORD_COMMAND_SINCE) >= 0;
  return { user: iam ? env.auroraPostgresql.serverUser : env.auroraPostgresql.user, iam };
}

/** Where each store's clients log in: the same for the servers, the schema task and the probe. */
export function storeLogin(env: TemporalEnvironment, store: HistoryStore): { port: number; user: string; databaseName: string } {
  const { port, user, databaseName } = store === 'dsql' ? env.persistence : env.auroraPostgresql;
  return { port, user, databaseName };
}

/** The persistence datastore of each store: its name in the config, and its `sql` block. */
function historyDatastore(env: TemporalEnvironment, store: HistoryStore, host: string, size: PoolSize): [string, Record<string, unknown>] {
  const p = env.persistence;
  const login = storeLogin(env, store);
  const pool = { maxConns: size.maxConns, maxIdleConns: size.maxIdleConns, maxConnLifetime: p.pool.maxConnLifetime };
  const connection = { databaseName: login.databaseName, connectAddr: `${host}:${login.port}`, connectProtocol: 'tcp', user: login.user };
  if (store === 'dsql') return ['dsql', { pluginName: p.pluginName, ...connection, ...pool, tls: { enabled: p.tls } }];
  const server = auroraServerLogin(env);
  const credential = server.iam
    ? {
        user: server.user,
        // Run for every new connection: a token lives 15 minutes, a connection as long as the pool keeps it.
        passwordCommand: {
          command: TOKEN_COMMAND,
          args: ['--host', host, '--port', String(login.port), '--user', server.user, '--region', env.region],
          timeout: TOKEN_TIMEOUT,
        },
      }
    : { user: server.user, password: `{{ env "${PASSWORD_VARIABLE}" }}` };
  return [
    'aurora-postgresql',
    {
      pluginName: POSTGRES_PLUGIN,
      ...connection,
      ...credential,
      ...pool,
      // Encrypted (the cluster refuses plain connections); not verified: the RDS CA is not in upstream's image.
      tls: { enabled: true, enableHostVerification: false },
    },
  ];
}

/** Makes Temporal render the file as a Go template (common/config/loader.go): it must be in the first 1 KB. */
const TEMPLATE_HEADER = `# enable-template: the store's password is read from $${PASSWORD_VARIABLE} when the server starts\n`;

/** One role's pool per task (the preset's `pools`). */
export interface PoolSize {
  readonly maxConns: number;
  readonly maxIdleConns: number;
}

/** One role's static server config (each process starts one service; only the pool differs between roles). */
export function staticConfig(env: TemporalEnvironment, store: HistoryStore, endpoints: Endpoints, pool: PoolSize): string {
  const p = env.persistence;
  const [storeName, sql] = historyDatastore(env, store, endpoints.storeHost, pool);
  const services = Object.fromEntries(
    TEMPORAL_ROLES.map((role) => {
      const ports = env.ports[role];
      return [
        role,
        {
          rpc: {
            grpcPort: ports.grpc,
            membershipPort: ports.membership,
            ...('http' in ports ? { httpPort: ports.http } : {}),
            bindOnIP: '0.0.0.0',
          },
        },
      ];
    }),
  );
  const config = {
    log: { stdout: true, level: 'info' },
    persistence: {
      numHistoryShards: p.numHistoryShards,
      defaultStore: storeName,
      visibilityStore: 'visibility',
      datastores: {
        [storeName]: { sql },
        visibility: {
          elasticsearch: {
            version: 'v8',
            url: { scheme: 'https', host: `${endpoints.visibilityHost}:443` },
            // IAM access to OpenSearch: requests are signed with the task role.
            'aws-request-signing': { enabled: true, region: env.region, credentialProvider: 'aws-sdk-default' },
            indices: { visibility: env.visibility.index },
            enableSniff: false,
            enableHealthcheck: false,
          },
        },
      },
    },
    global: {
      membership: { maxJoinDuration: env.membershipMaxJoinDuration, broadcastAddress: TASK_IP_PLACEHOLDER },
      metrics: { prometheus: { listenAddress: `0.0.0.0:${env.ports.metrics}`, timerType: 'histogram' } },
    },
    services,
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: { active: { enabled: true, initialFailoverVersion: 1, rpcAddress: endpoints.frontendAddress } },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } },
    namespaceDefaults: { archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } } },
    publicClient: { hostPort: endpoints.frontendAddress },
    dynamicConfigClient: { filepath: `${CONFIG_DIR}/dynamicconfig.yaml`, pollInterval: '60s' },
  };
  const yaml = stringify(config, { lineWidth: 0 });
  return 'password' in sql ? TEMPLATE_HEADER + yaml : yaml;
}

/** Temporal's dynamic-config file: every key applies cluster-wide (no constraints). */
export function dynamicConfig(env: TemporalEnvironment, preset: TemporalPreset): string {
  const keys = { ...preset.dynamicConfig, ...shutdownDynamicConfig(env.deployment.shutdown) };
  const entries = Object.entries(keys).map(([key, value]) => [key, [{ value, constraints: {} }]]);
  return stringify(Object.fromEntries(entries), { lineWidth: 0 });
}

/** What a store adds to the server's environment: the DSQL plugin's tables, token host and connection controls; nothing for Aurora (its password is an ECS secret). */
export type StoreWiring =
  | {
      readonly engine: 'dsql';
      readonly rateLimiterTable: string;
      readonly connectionLeaseTable: string;
      readonly tokenEndpoint: string;
      readonly connections: DsqlConnections;
    }
  | { readonly engine: 'aurora-postgresql' };

/** Environment of one role's server container: the config files and the store's settings (the role's pool sizes the DSQL reservoir). */
export function serverEnvironment(
  env: TemporalEnvironment,
  role: TemporalRole,
  files: { staticConfig: string; dynamicConfig: string },
  store: StoreWiring,
  pool: PoolSize,
): Record<string, string> {
  return {
    TEMPORAL_SERVICE: role,
    TEMPORAL_STATIC_CONFIG: files.staticConfig,
    TEMPORAL_DYNAMIC_CONFIG: files.dynamicConfig,
    AWS_REGION: env.region,
    // Credentials come from the task role only, never from the instance.
    AWS_EC2_METADATA_DISABLED: 'true',
    ...(store.engine === 'dsql' ? dsqlPluginEnvironment(env, role, store, pool) : {}),
  };
}

/**
 * The DSQL plugin's variables for one role, only those it will read in the mode config picks
 * (test/fixtures/dsql-fork says which it reads when).
 */
function dsqlPluginEnvironment(
  env: TemporalEnvironment,
  role: TemporalRole,
  dsql: Extract<StoreWiring, { engine: 'dsql' }>,
  pool: PoolSize,
): Record<string, string> {
  const { limiter, reservoir, lease } = dsql.connections;
  const local = env.persistence.connectionRateLimits[role];
  const cluster = { DSQL_DISTRIBUTED_RATE_LIMITER_ENABLED: 'true', DSQL_DISTRIBUTED_RATE_LIMITER_TABLE: dsql.rateLimiterTable };
  const limiterEnv: Record<string, string> =
    limiter.kind === 'per-task'
      ? { DSQL_CONNECTION_RATE_LIMIT: String(local.perSecond), DSQL_CONNECTION_BURST_LIMIT: String(local.burst) }
      : limiter.kind === 'counter'
        ? { ...cluster, DSQL_DISTRIBUTED_RATE_LIMITER_LIMIT: String(limiter.perSecond), DSQL_DISTRIBUTED_RATE_LIMITER_MAX_WAIT: limiter.maxWait }
        : {
            // The bucket is an item of the counter's table: the plugin picks it only with that limiter on.
            ...cluster,
            DSQL_TOKEN_BUCKET_ENABLED: 'true',
            DSQL_TOKEN_BUCKET_RATE: String(limiter.perSecond),
            DSQL_TOKEN_BUCKET_CAPACITY: String(limiter.burst),
            DSQL_TOKEN_BUCKET_MAX_WAIT: limiter.maxWait,
          };
  const reservoirEnv: Record<string, string> = reservoir
    ? {
        DSQL_RESERVOIR_ENABLED: 'true',
        // The pool's size, ready and waiting: what the plugin defaults to, said explicitly.
        DSQL_RESERVOIR_TARGET_READY: String(pool.maxConns),
        DSQL_RESERVOIR_LOW_WATERMARK: String(pool.maxConns),
        DSQL_RESERVOIR_BASE_LIFETIME: reservoir.baseLifetime,
        DSQL_RESERVOIR_LIFETIME_JITTER: reservoir.lifetimeJitter,
        DSQL_RESERVOIR_GUARD_WINDOW: reservoir.guardWindow,
        DSQL_RESERVOIR_INITIAL_FILL_TIMEOUT: reservoir.initialFillTimeout,
        DSQL_RESERVOIR_INFLIGHT_LIMIT: String(reservoir.inflightLimit),
      }
    : {};
  const leaseEnv: Record<string, string> = lease
    ? {
        DSQL_DISTRIBUTED_CONN_LEASE_ENABLED: 'true',
        DSQL_DISTRIBUTED_CONN_LEASE_TABLE: dsql.connectionLeaseTable,
        DSQL_SLOT_BLOCK_SIZE: String(lease.blockSize),
        DSQL_SLOT_BLOCK_COUNT: String(lease.blockCount),
        DSQL_SLOT_BLOCK_TTL: lease.ttl,
        DSQL_SLOT_BLOCK_RENEW_INTERVAL: lease.renewInterval,
        // Names each block's owner in the table (the plugin reads SERVICES for it).
        SERVICES: role,
      }
    : {};
  return {
    // The host IAM tokens are signed for, and the lease's blocks are keyed by: the cluster's
    // endpoint, also when the servers connect through PrivateLink under another name.
    CLUSTER_ENDPOINT: dsql.tokenEndpoint,
    ...limiterEnv,
    ...reservoirEnv,
    ...leaseEnv,
  };
}

/** The two modes of the benchmark program (benchmark/, one per process). */
export type BenchmarkMode = 'worker' | 'generator';

/**
 * The benchmark program's environment for one mode: its whole contract with the stack
 * (benchmark/internal/config lists every variable it reads). `bench run` overrides the
 * generator's rate, duration and ramp-up per run.
 */
export function benchmarkEnvironment(preset: TemporalPreset, mode: BenchmarkMode, o: { frontendAddress: string; metricsPort: number }): Record<string, string> {
  const b = preset.benchmark;
  const common = {
    TEMPORAL_ADDRESS: o.frontendAddress,
    BENCHMARK_NAMESPACE: b.namespace,
    BENCHMARK_WORKFLOW_TYPE: b.workflowType,
    PROMETHEUS_ENDPOINT: `0.0.0.0:${o.metricsPort}`,
  };
  if (mode === 'worker') return { ...common, BENCHMARK_WORKER_ONLY: 'true' };
  return {
    ...common,
    BENCHMARK_GENERATOR_ONLY: 'true',
    BENCHMARK_TARGET_RATE: String(b.targetRate),
    BENCHMARK_DURATION: b.duration,
    BENCHMARK_RAMP_UP: b.rampUp,
  };
}

/**
 * The Temporal Web UI's environment (temporalio/ui's config/docker.yaml template reads these):
 * the frontend as the benchmark reaches it, the benchmark's namespace first, plain HTTP (it is
 * only reached through a forwarded port on the user's own machine, so its CSRF cookie cannot
 * be Secure-only), and no calls out to the internet for news.
 */
export function uiEnvironment(environment: TemporalEnvironment, preset: TemporalPreset, o: { frontendAddress: string }): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: o.frontendAddress,
    TEMPORAL_UI_PORT: String(environment.ui.port),
    TEMPORAL_DEFAULT_NAMESPACE: preset.benchmark.namespace,
    TEMPORAL_CSRF_COOKIE_INSECURE: 'true',
    TEMPORAL_DISABLE_NEWS_FETCH: 'true',
    TEMPORAL_NOTIFY_ON_NEW_VERSION: 'false',
  };
}

/** The UI's container health check: its own /healthz, with the busybox wget of its Alpine image. */
export const uiHealthCheck = (port: number) => `wget -q -O /dev/null http://127.0.0.1:${port}/healthz`;

/**
 * The server container's command: take the task's IP from the ECS task metadata endpoint as
 * the membership broadcast address (ringpop dials peers on it), write both config files,
 * then start one role. Needs only a POSIX shell, tr, grep, cut, sed and wget (busybox in the Alpine image).
 */
export function startCommand(): string {
  return [
    'set -eu',
    // Whitespace is dropped first: the address is found in compact and indented JSON alike.
    `ip=$(wget -qO- "$ECS_CONTAINER_METADATA_URI_V4/task" | tr -d ' \\t\\r\\n' | grep -o '"IPv4Addresses":\\["[0-9.]*"' | head -n1 | cut -d'"' -f4)`,
    '[ -n "$ip" ] || { echo "no IPv4 address in the task metadata" >&2; exit 1; }',
    `mkdir -p ${CONFIG_DIR}`,
    `printf '%s\\n' "$TEMPORAL_STATIC_CONFIG" | sed "s/${TASK_IP_PLACEHOLDER}/$ip/" > ${CONFIG_DIR}/config.yaml`,
    `printf '%s\\n' "$TEMPORAL_DYNAMIC_CONFIG" > ${CONFIG_DIR}/dynamicconfig.yaml`,
    `exec temporal-server --config-file ${CONFIG_DIR}/config.yaml --allow-no-auth start --service "$TEMPORAL_SERVICE"`,
  ].join('\n');
}

/** Where the store probe's password goes (an aurora-postgresql store whose servers use one; ECS sets it from the secret). */
export const PROBE_PASSWORD_VARIABLE = 'PROBE_PASSWORD';

/**
 * The store probe's environment (the benchmark program, BENCHMARK_PROBE_ONLY; benchmark/internal/probe):
 * the host, user, database and TLS mode the servers connect with, and their credential: an
 * admin IAM token signed for the DSQL cluster endpoint, the servers' IAM token for the Aurora
 * writer, or the Aurora password where the servers' release reads no passwordCommand.
 */
export function probeEnvironment(env: TemporalEnvironment, store: HistoryStore, o: { storeHost: string; tokenEndpoint?: string }): Record<string, string> {
  const l = storeLogin(env, store);
  const common = { BENCHMARK_PROBE_ONLY: 'true', PROBE_HOST: o.storeHost, PROBE_SSLMODE: 'require', PROBE_QUERIES: '100' };
  const login = { PROBE_PORT: String(l.port), PROBE_USER: l.user, PROBE_DATABASE: l.databaseName };
  if (store === 'dsql') {
    if (!o.tokenEndpoint) throw new Error('probeEnvironment: the DSQL store needs the endpoint its tokens are signed for');
    return { ...common, ...login, PROBE_TOKEN_HOST: o.tokenEndpoint, AWS_REGION: env.region };
  }
  const server = auroraServerLogin(env);
  if (!server.iam) return { ...common, ...login };
  return { ...common, ...login, PROBE_USER: server.user, PROBE_TOKEN_HOST: o.storeHost, PROBE_TOKEN_KIND: 'rds', AWS_REGION: env.region };
}
