import { z } from './zod';
import { DSQL_CONNECTION_RATE } from './headroom';
import { awsName } from './aws-names';
import {
  account,
  acuRange,
  auroraInstanceClass,
  availabilityZones,
  durationSeconds,
  goDuration,
  physicalName,
  region,
  scenarioName,
  stackName,
  stepped,
  taskImageSchema,
  vpcCidr,
} from './fields';
import { shutdownProblems, shutdownSchema } from './temporal-shutdown';
export type { TemporalRole } from './temporal-roles';
import { temporalObservabilitySchema } from './observability-schema';
import { temporalSpendingSchema } from './spending-schema';

/*
 * The Temporal section of the catalog: the environment every preset shares and the presets.
 * Field rules live on the fields; rules across fields (dynamic-config keys, instance types,
 * capacity) live in checkTemporal, which the catalog schema runs.
 */

const port = z.number().int().min(1024).max(65535);
const semver = z.string().regex(/^\d+\.\d+\.\d+$/, { error: (iss) => `"${String(iss.input)}" is not a release (valid: major.minor.patch, e.g. 1.32.2)` });
const schemaVersion = z.string().regex(/^\d+\.\d+$/, { error: (iss) => `"${String(iss.input)}" is not a schema version (valid: major.minor, e.g. 1.19)` });
function taskSize() {
  return { vcpu: stepped('vCPU', 0.125, 64), memoryGiB: stepped('GiB', 0.25, 512) };
}
const roleRecord = <T extends z.ZodType>(t: T) => z.strictObject({ history: t, matching: t, frontend: t, worker: t });

/** Where a preset keeps Temporal's history: the fork's DSQL plugin, or upstream's PostgreSQL plugin on Aurora. */
const HISTORY_STORES = ['dsql', 'aurora-postgresql'] as const;
export type HistoryStore = (typeof HISTORY_STORES)[number];

const { perSecond: DSQL_RATE, burst: DSQL_BURST } = DSQL_CONNECTION_RATE;
/** Aurora DSQL ends every connection after an hour. */
const DSQL_SESSION_SECONDS = 3600;
const perSecond = z
  .number()
  .int()
  .min(1)
  .max(DSQL_RATE, { error: `Aurora DSQL accepts at most ${DSQL_RATE} new connections/s per cluster (valid: 1-${DSQL_RATE})` });

/**
 * How the DSQL plugin opens connections (test/fixtures/dsql-fork records each variable with
 * file and line). `limiter` paces new connections: per task (environment.persistence's
 * connectionRateLimits), a cluster-wide counter per second, or a cluster-wide token bucket
 * that spends DSQL's burst of 1,000 first; the last two keep their state in the limiter table.
 * `reservoir` keeps each task's pool's worth of connections open and ready beside those in
 * use, retiring each after its lifetime. `lease` caps connections cluster-wide: each task takes
 * blocks of slots from the lease table at start; the plugin reads it in reservoir mode only.
 */
const dsqlConnectionsSchema = z
  .strictObject({
    limiter: z.discriminatedUnion(
      'kind',
      [
        z.strictObject({ kind: z.literal('per-task') }),
        z.strictObject({ kind: z.literal('counter'), perSecond, maxWait: goDuration }),
        z.strictObject({
          kind: z.literal('token-bucket'),
          perSecond,
          burst: z
            .number()
            .int()
            .min(1)
            .max(DSQL_BURST, { error: `Aurora DSQL's burst is ${DSQL_BURST.toLocaleString('en-US')} new connections (valid: 1-${DSQL_BURST})` }),
          maxWait: goDuration,
        }),
      ],
      { error: 'unknown limiter kind (valid: per-task, counter, token-bucket)' },
    ),
    reservoir: z
      .strictObject({
        baseLifetime: goDuration,
        lifetimeJitter: goDuration,
        guardWindow: goDuration,
        initialFillTimeout: goDuration,
        inflightLimit: z.number().int().min(1).max(64),
      })
      .optional(),
    lease: z
      .strictObject({
        blockSize: z.number().int().min(1).max(10_000),
        blockCount: z.number().int().min(1).max(10_000),
        ttl: goDuration,
        renewInterval: goDuration,
      })
      .optional(),
  })
  .superRefine((c, ctx) => {
    const problem = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (c.lease && !c.reservoir)
      problem(
        'connections.lease needs connections.reservoir: the plugin sets the lease up in reservoir mode only and would ignore it (valid: add a reservoir, or leave the lease out)',
      );
    if (c.lease && durationSeconds(c.lease.renewInterval) >= durationSeconds(c.lease.ttl))
      problem(
        `connections.lease.renewInterval ${c.lease.renewInterval} is not shorter than its ttl ${c.lease.ttl}: a task's blocks would expire between renewals and another task could take them (valid: a renewal well inside the ttl)`,
      );
    if (c.reservoir) {
      const r = c.reservoir;
      const longest = durationSeconds(r.baseLifetime) + durationSeconds(r.lifetimeJitter);
      if (longest >= DSQL_SESSION_SECONDS)
        problem(
          `connections.reservoir: baseLifetime ${r.baseLifetime} + lifetimeJitter ${r.lifetimeJitter} reaches Aurora DSQL's 60-minute session limit, which would end connections in use (valid: under 60 minutes together)`,
        );
      if (durationSeconds(r.guardWindow) >= durationSeconds(r.baseLifetime))
        problem(
          `connections.reservoir.guardWindow ${r.guardWindow} is not shorter than baseLifetime ${r.baseLifetime}: every connection would be discarded on checkout (valid: a guard well inside the lifetime)`,
        );
    }
  });
export type DsqlConnections = z.output<typeof dsqlConnectionsSchema>;

const historyStoreSchema = z.discriminatedUnion(
  'engine',
  [
    z.strictObject({ engine: z.literal('dsql'), connections: dsqlConnectionsSchema }),
    z.strictObject({
      engine: z.literal('aurora-postgresql'),
      /** The one writer instance: a provisioned class, or Serverless v2 within an ACU range. */
      writer: z
        .strictObject({ instanceClass: auroraInstanceClass.optional(), serverlessAcu: acuRange.optional() })
        .refine((w) => (w.instanceClass === undefined) !== (w.serverlessAcu === undefined), {
          error: 'writer takes one of instanceClass (provisioned, e.g. "db.r7g.2xlarge") or serverlessAcu ({ min, max }: Serverless v2)',
        }),
    }),
  ],
  { error: `unknown store engine (valid: ${HISTORY_STORES.join(', ')})` },
);

export const temporalEnvironmentSchema = z.strictObject({
  stackName,
  account: account.optional(),
  region,
  availabilityZones: availabilityZones(2, 'the cluster needs subnets in at least 2 availability zones'),
  vpcCidr,
  natGateways: z.number().int().min(1).max(3),
  awsvpcTrunking: z.boolean(),
  ecsReservedMemoryMiB: z.number().int().min(0).max(4096),
  names: z.strictObject({
    cluster: awsName('ecsCluster'),
    rateLimiterTable: awsName('dynamoDbTable'),
    connectionLeaseTable: awsName('dynamoDbTable'),
    visibilityDomain: awsName('openSearchDomain'),
    prometheusWorkspace: awsName('prometheusAlias'),
    serviceNamespace: awsName('dnsName'),
    auroraCluster: awsName('dbClusterIdentifier'),
    auroraSecret: awsName('secretName'),
  }),
  ports: z.strictObject({
    frontend: z.strictObject({ grpc: port, membership: port, http: port }),
    history: z.strictObject({ grpc: port, membership: port }),
    matching: z.strictObject({ grpc: port, membership: port }),
    worker: z.strictObject({ grpc: port, membership: port }),
    metrics: port,
  }),
  /**
   * The Temporal server each store runs, as data: every image tag, the Dockerfile's pin, the
   * local tests' build and the dynamic-config keys a preset may set are checked against it.
   */
  servers: z.strictObject({
    /** Upstream temporalio/temporal: the aurora-postgresql store's images, and every local test's server. */
    upstream: z.strictObject({
      release: semver,
      /** The PostgreSQL schemas that release's temporal-sql-tool brings a store to (schema/postgresql/v12/version.go). */
      schemas: z.strictObject({ history: schemaVersion, visibility: schemaVersion }),
      /** The release the integration suite upgrades from under load, to `release`. */
      upgradeTestedFrom: semver,
    }),
    /** The DSQL store's server: the fork that carries the Aurora DSQL plugin, built by docker/temporal-dsql. */
    dsqlFork: z.strictObject({
      repository: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
      commit: z.string().regex(/^[0-9a-f]{40}$/, { error: 'valid: the full 40-character commit hash' }),
      /**
       * The upstream code the fork carries: main at the fork's last merge of it, and the releases
       * that line lies between (branched after the one, first in the other). A key registered
       * after `branchedAfter` is refused on DSQL presets (test/fixtures/dsql-fork holds each key
       * to the fork's source).
       */
      upstream: z.strictObject({
        commit: z.string().regex(/^[0-9a-f]{40}$/, { error: 'valid: the full 40-character commit hash' }),
        date: z.iso.date(),
        branchedAfter: semver,
        firstRelease: semver,
      }),
    }),
  }),
  persistence: z.strictObject({
    numHistoryShards: z.number().int().min(1).max(65536),
    pluginName: z.literal('dsql'),
    /**
     * How the servers reach the cluster: `privatelink`, through an interface endpoint for the
     * cluster's connection service in the private subnets, or `public`, its public endpoint
     * through NAT (for a region or account without the endpoint service).
     */
    network: z.enum(['privatelink', 'public'], { error: (iss) => `persistence.network "${String(iss.input)}" is not valid (valid: privatelink, public)` }),
    databaseName: z.literal('postgres', { error: 'Aurora DSQL has one database: "postgres"' }),
    // The DSQL plugin connects as admin whatever the YAML says (test/fixtures/dsql-fork).
    user: z.literal('admin', { error: 'the DSQL plugin always connects as the built-in admin role (valid: "admin")' }),
    port: z.literal(5432, { error: 'Aurora DSQL listens on 5432 only' }),
    tls: z.literal(true, { error: 'Aurora DSQL requires TLS (valid: true)' }),
    iamAuth: z.literal(true, { error: 'Aurora DSQL authenticates with IAM only (valid: true)' }),
    /** What every role's pool shares; the sizes are per role, in each preset's `pools`. */
    pool: z.strictObject({
      maxConnLifetime: goDuration,
      // Temporal's SQL config has no idle-time setting; Go's database/sql never closes idle
      // connections when it is 0, which is what a pre-warmed pool needs.
      maxConnIdleTime: z.literal('0s', { error: 'valid: "0s" (Temporal exposes no idle timeout; 0 is database/sql\'s default)' }),
    }),
    /** Each task's own limiter, per role: used by presets whose connections.limiter is per-task. */
    connectionRateLimits: roleRecord(z.strictObject({ perSecond: z.number().int().min(1).max(100), burst: z.number().int().min(1).max(1000) })),
    // The server image's temporal-dsql-tool: its embedded schema and version (test/fixtures/dsql-fork).
    schema: z.strictObject({ name: z.string().min(1), version: z.string().regex(/^\d+\.\d+$/) }),
  }),
  /** The aurora-postgresql store (presets with store.engine aurora-postgresql): what every such preset shares. */
  auroraPostgresql: z.strictObject({
    engineVersion: physicalName(/^1[2-9]\.\d+$/, "Aurora PostgreSQL version (major.minor, 12 or later: Temporal's postgres12 plugin)"),
    databaseName: physicalName(/^[a-z][a-z0-9_]{0,62}$/, 'database name'),
    user: physicalName(/^[a-z][a-z0-9_]{0,15}$/, 'master user name (1-16 of a-z, 0-9, _)').refine((u) => !['postgres', 'rdsadmin', 'admin'].includes(u), {
      error: (iss) => `"${String(iss.input)}" is reserved by Aurora PostgreSQL (valid: any other name, e.g. temporal)`,
    }),
    serverUser: physicalName(/^[a-z][a-z0-9_]{0,62}$/, "the servers' database user (1-63 of a-z, 0-9, _)").refine(
      (u) => !['postgres', 'rdsadmin', 'admin', 'rds_iam', 'public'].includes(u) && !u.startsWith('pg_') && !u.startsWith('rds'),
      { error: (iss) => `"${String(iss.input)}" is reserved by Aurora PostgreSQL (valid: any other name, e.g. temporal_server)` },
    ),
    port: z.literal(5432, { error: 'valid: 5432 (the port the security groups and the endpoint use)' }),
    backupRetentionDays: z.number().int().min(1).max(35),
    performanceInsightsRetentionDays: z.union([z.literal(7), z.literal(731)], { error: 'valid: 7 (free tier) or 731' }),
    monitoringIntervalSeconds: z.union(
      [1, 5, 10, 15, 30, 60].map((n) => z.literal(n)),
      { error: 'valid Enhanced Monitoring intervals: 1, 5, 10, 15, 30, 60 (seconds)' },
    ),
    /** Upstream's images: the server, and admin-tools for temporal-sql-tool (the one-shot schema task). */
    images: z.strictObject({ server: taskImageSchema, schemaTool: taskImageSchema }),
    /** temporal-sql-tool's embedded schema (`--schema-name`). */
    schema: z.strictObject({ name: z.literal('postgresql/v12/temporal', { error: 'valid: "postgresql/v12/temporal" (upstream\'s PostgreSQL schema)' }) }),
  }),
  /**
   * What a preset may use, less a margin: synth refuses a preset over either limit less
   * headroomPercent (config/headroom.ts; `npm run capacity` prints the table).
   */
  limits: z.strictObject({
    /** Aurora DSQL's connections per cluster (a quota: raise it with AWS first, then here). */
    dsqlConnectionsPerCluster: z.number().int().min(1),
    /** The account's Running On-Demand Standard instances vCPU quota in the region (L-1216C47A). */
    ec2VcpuQuota: z.number().int().min(1),
    headroomPercent: z.number().min(0).max(90),
  }),
  membershipMaxJoinDuration: goDuration,
  schemaSetupTask: z.strictObject(taskSize()),
  deployment: z
    .strictObject({
      minimumHealthyPercent: z.number().int().min(0).max(100),
      maximumPercent: z.number().int().min(100).max(200),
      stopTimeout: goDuration,
      dnsTtl: goDuration,
      shutdown: shutdownSchema,
    })
    .superRefine((d, ctx) => {
      for (const problem of shutdownProblems(d)) ctx.addIssue({ code: 'custom', message: problem });
    }),
  visibility: z.strictObject({ engineVersion: z.string().regex(/^OpenSearch_\d+\.\d+$/), index: physicalName(/^[a-z][a-z0-9_]{0,99}$/, 'index name') }),
  images: z.strictObject({ server: taskImageSchema, collector: taskImageSchema, benchmark: taskImageSchema, ui: taskImageSchema, grafana: taskImageSchema }),
  /**
   * The Temporal Web UI (temporalio/ui), where a preset runs it: one task on the main pool,
   * talking to the frontend as the benchmark does, reached only by port forwarding (npm run ui).
   * It reserves memory and no CPU: it idles but for the person looking, and a reservation
   * would take the CPU the servers' rolling deploys are packed into.
   */
  ui: z.strictObject({ memoryGiB: taskSize().memoryGiB, port }),
  /**
   * Grafana with the live dashboard of the servers' and workers' own metrics (generated from
   * the report's query catalog), reading the Managed Prometheus workspace with SigV4, where a
   * preset runs it: one task on the main pool like the UI, no CPU reserved, reached only by
   * port forwarding (npm run ui). `refresh` is the dashboard's own refresh interval.
   */
  dashboards: z.strictObject({
    memoryGiB: taskSize().memoryGiB,
    port,
    refresh: z.enum(['5s', '10s', '30s', '1m'], { error: 'valid: 5s, 10s, 30s, 1m' }),
    /** The Amazon Managed Service for Prometheus data source plugin's release, installed at each start. */
    pluginVersion: z.string().regex(/^\d+\.\d+\.\d+$/, { error: 'valid: a plugin release, e.g. 3.2.0' }),
  }),
  logRetentionDays: z.union(
    [1, 3, 5, 7, 14, 30, 60, 90, 180, 365].map((n) => z.literal(n)),
    {
      error: 'valid: 1, 3, 5, 7, 14, 30, 60, 90, 180, 365',
    },
  ),
  observability: temporalObservabilitySchema,
  spending: temporalSpendingSchema,
});

const serviceSize = z.strictObject({ replicas: z.number().int().min(1).max(200), ...taskSize() });
/** One role's pool: every task of the role opens up to maxConns (and keeps maxIdleConns warm). */
const poolSize = z
  .strictObject({ maxConns: z.number().int().min(1).max(1000), maxIdleConns: z.number().int().min(0).max(1000) })
  .refine((p) => p.maxIdleConns <= p.maxConns, {
    error: (iss) => {
      const p = iss.input as { maxConns: number; maxIdleConns: number };
      return `maxIdleConns ${p.maxIdleConns} is above maxConns ${p.maxConns} (valid: at most maxConns; the pool never keeps more idle than it opens)`;
    },
  });
const dynamicValue = z.union([z.number(), z.boolean(), z.string()]);

/** The workflow types the benchmark program registers (benchmark/internal/workflows). */
export const BENCHMARK_WORKFLOW_TYPES = ['simple', 'multi-activity', 'timer'] as const;

export const FLEET_STATES = ['running', 'parked', 'external'] as const;
export type FleetState = (typeof FLEET_STATES)[number];

export const temporalScenarioSchema = z.strictObject({
  name: scenarioName,
  title: z.string().min(1),
  /** Fixed for the life of an environment: a deploy that changes it is refused (lib/temporal/constructs/history-store-guard.ts). */
  store: historyStoreSchema,
  capacity: z.strictObject({
    main: z.strictObject({ instanceType: z.string(), instances: z.number().int().min(1).max(100) }),
    benchmark: z.strictObject({ instanceType: z.string(), maxInstances: z.number().int().min(1).max(100) }),
  }),
  services: roleRecord(serviceSize),
  /** Each role's connection pool to the history store, per task (rendered into that role's static config). */
  pools: roleRecord(poolSize),
  /** A rolling deploy's ceiling for this preset, when it must be lower than the environment's (its surge counts against the limits). */
  deployment: z.strictObject({ maximumPercent: z.number().int().min(100).max(200) }).optional(),
  dynamicConfig: z.record(z.string(), dynamicValue),
  visibility: z.strictObject({
    instanceType: physicalName(/^[a-z0-9]+\.[a-z0-9]+\.search$/, 'OpenSearch instance type (<family>.<size>.search)'),
    instances: z.number().int().min(1).max(80),
    volumeGiB: z.number().int().min(10).max(16384),
  }),
  /** Whether the preset runs the Temporal Web UI (environment.ui): on for every preset here; false leaves it out. */
  ui: z.boolean(),
  /** Whether the preset runs Grafana with the live dashboard (environment.dashboards): on wherever the UI is. */
  dashboards: z.boolean(),
  benchmark: z.strictObject({
    /**
     * running: every deploy sets the worker service to its replicas; parked: to 0 (and the
     * benchmark ASG drains to 0); external: deploys leave the count to `bench up/down`.
     */
    fleet: z.enum(FLEET_STATES, { error: `valid fleet states: ${FLEET_STATES.join(', ')}` }),
    workers: serviceSize,
    generator: z.strictObject(taskSize()),
    targetRate: z.number().int().min(1).max(100000),
    duration: goDuration,
    rampUp: goDuration,
    workflowType: z.enum(BENCHMARK_WORKFLOW_TYPES, {
      error: `valid workflow types: ${BENCHMARK_WORKFLOW_TYPES.join(', ')} (the benchmark program's, benchmark/internal/workflows)`,
    }),
    namespace: physicalName(/^[a-z][a-z0-9-]{0,63}$/, 'Temporal namespace'),
  }),
  recorded: z
    .strictObject({
      achievedWps: z.number().positive(),
      workflowsCompleted: z.number().int().positive(),
      latencyMs: z.strictObject({ p50: z.number(), p95: z.number(), p99: z.number(), max: z.number() }),
      dsqlTxPerMinute: z.strictObject({ total: z.number(), readOnly: z.number() }),
      dsqlConnections: z.number().int(),
    })
    .optional(),
});

/** A preset's title: its rate and store, then its own note. Never written by hand, so it cannot disagree with the fields. */
export function presetTitle(preset: Omit<TemporalScenarioInput, 'title'>, note?: string): string {
  const store = preset.store.engine === 'dsql' ? 'Aurora DSQL' : 'Aurora PostgreSQL';
  return `${preset.benchmark.targetRate.toLocaleString('en-US')} workflows/s on ${store}${note ? `: ${note}` : ''}`;
}

export type TemporalEnvironmentInput = z.input<typeof temporalEnvironmentSchema>;
export type TemporalEnvironment = z.output<typeof temporalEnvironmentSchema>;
export type TemporalScenarioInput = z.input<typeof temporalScenarioSchema>;
export type TemporalPreset = z.output<typeof temporalScenarioSchema>;

/** -1, 0 or 1 as release a is older than, the same as or newer than b (major.minor.patch). */
export function compareReleases(a: string, b: string): number {
  const [x, y] = [a, b].map((r) => r.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}
