import { z } from './zod';
import { DSQL_CONNECTION_RATE, headroomProblems, temporalHeadroom } from './headroom';
import { planPool, temporalPoolSpecs } from './packing';
import { awsName } from './aws-names';
import { engineVersionProblem, loadEngineVersions } from './engine-versions';
import { EC2_INSTANCE_TYPES } from './ec2-instance-types';
import { didYouMean, unknownName } from './errors';
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
  type TaskImage,
  taskImageSchema,
  vpcCidr,
} from './fields';
import { TEMPORAL_ROLES } from './temporal-roles';
export type { TemporalRole } from './temporal-roles';
import { temporalObservabilitySchema } from './observability-schema';
import { temporalSpendingSchema } from './spending-schema';
import { DYNAMIC_CONFIG_KEYS, MISPLACED_DYNAMIC_CONFIG_KEYS } from './temporal-dynamic-config-keys';

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
      shutdown: z.strictObject({
        frontend: z.strictObject({ failHealthCheck: goDuration, drain: goDuration }),
        history: z.strictObject({ drain: goDuration }),
        matching: z.strictObject({ drain: goDuration }),
      }),
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

/** What a server does after SIGTERM beyond its drain: the gRPC server's own 2 s grace, and slack. */
const SHUTDOWN_SLACK_SECONDS = 5;

type Shutdown = TemporalEnvironment['deployment']['shutdown'];
/** deployment.shutdown as the dynamic-config keys it renders into every preset. */
const SHUTDOWN_KEYS: Readonly<Record<string, (s: Shutdown) => string>> = {
  'frontend.shutdownFailHealthCheckDuration': (s) => s.frontend.failHealthCheck,
  'frontend.shutdownDrainDuration': (s) => s.frontend.drain,
  'history.shutdownDrainDuration': (s) => s.history.drain,
  'matching.shutdownDrainDuration': (s) => s.matching.drain,
};

export function shutdownDynamicConfig(s: Shutdown): Record<string, string> {
  return Object.fromEntries(Object.entries(SHUTDOWN_KEYS).map(([key, value]) => [key, value(s)]));
}

/**
 * A stop that outlasts stopTimeout is a SIGKILL: history loses its shards unannounced,
 * frontend its in-flight calls. Each role's drain must end that much before it, and a
 * frontend must fail its health check for as long as its address stays in DNS answers.
 */
function shutdownProblems(d: { stopTimeout: string; dnsTtl: string; shutdown: Shutdown }): string[] {
  const stop = durationSeconds(d.stopTimeout);
  const s = d.shutdown;
  const problems: string[] = [];
  const spans: [string, number][] = [
    ['frontend failHealthCheck + drain', durationSeconds(s.frontend.failHealthCheck) + durationSeconds(s.frontend.drain)],
    ['history drain', durationSeconds(s.history.drain)],
    ['matching drain', durationSeconds(s.matching.drain)],
  ];
  for (const [what, seconds] of spans)
    if (seconds + SHUTDOWN_SLACK_SECONDS > stop)
      problems.push(
        `deployment.shutdown: ${what} is ${seconds} s, which with ${SHUTDOWN_SLACK_SECONDS} s of slack outlasts stopTimeout ${d.stopTimeout} (valid: a drain that ends ${SHUTDOWN_SLACK_SECONDS} s before ECS sends SIGKILL)`,
      );
  if (durationSeconds(s.frontend.failHealthCheck) < durationSeconds(d.dnsTtl))
    problems.push(
      `deployment.shutdown.frontend.failHealthCheck ${s.frontend.failHealthCheck} is shorter than dnsTtl ${d.dnsTtl} (valid: at least the TTL: clients still resolve a stopping frontend that long)`,
    );
  return problems;
}

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

/** Cross-field rules of the Temporal section; issues are reported under `temporal`. */
export function checkTemporal(t: { environment: TemporalEnvironment; scenarios: readonly TemporalPreset[] }, ctx: z.core.$RefinementCtx): void {
  let problems = 0;
  const issue = (path: PropertyKey[], message: string, input?: unknown) => {
    problems++;
    ctx.addIssue({ code: 'custom', path: ['temporal', ...path], message, input });
  };
  const env = t.environment;

  const ports = Object.values(env.ports).flatMap((p) => (typeof p === 'number' ? [p] : Object.values(p)));
  const clash = ports.find((p, i) => ports.indexOf(p) !== i);
  if (clash !== undefined) issue(['environment', 'ports'], `port ${clash} is used twice; every role needs its own gRPC and membership ports`, clash);

  for (const [path, problem] of imageVersionProblems(env)) issue(path, problem);
  const { user, serverUser } = env.auroraPostgresql;
  if (serverUser === user)
    issue(
      ['environment', 'auroraPostgresql', 'serverUser'],
      `auroraPostgresql.serverUser "${serverUser}" is the master user (valid: a name of its own, e.g. temporal_server: the servers log in with IAM tokens, the schema task with the password)`,
      serverUser,
    );

  const names = t.scenarios.map((s) => s.name);
  for (const d of names.filter((n, i) => names.indexOf(n) !== i)) issue(['scenarios'], `scenario "${d}" is defined twice (valid: each name once)`, d);

  // What the region offers of the Aurora store's engine version, and each preset's use of it.
  const { engineVersion } = env.auroraPostgresql;
  const versions = loadEngineVersions(env.region);
  const unknown = engineVersionProblem(versions, engineVersion, { where: 'auroraPostgresql.engineVersion' });
  if (unknown) issue(['environment', 'auroraPostgresql', 'engineVersion'], unknown.message, engineVersion);

  const zones = Math.min(env.availabilityZones.length, 3);
  t.scenarios.forEach((s, si) => {
    const at = (...rest: PropertyKey[]) => ['scenarios', si, ...rest];
    if (s.store.engine === 'aurora-postgresql' && !unknown) {
      const { serverlessAcu, instanceClass } = s.store.writer;
      const writer = engineVersionProblem(versions, engineVersion, {
        where: serverlessAcu ? `${s.name}'s Serverless v2 writer` : `${s.name}'s writer`,
        serverless: serverlessAcu,
        instanceClasses: instanceClass ? [instanceClass] : undefined,
      });
      if (writer)
        issue(
          at(
            'store',
            'writer',
            ...(writer.at === 'instanceClass' ? ['instanceClass'] : writer.at === 'serverless' ? ['serverlessAcu'] : ['serverlessAcu', writer.at]),
          ),
          writer.message,
        );
    }
    checkDynamicConfig(s.dynamicConfig, serverOf(env, s.store.engine), (key, message) => issue(at('dynamicConfig', key), message, key));

    for (const pool of ['main', 'benchmark'] as const) {
      const type = s.capacity[pool].instanceType;
      const known = Object.keys(EC2_INSTANCE_TYPES);
      if (!EC2_INSTANCE_TYPES[type]) issue(at('capacity', pool, 'instanceType'), unknownName('instance type', type, known), type);
    }
    if (s.visibility.instances % zones !== 0)
      issue(
        at('visibility', 'instances'),
        `${s.visibility.instances} OpenSearch nodes cannot spread evenly over ${zones} availability zones (valid: a multiple of ${zones})`,
        s.visibility.instances,
      );
    if (s.benchmark.rampUp !== '0' && durationSeconds(s.benchmark.rampUp) >= durationSeconds(s.benchmark.duration))
      issue(
        at('benchmark', 'rampUp'),
        `ramp-up ${s.benchmark.rampUp} is not shorter than the run (${s.benchmark.duration}) (valid: a ramp-up shorter than the run)`,
        s.benchmark.rampUp,
      );
  });
  if (problems) return;

  // Without a cluster-wide limiter each task limits itself: the sum must fit DSQL's 100/s.
  const p = env.persistence;
  t.scenarios.forEach((s, si) => {
    if (s.store.engine !== 'dsql') return;
    const c = s.store.connections;
    // The fork's deployment notes: in reservoir mode the pool borrows and returns, never closes, what it keeps idle.
    if (c.reservoir)
      for (const role of TEMPORAL_ROLES)
        if (s.pools[role].maxIdleConns !== s.pools[role].maxConns)
          issue(
            ['scenarios', si, 'pools', role],
            `${s.name}: with the reservoir on, pools.${role}.maxIdleConns (${s.pools[role].maxIdleConns}) must equal maxConns (${s.pools[role].maxConns}): a pool that closes idle connections throws reservoir connections away`,
          );
    if (c.limiter.kind !== 'per-task') return;
    const parts = TEMPORAL_ROLES.map((role) => ({ role, replicas: s.services[role].replicas, perSecond: p.connectionRateLimits[role].perSecond }));
    const total = parts.reduce((sum, x) => sum + x.replicas * x.perSecond, 0);
    if (total > DSQL_CONNECTION_RATE.perSecond)
      issue(
        ['scenarios', si, 'services'],
        `with the per-task limiter, ${s.name}'s tasks may open ${total} connections/s together (${parts.map((x) => `${x.role} ${x.replicas} × ${x.perSecond}`).join(', ')}), over Aurora DSQL's ${DSQL_CONNECTION_RATE.perSecond}/s per cluster; lower persistence.connectionRateLimits or use a cluster-wide limiter (store.connections.limiter kind counter or token-bucket)`,
        total,
      );
  });

  // Capacity last: it needs known instance types.
  t.scenarios.forEach((s, si) => {
    for (const spec of temporalPoolSpecs(env, s)) {
      const plan = planPool(spec);
      if (plan.problem) issue(['scenarios', si, 'capacity', spec.pool], plan.problem, spec.instances);
    }
    for (const problem of headroomProblems(s.name, temporalHeadroom(env, s), env.limits.headroomPercent)) issue(['scenarios', si], problem);
  });
}

/** The Temporal server a store's tasks run: its upstream release (the fork's is the code it carries) and what to call it. */
function serverOf(env: TemporalEnvironment, store: HistoryStore): { release: string; name: string } {
  const v = env.servers;
  if (store === 'aurora-postgresql') return { release: v.upstream.release, name: `upstream Temporal ${v.upstream.release}` };
  const u = v.dsqlFork.upstream;
  return {
    release: u.branchedAfter,
    name: `the DSQL fork ${v.dsqlFork.repository}@${v.dsqlFork.commit.slice(0, 8)} (upstream main of ${u.date}: past ${u.branchedAfter}, before ${u.firstRelease})`,
  };
}

/** -1, 0 or 1 as release a is older than, the same as or newer than b (major.minor.patch). */
export function compareReleases(a: string, b: string): number {
  const [x, y] = [a, b].map((r) => r.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

/** The tag an image runs, where config names one (an asset's is the Dockerfile's, checked by test/lib/contract). */
function imageTag(ref: TaskImage): string | undefined {
  if ('ecr' in ref) return ref.ecr.tag;
  if ('registry' in ref) return ref.registry.slice(ref.registry.lastIndexOf(':') + 1);
  return undefined;
}

/** Every image that names its version names the one `servers` says it runs. */
function imageVersionProblems(env: TemporalEnvironment): [PropertyKey[], string][] {
  const out: [PropertyKey[], string][] = [];
  const { upstream, dsqlFork } = env.servers;
  if (compareReleases(upstream.upgradeTestedFrom, upstream.release) >= 0)
    out.push([
      ['environment', 'servers', 'upstream', 'upgradeTestedFrom'],
      `servers.upstream.upgradeTestedFrom ${upstream.upgradeTestedFrom} is not older than the release ${upstream.release} (valid: an older release, the one the upgrade test starts from)`,
    ]);
  for (const image of ['server', 'schemaTool'] as const) {
    const tag = imageTag(env.auroraPostgresql.images[image]);
    if (tag !== undefined && tag !== upstream.release)
      out.push([
        ['environment', 'auroraPostgresql', 'images', image],
        `auroraPostgresql.images.${image} is tagged ${tag}, but servers.upstream.release is ${upstream.release} (valid: the tag ${upstream.release}, or change the release)`,
      ]);
  }
  const tag = imageTag(env.images.server);
  const short = dsqlFork.commit.slice(0, 8);
  if (tag !== undefined && !tag.includes(short))
    out.push([
      ['environment', 'images', 'server'],
      `images.server is tagged ${tag}, which does not name the fork commit servers.dsqlFork.commit ${short} (valid: a tag that contains ${short}, e.g. ${dsqlFork.upstream.branchedAfter}-dsql-${short}, built from that commit)`,
    ]);
  return out;
}

function checkDynamicConfig(dc: Record<string, unknown>, server: { release: string; name: string }, issue: (key: string, message: string) => void): void {
  const registered = Object.keys(DYNAMIC_CONFIG_KEYS);
  const byLower = new Map(registered.map((k) => [k.toLowerCase(), k]));
  const seen = new Map<string, string>();
  for (const [key, value] of Object.entries(dc)) {
    const shutdownKey = Object.keys(SHUTDOWN_KEYS).find((k) => k.toLowerCase() === key.toLowerCase());
    if (shutdownKey) {
      issue(key, `"${key}" is set for every preset from environment.deployment.shutdown, where it is checked against the ECS stopTimeout`);
      continue;
    }
    const misplaced = Object.entries(MISPLACED_DYNAMIC_CONFIG_KEYS).find(([k]) => k.toLowerCase() === key.toLowerCase());
    if (misplaced) {
      issue(key, `"${key}" is not dynamic config: ${misplaced[1]}`);
      continue;
    }
    const canonical = byLower.get(key.toLowerCase());
    if (!canonical) {
      issue(key, `"${key}" is not a registered dynamic-config key (the server would ignore it)${didYouMean(key, registered)}; valid: ${registered.join(', ')}`);
      continue;
    }
    if (seen.has(canonical)) issue(key, `"${key}" and "${seen.get(canonical)}" are the same key (keys are case-insensitive)`);
    seen.set(canonical, key);
    const spec = DYNAMIC_CONFIG_KEYS[canonical];
    if (spec.since && compareReleases(server.release, spec.since) < 0) {
      issue(
        key,
        `"${key}" is registered from Temporal ${spec.since}, but this preset's store runs ${server.name}, which would ignore it (valid: leave it out, or a store whose server is ${spec.since} or newer)`,
      );
      continue;
    }
    const ok =
      (spec.kind === 'int' && Number.isInteger(value)) ||
      (spec.kind === 'float' && typeof value === 'number') ||
      (spec.kind === 'bool' && typeof value === 'boolean') ||
      (spec.kind === 'duration' && typeof value === 'string' && goDuration.safeParse(value).success);
    if (!ok) issue(key, `${key} = ${JSON.stringify(value)} is not valid (valid: ${kindText(spec.kind)})`);
    else if (typeof value === 'number' && spec.min !== undefined && value < spec.min)
      issue(key, `${key} = ${value} is below ${spec.min} (valid: ${kindText(spec.kind)} >= ${spec.min})`);
  }
}

const kindText = (k: string) => ({ int: 'a whole number', float: 'a number', bool: 'true or false', duration: 'a duration such as 30s' })[k];
