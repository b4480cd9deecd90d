import type { FolioEnvironmentInput } from './folio-schema';

/**
 * What every FOLIO phase shares. Nothing here may depend on the phase: these values are
 * (or feed) physical names and replacement-only properties.
 */
export const FOLIO_ENVIRONMENT: FolioEnvironmentInput = {
  stackName: 'FolioHybridAurora',
  // Set `account` to pin deploys to one account; left out, the stack deploys to the
  // account of the caller's credentials.
  region: 'us-east-1',
  // Pinned so that synth never looks them up. AZ names map to different zones per account.
  availabilityZones: ['us-east-1a', 'us-east-1b', 'us-east-1c'],
  vpcCidr: '10.60.0.0/16',
  // Where the FOLIO modules connect from (peered or attached networks); the only ingress.
  clientCidrs: ['10.60.0.0/16'],
  database: {
    engineVersion: '16.8',
    port: 5432,
    databaseName: 'folio',
    adminUsername: 'folio_admin',
    backupRetentionDays: 7,
    performanceInsightsRetentionDays: 7,
    monitoringIntervalSeconds: 60,
    storageType: 'aurora',
    primaryReaders: 0,
  },
  names: {
    primaryCluster: 'folio-hybrid-provisioned',
    offloadCluster: 'folio-hybrid-serverless',
    adminSecret: 'folio/db/admin',
    moduleSecretPrefix: 'folio/db/modules',
    routingParameter: '/folio/db/routing',
    moduleZone: 'folio-db.internal',
  },
  routing: {
    // Modules connect by `<module>.folio-db.internal`, which a phase (or an online move) points at
    // a cluster. A resolver keeps an old answer this long; a JVM keeps its own 30 s by default
    // (networkaddress.cache.ttl), which sourceGrace covers.
    ttlSeconds: 5,
    switchTimeout: '300s',
    sourceGrace: '30s',
  },
  // PERF-1334's 60 tenants (PERF-1229 ran on 30 of the same pattern). PTF's tenant ids are not
  // published beyond the fs09000000 pattern; replace these with your environment's (`npm run move`
  // checks them against the schemas it finds on the source cluster).
  tenants: Array.from({ length: 60 }, (_, i) => `fs${String(9000000 + i).padStart(8, '0')}`),
  offloadPopulation:
    'Populated by the schema mover (`npm run move`, lib/folio/constructs/schema-mover): before each deploy that ' +
    'routes a module to the other cluster, the module is stopped and its schema in every tenant is copied ' +
    'there and verified row by row; the source copy stays until a separate --drop-source. A module that ' +
    'reads schemas across the split (acknowledged in crossSchemaAcks) gets a reference copy of them on its ' +
    'cluster, copied from a snapshot while their modules stay live and kept as is afterwards: those reads ' +
    'see data as of that copy. The seed report does not say how PTF populated the cluster.',
  mover: {
    // The PostgreSQL 16 client tools (engine 16.8). The database subnets have no route out,
    // so the image comes from this account's ECR: copy it there once (docs/folio.md, "Switching phases").
    image: { ecr: { repository: 'folio-mover', tag: '16.8-alpine' } },
    // Each vCPU moves one schema at a time (a pg_dump | pg_restore stream, then the checksums on
    // both clusters): FOLIO's runbook restores with -j <vCPUs> too. 2 vCPUs moved the bench
    // dataset at the runbook's pace or better (docs/folio.md, "Switching phases").
    vcpu: 2,
    memoryGiB: 4,
    // How long any of the mover's statements waits for a lock held elsewhere (a module that was
    // not stopped) before the move fails naming the holder: PostgreSQL's lock_timeout.
    lockTimeout: '30s',
    // The region's S3 prefix list, which the task's HTTPS to ECR's layer store goes to:
    // `aws ec2 describe-managed-prefix-lists --filters Name=prefix-list-name,Values=com.amazonaws.us-east-1.s3`.
    s3PrefixListId: 'pl-63a5400a',
  },
  observability: {
    stackName: 'FolioHybridAuroraObservability',
    dashboard: 'folio-hybrid-aurora',
    alarmTopic: 'folio-hybrid-aurora-alarms',
    // Addresses subscribed to the alarm topic (each confirms by email once).
    alarmEmails: [],
    // What the report proposes next, first matching rule wins; each rule is one of the decisions
    // PTF made between seed 002's phases, with the figure PTF read named as its threshold.
    proposals: {
      // A load test's phases run an hour or more; a window under 20 minutes is not one.
      minimumMinutes: 20,
      minimumCoverage: 0.8,
      rules: [
        // PTF's next report: the time went to IO:DataFileRead, not CPU. More ACU buys CPU, not reads.
        {
          id: 'io-bound',
          when: [
            { figure: 'offloadIoWaitShare', above: 0.5 },
            { figure: 'offloadCpuPeakPercent', below: 70 },
          ],
          propose: { kind: 'none' },
          says: 'the offload cluster waited on reads, not CPU: more ACU will not help; look at what reads from storage (the working set against memory, the queries Performance Insights names)',
        },
        // Test 1: "the 4xlarge used only ~35% of its CPU": scaled down to a 2xlarge.
        {
          id: 'writer-oversized',
          when: [{ figure: 'primaryCpuPeakPercent', below: 40 }],
          propose: { kind: 'writer-size', steps: -1 },
          says: 'the provisioned writer never used half its CPU: one size down costs half as much',
        },
        // Test 10: "flatlining exactly at the maximum 32 ACU": doubled to 64.
        {
          id: 'ceiling-flat',
          when: [{ figure: 'acuShareOfWindowAtCeiling', above: 0.25 }],
          propose: { kind: 'acu-max-times', factor: 2 },
          says: 'the Serverless cluster sat at its ceiling for much of the window: double it',
        },
        // Tests 2 and 3: "peaked at 100% CPU: a maximum of 4 ACU is insufficient": raised to 6.
        {
          id: 'ceiling-touched',
          when: [
            { figure: 'acuPeakShareOfMax', above: 0.95 },
            { figure: 'offloadCpuPeakPercent', above: 95 },
          ],
          propose: { kind: 'acu-max-times', factor: 1.5 },
          says: 'the Serverless cluster reached its ceiling with its CPU full: raise the ceiling by half',
        },
        // Tests 4 to 9: the primary offloaded module by module while the Serverless cluster had room
        // (before the range rules: a busy writer is the first thing to relieve).
        {
          id: 'offload-more',
          when: [
            { figure: 'primaryCpuPeakPercent', above: 80 },
            { figure: 'acuPeakShareOfMax', below: 0.5 },
          ],
          propose: { kind: 'route-next-module' },
          says: 'the provisioned writer was busy while the Serverless cluster had room: route one more module to it',
        },
        // Test 6: "scaled to a maximum of ~30 ACUs: 128 is unnecessary": capped at 32.
        {
          id: 'ceiling-unused',
          when: [{ figure: 'acuPeakShareOfMax', below: 0.35 }],
          propose: { kind: 'acu-max-to-peak', headroom: 1.05 },
          says: 'the Serverless cluster used a third of its range or less: cap it just above the peak',
        },
        // Test 11: "peaked at ~30 of 64, tail latencies stayed": minimum raised from 0.5 to 5.
        {
          id: 'cold-start',
          when: [
            { figure: 'acuPeakShareOfMax', below: 0.6 },
            { figure: 'acuPeakOverMin', above: 20 },
          ],
          propose: { kind: 'acu-min-share-of-peak', share: 0.15 },
          says: 'the Serverless cluster climbed far from a near-zero floor to a peak well inside its range: start it warm',
        },
      ],
    },
    alarms: {
      // Seed test10: capacity "flatlining exactly at the maximum"; 15 minutes is longer than
      // any scaling step, so it is a ceiling, not a spike.
      serverlessAtCeiling: { percentOfMax: 95, minutes: 15 },
      cpuHigh: { percent: 90, minutes: 15 },
    },
  },
  spending: {
    // Above the dearest phase's day (npm run cost): more than that is something left on.
    budget: { dailyUsd: 150 },
    // Two hours without a client connection to either cluster stops both; Aurora starts a stopped
    // cluster after 7 days, and the same rule stops it again two hours later.
    idle: { action: 'stop-clusters', minutes: 120 },
  },
};
