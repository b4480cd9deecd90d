import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DescribeDBClustersCommand, RDSClient } from '@aws-sdk/client-rds';
import { ListResourceRecordSetsCommand, ListHostedZonesCommand, Route53Client } from '@aws-sdk/client-route-53';
import { type FolioScenario, resolveScenario } from '../../config';
import type { CampaignInput } from '../../config/campaign-schema';
import { loadPrices } from '../../config/prices';
import { editedCatalog } from '../../harness/catalog';
import { folioSeedSql } from '../../harness/folio-data';
import { CREDENTIALS, type Moto, startMoto, useMotoCredentials } from '../../harness/moto';
import { type Postgres, startPostgres } from '../../harness/postgres';
import { runCampaignCommand } from '../../lib/campaign/run-campaign';
import { costOf } from '../../lib/families';
import { usd } from '../../lib/commands/shared/money';
import { num } from '../../lib/commands/report/report-format';
import { moduleRouteNames } from '../../lib/platform/contract/physical-names';
import { waitUntil } from '../../lib/commands/shared/waiting';
import { recordingIO } from '../support/command-io';
import { tempDir } from '../support/temp-dir';
import { type Kill, campaignRecord, campaignRun as runCampaignProcess, runToKill } from './support/campaign-process';
import { type FolioEnvironment, startFolioEnvironment } from './support/folio-environment';
import { schemasOf, TEST_TENANTS as TENANTS } from '../support/folio-tenants';

/*
 * A FOLIO campaign of two phase switches (baseline -> test1 -> test5), run as `campaign run` runs
 * it, in its own process, on this machine: each switch's modules moved online by `npm run move`'s
 * own code, its mover task run by the stand-in for ECS between two local PostgreSQL servers and
 * switched through the module zone's records; the stack, the clusters, the zone, the task and its
 * log, and the metrics the reports read answered by moto (support/folio-environment.ts). Each load
 * is a wait of 2 minutes, the shortest whose report holds a whole 1-minute point. Its first run
 * stops at the first switch's move, which the mover refuses (tables an online move cannot
 * publish), hibernated; fixed as the mover says, the campaign is SIGKILLed once at every stage and
 * run again each time; it resumes where its record says (waking the environment for the move)
 * and ends with every phase reported once, the environment hibernated.
 */

const catalog = editedCatalog((c) => (c.folio.environment.tenants = TENANTS));
const PHASES = ['baseline', 'test1', 'test5'];
const CAMPAIGN: CampaignInput = {
  name: 'local-phases',
  title: 'Two phase switches on this machine',
  steps: PHASES.map((scenario) => ({ scenario, load: { kind: 'wait', duration: '2m' } })),
  onEnd: 'hibernate',
  estimates: { deploy: '1m', ready: '1m', report: '1m' },
};
/** After the failed move is fixed, once at each stage: step, stage, and how long after it starts (0: at once, before the stage does anything). */
const KILLS: Kill[] = [
  [2, 'move', 1_500],
  [2, 'deploy', 1_000],
  [2, 'ready', 0],
  [2, 'load', 3_000],
  [3, 'plan', 0],
  [3, 'report', 0],
];
const phase = (name: string) => resolveScenario({ scenario: name }, catalog) as FolioScenario;
const { names, database } = phase('baseline').environment;
const MOVED = ['mod-source-record-manager', 'mod-source-record-storage', 'mod-inventory-storage'];
const SWITCH_1 = ['mod-source-record-manager', 'mod-source-record-storage'].flatMap(schemasOf);

let moto: Moto;
let servers: { primary: Postgres; offload: Postgres };
let environment: FolioEnvironment;
const work = tempDir('campaign-folio-');
const out = join(work, 'local-phases');

beforeAll(async () => {
  useMotoCredentials();
  moto = await startMoto();
  const logical = ['wal_level = logical', 'max_replication_slots = 10', 'max_wal_senders = 10', 'max_locks_per_transaction = 256'];
  const [primary, offload] = await Promise.all([startPostgres({ settings: logical }), startPostgres({ settings: logical })]);
  servers = { primary, offload };
  for (const pg of [primary, offload]) await pg.psql(`CREATE DATABASE ${database.databaseName}`);
  await primary.psql(folioSeedSql(TENANTS, 40, { largeValues: 0 }), database.databaseName);
  environment = await startFolioEnvironment({
    aws: { region: phase('baseline').env.region, endpoint: moto.endpoint, credentials: CREDENTIALS },
    catalog,
    deployed: 'baseline',
    servers,
    dir: work,
    deployMs: 3_000,
  });
}, 300_000);

afterAll(async () => {
  await environment?.stop();
  await Promise.all([servers?.primary.stop(), servers?.offload.stop()]);
  moto?.stop();
}, 120_000);

/** What campaign-child.ts is told. */
const childEnv = (): Record<string, string> => ({
  CAMPAIGN: JSON.stringify(CAMPAIGN),
  CATALOG: JSON.stringify(catalog),
  OUT: out,
  ENVIRONMENT_URL: environment.url,
  ENVIRONMENT_STAGES: 'deploy',
  ENDPOINT_URL: moto.endpoint,
});
/** `campaign run` in its own process, to its end. */
const campaignRun = () => runCampaignProcess(childEnv());

const record = () => campaignRecord(out);
const explain = (run: { code: number | null; signal: NodeJS.Signals | null; output: string }) =>
  `campaign run ended ${run.code ?? run.signal}:\n${run.output.slice(-3000)}\nthe environment:\n${environment.ledger.log.join('\n')}\n` +
  `the mover's tasks:\n${environment.movers.runs.map((r) => `${r.taskArn} exit ${r.exitCode}\n${r.output ?? ''}`).join('\n')}`;

const clusterStates = async () => {
  const rds = new RDSClient({ region: phase('baseline').env.region, endpoint: moto.endpoint, credentials: CREDENTIALS });
  const { DBClusters = [] } = await rds.send(new DescribeDBClustersCommand({}));
  rds.destroy();
  return Object.fromEntries(DBClusters.map((c) => [c.DBClusterIdentifier, c.Status]));
};

/** Each table's rows as text, per schema: what a verified copy must equal. */
const contents = (pg: Postgres, schemas: readonly string[]) =>
  pg
    .psql(
      `SELECT coalesce(string_agg(format('SELECT %L, count(*), md5(coalesce(string_agg(t::text, '','' ORDER BY t::text), '''')) FROM %I.%I t', n.nspname || '.' || c.relname, n.nspname, c.relname), ' UNION ALL ' ORDER BY 1), 'SELECT 1')
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN (${schemas.map((s) => `'${s}'`).join(',')}) AND c.relkind = 'r'`,
      database.databaseName,
    )
    .then((q) => pg.psql(`${q} ORDER BY 1`, database.databaseName));

describe('a mover that refuses', () => {
  let run: Awaited<ReturnType<typeof campaignRun>>;
  let sourceBefore: string;
  beforeAll(async () => {
    sourceBefore = await contents(servers.primary, SWITCH_1);
    run = await campaignRun();
  }, 600_000);

  test('stops the campaign at the move, in one line with its own words, the environment hibernated; the source untouched', async () => {
    if (run.code === 0 || run.signal) throw new Error(explain(run));
    // The seed's SRS partitions have neither a primary key nor a replica identity, which an online move cannot publish.
    expect(run.output.trim().split('\n').at(-1)).toMatch(
      /^error: campaign local-phases stopped at step 2 \(test1\), move: mod-source-record-manager, mod-source-record-storage: .*: tables with neither a primary key nor a replica identity; .*; the source is untouched and the move can be run again \(task arn:.*; the environment is hibernated/,
    );
    expect(record()).toMatchObject({ status: 'failed' });
    expect(await clusterStates()).toEqual({ [names.primaryCluster]: 'stopped', [names.offloadCluster]: 'stopped' });
    // Its exit code reached the command through ECS's answer (moto's, with the stand-in's code).
    expect(environment.movers.runs.map((r) => r.exitCode)).toEqual([1]);
    expect(await contents(servers.primary, SWITCH_1)).toBe(sourceBefore);
  });

  afterAll(async () => {
    // What the mover asks for: a replica identity for each table without a primary key (the seed's SRS partitions, inventory's audit table).
    await servers.primary.psql(
      `DO $$ DECLARE t record; BEGIN FOR t IN SELECT c.oid::regclass AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname LIKE 'fs%' AND c.relkind = 'r' AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary)
       LOOP EXECUTE format('ALTER TABLE %s REPLICA IDENTITY FULL', t.name); END LOOP; END $$`,
      database.databaseName,
    );
  });
});

test.each(KILLS)(
  'killed at step %i, %s (%i ms in): the record says where it stopped',
  async (step, stage, after) => {
    await runToKill(childEnv(), out, [step, stage, after], explain);
    // CloudFormation goes on when the campaign's process dies: the next run finds the deploy it left finished, as a run in the morning does.
    if (stage === 'deploy')
      await waitUntil(
        `the deploy of ${PHASES[step - 1]} left in flight to finish`,
        async () => ({ done: environment.ledger.deploys.includes(PHASES[step - 1]), text: environment.ledger.deploys.join(', ') }),
        { timeoutSeconds: 60, intervalSeconds: 0.2 },
      );
  },
  600_000,
);

describe('run again, it resumes and finishes', () => {
  let run: Awaited<ReturnType<typeof campaignRun>>;
  beforeAll(async () => {
    run = await campaignRun();
  }, 600_000);

  test('every phase done once, the clusters stopped (hibernated)', async () => {
    if (run.code !== 0) throw new Error(explain(run));
    const r = record();
    expect(r.status).toBe('done');
    expect(r.steps.map((s) => s.scenario)).toEqual(PHASES);
    expect(r.ended?.environment).toBe('hibernated');
    for (const s of r.steps) expect(Object.keys(s.stages).sort()).toEqual(['deploy', 'load', 'move', 'plan', 'ready', 'report']);
    expect(await clusterStates()).toEqual({ [names.primaryCluster]: 'stopped', [names.offloadCluster]: 'stopped' });
  });

  test('each switch deployed once, the deploy killed in flight finished on its own and found done when resumed', () => {
    expect(environment.ledger.deploys).toEqual(['test1', 'test5']);
    expect(environment.ledger.noops).toEqual(['deploy baseline', 'deploy test1']);
  });

  test("after the refused one, each switch's modules moved by one mover task, the one killed in flight taken over, not started again; each exited 0", () => {
    const runs = environment.movers.runs.slice(1).map((r) => ({ schemas: r.schemas.split(' ').sort(), exitCode: r.exitCode }));
    expect(runs).toEqual([
      { schemas: [...schemasOf('mod-source-record-manager'), ...schemasOf('mod-source-record-storage')].sort(), exitCode: 0 },
      { schemas: schemasOf('mod-inventory-storage').sort(), exitCode: 0 },
    ]);
  });

  test('the moved schemas are on the offload server, row for row as on the primary, and their routes lead there', async () => {
    const moved = MOVED.flatMap(schemasOf);
    const [source, target] = await Promise.all([contents(servers.primary, moved), contents(servers.offload, moved)]);
    expect(target.split('\n')).toHaveLength(source.split('\n').length);
    expect(target).toBe(source);
    const route53 = new Route53Client({ region: phase('baseline').env.region, endpoint: moto.endpoint, credentials: CREDENTIALS });
    const { HostedZones = [] } = await route53.send(new ListHostedZonesCommand({}));
    const { ResourceRecordSets = [] } = await route53.send(new ListResourceRecordSetsCommand({ HostedZoneId: HostedZones[0].Id! }));
    const leadsTo = new Map(ResourceRecordSets.map((r) => [r.Name!.replace(/\.$/, ''), r.ResourceRecords?.[0]?.Value ?? '']));
    for (const m of MOVED) expect(leadsTo.get(moduleRouteNames(names.moduleZone, m).writer)).toMatch(new RegExp(`^${names.offloadCluster}\\.cluster-local\\.`));
    expect(leadsTo.get(moduleRouteNames(names.moduleZone, 'mod-users').writer)).toMatch(new RegExp(`^${names.primaryCluster}\\.cluster-local\\.`));
    route53.destroy();
  });

  test('the campaign report sets the three phases side by side, each read from its own window, and reads the same when made again from the record', async () => {
    const written = readFileSync(join(out, 'report.md'), 'utf8');
    // Each phase's row: its writer, its offload cluster, how many modules it routes there, its window's capacity (the phase's minimum, as published), its day.
    PHASES.forEach((p, i) => {
      const s = phase(p);
      const min = s.phase.offload.serverless!.min;
      const day = usd(costOf(s, loadPrices(s.env.region)).total).replace('$', '\\$');
      const cells = [
        String(i + 1),
        p,
        s.phase.primaryInstanceClass,
        `Serverless v2 ${s.phase.offload.serverless!.min}[^|]*`,
        String(s.routes.filter((r) => r.cluster === 'offload').length),
        '\\d+ min',
        '[\\d.]+%',
        '[\\d.]+%',
        `${num(min, 1)} / ${num(min, 2)} ACU`,
        '\\d+ / \\d+',
        day,
      ];
      expect(written).toMatch(new RegExp(`^\\| ${cells.join(' \\| ')} \\|`, 'm'));
    });
    const io = recordingIO();
    const again = await runCampaignCommand('report', CAMPAIGN.name, { out }, { campaigns: [CAMPAIGN], catalog, io });
    expect(again.stdout).toBe(written);
  });
});
