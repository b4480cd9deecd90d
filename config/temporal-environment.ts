import type { TemporalEnvironmentInput } from './temporal-schema';

/**
 * What every Temporal scenario shares. Nothing here may depend on the preset: these values
 * are (or feed) physical names, replacement-only properties, or settings that must never
 * change once the cluster holds data (numHistoryShards: the stack records it as an output, and
 * plan --check-deployed, preflight and campaign run refuse a change before a deploy).
 */
export const TEMPORAL_ENVIRONMENT: TemporalEnvironmentInput = {
  stackName: 'TemporalDsql',
  region: 'eu-west-1',
  // Pinned so that synth never looks them up. AZ names map to different zones per account.
  availabilityZones: ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'],
  vpcCidr: '10.70.0.0/16',
  natGateways: 1,
  // The ECS account setting `awsvpcTrunking` (not a CloudFormation resource). Off, an
  // m7g.2xlarge runs 3 awsvpc tasks; on, 40. Turn it on in the account first, then here.
  awsvpcTrunking: false,
  // ECS_RESERVED_MEMORY on every container instance: memory kept for the OS and agent.
  ecsReservedMemoryMiB: 256,
  names: {
    cluster: 'temporal-dsql',
    rateLimiterTable: 'temporal-dsql-conn-limiter',
    // The DSQL plugin's connection lease (slot blocks), for presets that use it.
    connectionLeaseTable: 'temporal-dsql-conn-lease',
    visibilityDomain: 'temporal-visibility',
    prometheusWorkspace: 'temporal-dsql',
    serviceNamespace: 'temporal.internal',
    // The aurora-postgresql store only.
    auroraCluster: 'temporal-history',
    auroraSecret: 'temporal/history-store',
  },
  ports: {
    frontend: { grpc: 7233, membership: 6933, http: 7243 },
    history: { grpc: 7234, membership: 6934 },
    matching: { grpc: 7235, membership: 6935 },
    worker: { grpc: 7239, membership: 6939 },
    metrics: 9090,
  },
  servers: {
    // temporalio/temporal's newest release: the aurora-postgresql store's images and every local
    // test's server (scripts/setup-integration.sh builds it from the Go module proxy).
    // The upgrade test starts from the fork's base: the path DSQL users' code takes to upstream.
    upstream: { release: '1.32.2', schemas: { history: '1.19', visibility: '1.14' }, upgradeTestedFrom: '1.30.0' },
    // The fork with the Aurora DSQL plugin at its newest commit (docker/temporal-dsql builds it;
    // test/fixtures/dsql-fork records what its source expects). Its server code is upstream main
    // at its last merge of it (2c99e413, 2026-01-26): past v1.30.0's branch point (2026-01-06),
    // in v1.31.0 and in no v1.30.x (the tag history; the evidence is in the fixture). Keys
    // registered after 1.30.0 are refused on DSQL presets. Its ServerVersion constant says 1.29.0.
    dsqlFork: {
      repository: 'iw/temporal',
      commit: 'e74d6b6912b52dc1e9a1d17c8f8c203d9f2786df',
      upstream: { commit: '2c99e41327456da0c81fa1e16a080ef2c1c66911', date: '2026-01-26', branchedAfter: '1.30.0', firstRelease: '1.31.0' },
    },
  },
  persistence: {
    // Static: the server keeps the value it first persisted. Never change it for a cluster
    // that holds data; a deploy that tries is refused (see lib/temporal/constructs/schema-setup.ts).
    numHistoryShards: 4096,
    pluginName: 'dsql',
    network: 'privatelink',
    databaseName: 'postgres',
    user: 'admin',
    port: 5432,
    tls: true,
    iamAuth: true,
    // Per-role sizes are in each preset (pools); DSQL ends a connection at 60 minutes.
    pool: { maxConnLifetime: '55m', maxConnIdleTime: '0s' },
    // Each task's own connection limiter, per role (the seed's 8/6/4/2): used by presets whose
    // store.connections.limiter is per-task, where config refuses rates that add up past
    // Aurora DSQL's 100 new connections/s per cluster.
    connectionRateLimits: {
      history: { perSecond: 8, burst: 40 },
      matching: { perSecond: 6, burst: 30 },
      frontend: { perSecond: 4, burst: 20 },
      worker: { perSecond: 2, burst: 10 },
    },
    schema: { name: 'dsql/temporal', version: '1.1' },
  },
  // Presets with store.engine aurora-postgresql: upstream Temporal on Aurora PostgreSQL.
  auroraPostgresql: {
    engineVersion: '16.8',
    databaseName: 'temporal',
    // The master user: the schema task's login (the password in Secrets Manager).
    user: 'temporal',
    // The servers' own login: IAM tokens only, no password, and only the data rights they use.
    // The schema task creates it and grants it; servers of a release with passwordCommand
    // (1.31.0+) sign a token per new connection with the task role, older ones use the master
    // password (the DSQL fork signs its own tokens and has neither).
    serverUser: 'temporal_server',
    port: 5432,
    backupRetentionDays: 7,
    // Performance Insights is what publishes DBLoad, the report's load figure.
    performanceInsightsRetentionDays: 7,
    monitoringIntervalSeconds: 60,
    // Both images run as their own user, temporal (uid 1000). The server is upstream's image with
    // the IAM token signer the servers' passwordCommand runs: build it from docker/temporal-aurora
    // (docs/temporal.md, "Bring it up") and push it here, or set { asset: 'docker/temporal-aurora' }.
    images: {
      server: { ecr: { repository: 'temporal-aurora', tag: '1.32.2' }, user: '1000:1000' },
      schemaTool: { registry: 'docker.io/temporalio/admin-tools:1.32.2', user: '1000:1000' },
    },
    schema: { name: 'postgresql/v12/temporal' },
  },
  limits: {
    dsqlConnectionsPerCluster: 10_000,
    // The reference deployment's raised quota (its 800 wps plan fits 320 of 384); a new
    // account's default is lower. `npm run capacity -- --quota-from-aws` reads yours.
    ec2VcpuQuota: 384,
    headroomPercent: 10,
  },
  membershipMaxJoinDuration: '120s',
  // The one-shot schema task (temporal-dsql-tool) that runs on each deploy that needs it.
  schemaSetupTask: { vcpu: 0.5, memoryGiB: 1 },
  // Rolling deploys start new tasks before stopping old ones; capacity must allow for it.
  deployment: {
    minimumHealthyPercent: 100,
    maximumPercent: 150,
    // ECS sends SIGTERM, then SIGKILL this much later: every drain below ends before it.
    stopTimeout: '60s',
    // The frontends' Cloud Map A records: a stopped task's address stays in answers this long.
    dnsTtl: '10s',
    // What each role does between SIGTERM and exit (dynamic config, for every preset). Measured
    // with `npm run bench:faults` at 10 workflows/s, the worst second's P99 during a rolling
    // deploy of the role (docs/local-cluster.md, "Faults and rolling deploys"); nothing was lost at any value.
    shutdown: {
      // Serving on while clients still resolve it (the TTL above), then finishing calls:
      // 0 s / 0 s gave 1,311 ms; 15 s / 10 s gave 49 ms (1.32.2).
      frontend: { failHealthCheck: '15s', drain: '10s' },
      // History hands its shards over on leaving the ring whatever the drain: 559 ms at 0 s,
      // 473 ms at 2 s (1.32.2), and 0 s stops at once.
      history: { drain: '0s' },
      // Matching needs the time for its task queues to move on 1.30 code (the DSQL fork's): 31 s
      // at 0 s (twice), 2.1 s at 5 s. On 1.32.2, whose other hosts keep its connection open 30 s
      // (matching.connectionCloseDelay), 0 s and 5 s are alike (2.0 and 2.1 s).
      matching: { drain: '5s' },
    },
  },
  visibility: { engineVersion: 'OpenSearch_2.19', index: 'temporal_visibility_v1' },
  images: {
    // Build it from docker/temporal-dsql (docs/temporal.md, "Bring it up") and push it to this
    // repository, or set { asset: 'docker/temporal-dsql' } to have `cdk deploy` build it.
    // Each image's user: docker/temporal-dsql and benchmark/ create theirs (uid 1000). The
    // collector's image names none (it would run as root), and needs none: it reads its
    // config from the environment and only talks over the network.
    server: { ecr: { repository: 'temporal-dsql', tag: '1.30.0-dsql-e74d6b69' }, user: '1000:1000' },
    collector: { registry: 'public.ecr.aws/aws-observability/aws-otel-collector:v0.43.3', user: '10001:10001' },
    // The project's own worker and load generator: build it from benchmark/ (docs/temporal.md,
    // "Bring it up") and push it here, or set { asset: 'benchmark' }.
    benchmark: { ecr: { repository: 'temporal-dsql-bench', tag: '1.0.0' }, user: '1000:1000' },
    // The Temporal Web UI (its ui-server, which embeds the UI), as Temporal publishes it; the
    // local tests build the same release from the Go module proxy (scripts/setup-integration.sh).
    // It runs as its image's own user, temporal (uid 1000).
    ui: { registry: 'docker.io/temporalio/ui:2.58.1', user: '1000:1000' },
    // Grafana OSS, as Grafana Labs publishes it, for the live dashboard; it runs as its image's
    // own user, grafana (uid 472).
    grafana: { registry: 'docker.io/grafana/grafana:13.2.3', user: '472' },
  },
  // One UI task on the main pool: it only answers the person forwarding a port to it.
  ui: { memoryGiB: 0.5, port: 8080 },
  // One Grafana task on the main pool, likewise; the dashboard refreshes itself this often. It
  // reads the workspace through Grafana's Amazon Managed Service for Prometheus plugin, this
  // release: test/fixtures/grafana/contract.json records what it and this Grafana expect.
  dashboards: { memoryGiB: 0.5, port: 3000, refresh: '10s', pluginVersion: '3.2.0' },
  logRetentionDays: 14,
  observability: {
    stackName: 'TemporalDsqlObservability',
    dashboard: 'temporal-dsql',
    alarmTopic: 'temporal-dsql-alarms',
    // Addresses subscribed to the alarm topic (each confirms by email once).
    alarmEmails: [],
    alarms: {
      cpuHigh: { percent: 90, minutes: 10 },
      // The seed's 150 wps run saw none; a burst this size means contention on hot rows.
      occConflicts: { perMinute: 100, minutes: 3 },
      // Long enough for the benchmark pool to start instances from zero.
      tasksBelowDesired: { minutes: 10 },
      limiterThrottles: { perMinute: 1, minutes: 5 },
    },
    prometheus: { scrapeInterval: '15s' },
    // bench ladder: each rate for as long as a bench run, until a step does not hold. A step
    // holds when 99% of what it offered completed, under 4x the reference's 259 ms P99 at
    // 150/s, and the open workflows grew by under 5% of the starts in the step's second half.
    ladder: { step: '5m', maxSteps: 8, held: { completedShareMin: 0.99, p99MaxMs: 1000, openGrowthShareMax: 0.05 } },
    // What the report proposes for the component its bottleneck rules rank first; config then
    // checks the preset it writes (the pools' packing, DSQL connections and vCPUs against headroom).
    proposals: {
      // A bench run is 5 minutes; one under 3 says little.
      minimumMinutes: 3,
      remedies: {
        // The reference's ~1,170/s run: every worker slot busy, tasks waiting ~53 s for one.
        workers: { kind: 'replicas', service: 'benchmark-workers', factor: 1.5 },
        // The reference's 400/s attempt: pollers starved while workers had slots free.
        matching: { kind: 'dynamic-config', keys: ['matching.numTaskqueueReadPartitions', 'matching.numTaskqueueWritePartitions'], factor: 2 },
        history: { kind: 'replicas', service: 'history', factor: 1.5 },
        // Pool waits: more connections per task (within DSQL's connection limit, which config checks).
        store: { kind: 'pools', factor: 1.5 },
        generator: { kind: 'generator', factor: 2 },
      },
    },
    bottlenecks: [
      // The reference's ~1,170/s run: workers took tasks after ~53 s (P50) with every slot busy.
      {
        component: 'workers',
        when: { figure: 'workerScheduleToStartP50Ms', above: 200 },
        and: [{ figure: 'workerSlotsFreeLowestShare', below: 0.1 }],
        says: 'tasks waited for a benchmark worker slot: add worker replicas or slots',
      },
      // The reference's 400/s attempt: a backlog of ~27,600 while worker slots stood free (pollers starved).
      {
        component: 'matching',
        when: { figure: 'matchingBacklogPeak', above: 1000 },
        and: [{ figure: 'workerSlotsFreeLowestShare', above: 0.25 }],
        says: 'tasks queued in matching while workers had free slots: pollers starved (more pollers or task-queue partitions)',
      },
      {
        component: 'matching',
        when: { figure: 'matchingBacklogAgePeakSeconds', above: 30 },
        and: [{ figure: 'workerSlotsFreeLowestShare', above: 0.25 }],
        says: 'the oldest queued task waited long while workers had free slots: pollers starved',
      },
      { component: 'history', when: { figure: 'historyCpuPeakPercent', above: 85 }, and: [], says: 'history ran out of CPU: more history replicas or vCPU' },
      {
        component: 'history',
        when: { figure: 'historyPersistenceP99Ms', above: 250 },
        and: [],
        says: "history's persistence calls were slow (P99): look at the store's figures",
      },
      {
        component: 'store',
        when: { figure: 'storePoolWaitsPerMinute', above: 1 },
        and: [],
        says: 'server tasks waited for a connection from their pool: larger pools or more replicas',
      },
      { component: 'store', when: { figure: 'storePoolInUsePeakShare', above: 0.9 }, and: [], says: 'a role used nearly every connection of its pool' },
      // Seed 000's 150 wps run saw none; contention on hot rows shows here first.
      { component: 'store', when: { figure: 'storeConflictsPerMinute', above: 100 }, and: [], says: 'transactions were retried on OCC conflicts' },
      { component: 'store', when: { figure: 'storeCommitLatencyMs', above: 50 }, and: [], says: 'commits were slow' },
      // Below 0.8, not 1: a step that straddles a short run's start or end holds part of a step's starts.
      {
        component: 'generator',
        when: { figure: 'generatorPeakStartShareOfTarget', below: 0.8 },
        and: [],
        says: 'the generator never started workflows at the offered rate: it, or StartWorkflowExecution, held the run back',
      },
      { component: 'generator', when: { figure: 'generatorStartErrors', above: 0 }, and: [], says: 'StartWorkflowExecution calls failed' },
    ],
  },
  spending: {
    // Above a day of temporal-150wps running ($251, npm run cost -- -s temporal-150wps): a larger preset left running,
    // or an environment nobody hibernated, is what it warns about.
    budget: { dailyUsd: 300 },
    // An hour with the fleet up, no load generator and idle workers parks the fleet: its instances
    // are the dearest part of a day that is not testing.
    idle: { action: 'park-fleet', minutes: 60, workerCpuBelowPercent: 5 },
  },
};
