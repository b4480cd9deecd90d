import { stringify } from 'yaml';
import type { TemporalEnvironment, TemporalPreset, TemporalRole } from '../../config';
import { TEMPORAL_ROLES } from '../../config';

/*
 * What the DSQL-enabled Temporal server reads, rendered from config: the static server
 * config (YAML), the dynamic config (YAML, {value, constraints} per key) and the plugin's
 * environment variables; and the benchmark program's environment. Pure functions, so tests
 * (and the local cluster of test/integration) run exactly what a container gets.
 */

/** Replaced with the task's own IP by the container's start command. */
export const TASK_IP_PLACEHOLDER = '__TASK_IP__';
/** Where the start command writes the two files inside the container. */
export const CONFIG_DIR = '/tmp/temporal';

export interface Endpoints {
  /** Aurora DSQL cluster endpoint (host name). */
  readonly dsqlHost: string;
  /** OpenSearch domain endpoint (host name). */
  readonly visibilityHost: string;
  /** host:port of the frontend, as the other roles and clients resolve it. */
  readonly frontendAddress: string;
}

/** The static server config, shared by every role (each process starts one service). */
export function staticConfig(env: TemporalEnvironment, endpoints: Endpoints): string {
  const p = env.persistence;
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
      defaultStore: 'dsql',
      visibilityStore: 'visibility',
      datastores: {
        dsql: {
          sql: {
            pluginName: p.pluginName,
            databaseName: p.databaseName,
            connectAddr: `${endpoints.dsqlHost}:${p.port}`,
            connectProtocol: 'tcp',
            user: p.user,
            maxConns: p.pool.maxConns,
            maxIdleConns: p.pool.maxIdleConns,
            maxConnLifetime: p.pool.maxConnLifetime,
            tls: { enabled: p.tls },
          },
        },
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
  return stringify(config, { lineWidth: 0 });
}

/** Temporal's dynamic-config file: every key applies cluster-wide (no constraints). */
export function dynamicConfig(preset: TemporalPreset): string {
  const entries = Object.entries(preset.dynamicConfig).map(([key, value]) => [key, [{ value, constraints: {} }]]);
  return stringify(Object.fromEntries(entries), { lineWidth: 0 });
}

/** Environment of one role's server container: the DSQL plugin's settings and the config. */
export function serverEnvironment(
  env: TemporalEnvironment,
  role: TemporalRole,
  files: { staticConfig: string; dynamicConfig: string },
  dsql: { rateLimiterTable: string; tokenEndpoint: string },
): Record<string, string> {
  const p = env.persistence;
  const limit = p.connectionRateLimits[role];
  // The plugin runs one limiter: the DynamoDB one when enabled (then the per-task variables
  // are never read), else the per-task one. Render only the variables it will read.
  const limiter: Record<string, string> = p.distributedRateLimiter.enabled
    ? {
        DSQL_DISTRIBUTED_RATE_LIMITER_ENABLED: 'true',
        DSQL_DISTRIBUTED_RATE_LIMITER_TABLE: dsql.rateLimiterTable,
        DSQL_DISTRIBUTED_RATE_LIMITER_LIMIT: String(p.distributedRateLimiter.clusterLimitPerSecond),
      }
    : { DSQL_CONNECTION_RATE_LIMIT: String(limit.perSecond), DSQL_CONNECTION_BURST_LIMIT: String(limit.burst) };
  return {
    TEMPORAL_SERVICE: role,
    TEMPORAL_STATIC_CONFIG: files.staticConfig,
    TEMPORAL_DYNAMIC_CONFIG: files.dynamicConfig,
    AWS_REGION: env.region,
    // The host IAM tokens are signed for: the cluster's endpoint, also when the servers connect
    // through PrivateLink under another name.
    CLUSTER_ENDPOINT: dsql.tokenEndpoint,
    // Credentials come from the task role only, never from the instance.
    AWS_EC2_METADATA_DISABLED: 'true',
    ...limiter,
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

/**
 * The one-shot schema task's command. On the first deploy it creates the DSQL schema straight
 * at the image's version (the fork's own 1.0 -> 1.1 update does not parse) and the visibility
 * index; later runs bring the DSQL schema up to the image's version ("found zero updates"
 * when it is current). temporal-dsql-tool reads SQL_HOST (where it connects), CLUSTER_ENDPOINT
 * (the host its IAM token is signed for), SQL_PORT, SQL_USER, SQL_DATABASE and AWS_REGION.
 */
export function schemaCommand(env: TemporalEnvironment): string {
  const s = env.persistence.schema;
  const es = 'temporal-elasticsearch-tool --ep "https://$VISIBILITY_HOST:443" --aws-credentials aws-sdk-default';
  return [
    'set -eu',
    'case "$SCHEMA_ACTION" in',
    `  create) temporal-dsql-tool setup-schema --schema-name ${s.name} --version ${s.version}`,
    `          ${es} setup-schema`,
    `          ${es} create-index --index "$VISIBILITY_INDEX" ;;`,
    `  update) temporal-dsql-tool update-schema --schema-name ${s.name} ;;`,
    '  *) echo "SCHEMA_ACTION must be create or update" >&2; exit 2 ;;',
    'esac',
  ].join('\n');
}
