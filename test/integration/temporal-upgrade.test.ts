import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEMPORAL_ROLES, type TemporalScenario, resolveScenario } from '../../config';
import { durationSeconds } from '../../config/fields';
import { type Binaries, binaries } from '../../harness/binaries';
import { freePort } from '../../harness/ports';
import { type Postgres, startPostgres } from '../../harness/postgres';
import { type Worker, startWorker, warmUp } from '../../harness/benchmark';
import { type FaultContext, type FaultOutcome, describeOutcome, runFault, upgrade } from '../../harness/faults';
import { type LocalCluster, startCluster } from '../../harness/temporal-cluster';

/*
 * A Temporal upgrade under load, as a deploy of a new release runs it: the cluster of the
 * aurora-postgresql store (the one that runs upstream's server) starts on the older release
 * config names, the benchmark offers a steady rate, and mid-run the new release's schema task
 * brings the store (and the visibility store) up, then every role rolls onto the new image in
 * start order. Every offered workflow completes exactly once, counted in the store. The
 * older release reads no passwordCommand, so its servers log in as the master user with the
 * password; the new release's schema task creates the servers' own login, and each rolled
 * task logs in with it, by IAM token (the local stand-in): the move a deploy makes.
 */

const scenario = resolveScenario({ scenario: 'temporal-aurora-150wps' }) as TemporalScenario;
const { upstream } = scenario.environment.servers;
// Long enough for four roles to roll (the frontend's drain alone is 25 s) inside the run.
const LOAD = { rate: 10, duration: '110s', faultAtSeconds: 12, completionTimeout: '120s' };

let pg: Postgres;
let cluster: LocalCluster;
let worker: Worker | undefined;
let from: Binaries;
let to: Binaries;
let outcome: FaultOutcome | undefined;

/** What a release's SQL tool brings a store to (schema/postgresql/v12/version.go of its source). */
function schemaVersions(b: Binaries): { history: string; visibility: string } {
  const text = readFileSync(join(b.serverSource, 'schema/postgresql/v12/version.go'), 'utf8');
  return { history: /const Version = "([\d.]+)"/.exec(text)![1], visibility: /const VisibilityVersion = "([\d.]+)"/.exec(text)![1] };
}

/** Who the servers' connections to the store log in as. */
const logins = async () =>
  (await pg.psql(`SELECT DISTINCT usename FROM pg_stat_activity WHERE datname = '${cluster.stores.database}' AND usename <> current_user ORDER BY 1`)).split(
    '\n',
  );
const { user: master, serverUser } = scenario.environment.auroraPostgresql;

const storedVersion = (db: string) => pg.psql('SELECT curr_version FROM schema_version WHERE version_partition = 0 AND db_name = current_database()', db);

beforeAll(async () => {
  [from, to] = [binaries(upstream.upgradeTestedFrom), binaries(upstream.release)];
  pg = await startPostgres({ maxConnections: 800, requireTls: true });
  cluster = await startCluster({ postgres: pg, scenario: scenario.name, databasePrefix: 'upgrade', binaries: from });
  worker = await startWorker(scenario.preset, cluster.frontendAddress, await freePort());
  await warmUp(scenario.preset, cluster.frontendAddress);
}, 300_000);

afterAll(async () => {
  if (outcome) console.log(describeOutcome(outcome));
  await worker?.stop();
  await cluster?.stop();
  await pg?.stop();
}, 120_000);

test("the cluster starts on the older release, its store at that release's schema", async () => {
  expect(cluster.tasks().map((t) => t.release)).toEqual(TEMPORAL_ROLES.map(() => upstream.upgradeTestedFrom));
  expect(await storedVersion(cluster.stores.database)).toBe(schemaVersions(from).history);
  expect(schemaVersions(from).history).not.toBe(upstream.schemas.history);
  // The older release's login: the master user and its password; no token asked for.
  expect(await logins()).toEqual([master]);
  for (const task of cluster.tasks()) expect(cluster.iam.calls(task)).toEqual([]);
});

test(`the upgrade to ${upstream.release} under load: schema first, every role rolled, every offered workflow completed exactly once`, async () => {
  const context: FaultContext = { cluster, postgres: pg, stopTimeoutMs: durationSeconds(scenario.environment.deployment.stopTimeout) * 1000 };
  outcome = await runFault(context, upgrade(to), LOAD);
  const o = outcome;
  expect(o.ledger).toMatchObject({ missing: [], duplicates: [], notCompleted: [], exactlyOnce: true });
  expect({ open: o.openAtDeadline, stragglers: o.stragglers }).toEqual({ open: 0, stragglers: [] });
  expect(o.lastCloseSeconds).toBeLessThanOrEqual(o.closeBySeconds);
  expect(o.ledger.offered).toBeGreaterThanOrEqual(LOAD.rate * durationSeconds(LOAD.duration) * 0.9);
  // Each role's old task was replaced once, by a task of the new release, and stopped within its drain.
  expect(o.notes.started).toHaveLength(TEMPORAL_ROLES.length);
  for (const s of o.notes.stops) expect([s.task, s.killed, s.serverGotSignal]).toEqual([s.task, false, true]);
  expect(cluster.tasks().map((t) => t.release)).toEqual(TEMPORAL_ROLES.map(() => upstream.release));
  expect(o.membershipSettled).toBe(true);
  // The store is at the new release's schema, which config records.
  expect(await storedVersion(cluster.stores.database)).toBe(upstream.schemas.history);
  expect(await storedVersion(cluster.stores.visibilityDatabase)).toBe(upstream.schemas.visibility);
  expect(schemaVersions(to)).toEqual(upstream.schemas);
  // Every rolled task logs in as the servers' own user, each connection with a token; the old tasks' logins are gone.
  expect(await logins()).toEqual([serverUser]);
  for (const task of cluster.tasks()) expect(cluster.iam.calls(task).length).toBeGreaterThan(0);
}, 600_000);
