import { parse } from 'yaml';
import { TEMPORAL_ROLES, type TemporalScenario, resolveScenario } from '../../config';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PASSWORD_VARIABLE, POSTGRES_PLUGIN, PROBE_PASSWORD_VARIABLE, probeEnvironment } from '../../lib/temporal/contract/temporal-config';
import { probeResultSchema } from '../../lib/commands/shared/run-record';
import { type Postgres, startPostgres } from '../../harness/postgres';
import { type Worker, runGenerator, startWorker } from '../../harness/benchmark';
import { runInPosture, taskPosture } from '../../harness/task-posture';
import { binaries } from '../../harness/binaries';
import { type LocalCluster, membersOnceFormed, roleFile, runSchemaTask, startCluster } from '../../harness/temporal-cluster';

/*
 * The aurora-postgresql store's rendering run for real: upstream's temporal-sql-tool runs the
 * stack's schema command, and four upstream server processes start from the stack's config,
 * reading the password the way ECS hands it over, on a PostgreSQL that, like the Aurora
 * cluster (rds.force_ssl=1), admits TLS connections only. Then a short benchmark.
 */

let pg: Postgres;
let cluster: LocalCluster;
let worker: Worker | undefined;
const scenario = resolveScenario({ scenario: 'temporal-aurora-150wps' }) as TemporalScenario;
const METRICS = scenario.environment.ports.metrics;

beforeAll(async () => {
  pg = await startPostgres({ maxConnections: 600, requireTls: true });
  cluster = await startCluster({ postgres: pg, scenario: scenario.name, databasePrefix: 'aurora' });
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await cluster?.stop();
  await pg?.stop();
}, 60_000);

test('the preset renders the upstream plugin, its password as a template, and TLS without host verification', () => {
  const config = parse(roleFile(cluster.roles[0], 'temporal/config.yaml'));
  const sql = config.persistence.datastores[config.persistence.defaultStore].sql;
  expect(sql).toMatchObject({
    pluginName: POSTGRES_PLUGIN,
    user: scenario.environment.auroraPostgresql.user,
    tls: { enabled: true, enableHostVerification: false },
  });
  // The store's password is not in the file the container writes: the server reads it from the variable ECS sets from the secret.
  expect(sql.password).toBe(`{{ env "${PASSWORD_VARIABLE}" }}`);
});

test('the four roles form one cluster, every connection to the store over TLS', async () => {
  expect((await membersOnceFormed(cluster)).sort()).toEqual([...TEMPORAL_ROLES].sort());
  const byTls = await pg.psql(
    `SELECT s.ssl, count(*) FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid) WHERE a.datname = '${cluster.stores.database}' GROUP BY s.ssl`,
  );
  expect(byTls).toMatch(/^t\|\d+$/);
});

test("the schema task's create can run again (after a failed deploy) and its update finds nothing to do", async () => {
  const b = binaries();
  const again = await runSchemaTask(b, scenario, pg, cluster.stores.database, 'create');
  expect(again.elasticsearchCalls).toEqual([
    '--ep https://opensearch.invalid:443 --aws-credentials aws-sdk-default setup-schema',
    `--ep https://opensearch.invalid:443 --aws-credentials aws-sdk-default create-index --index ${scenario.environment.visibility.index}`,
  ]);
  const update = await runSchemaTask(b, scenario, pg, cluster.stores.database, 'update');
  expect(update.output).toMatch(/found zero updates/i);
  // The index's template and mappings are brought to the release as well (a no-op when current).
  expect(update.elasticsearchCalls).toEqual([
    `--ep https://opensearch.invalid:443 --aws-credentials aws-sdk-default update-schema --index ${scenario.environment.visibility.index}`,
  ]);
  const version = await pg.psql(
    'SELECT curr_version FROM schema_version WHERE version_partition = 0 AND db_name = current_database()',
    cluster.stores.database,
  );
  expect(version).toBe(scenario.environment.servers.upstream.schemas.history);
});

test('the benchmark runs on it: every workflow completes', async () => {
  worker = await startWorker(scenario.preset, cluster.frontendAddress, METRICS + 10);
  const run = await runGenerator(
    scenario.preset,
    cluster.frontendAddress,
    METRICS + 11,
    { BENCHMARK_TARGET_RATE: '10', BENCHMARK_DURATION: '20s', BENCHMARK_RAMP_UP: '0s' },
    180_000,
  );
  const r = run.result;
  if (!r) throw new Error(`no result from the generator (exit ${run.exitCode}):\n${run.lines.slice(-30).join('\n')}\nworker:\n${worker.output().slice(-3000)}`);
  expect(r.results).toMatchObject({ workflowsStarted: 200, workflowsCompleted: 200, workflowsFailed: 0 });
  expect(run.exitCode).toBe(0);
  console.log(`local aurora-postgresql rendering, 10/s for 20s: latency P50 ${r.results.latency.p50} ms, P99 ${r.results.latency.p99} ms`);
}, 240_000);

test("bench run's store probe, as the stack renders it, times 100 round trips over TLS to the store", async () => {
  // The swap: where it connects (this server's address and database); user, TLS mode and count as rendered.
  const rendered = probeEnvironment(scenario.environment, 'aurora-postgresql', { storeHost: pg.host });
  const env = {
    ...rendered,
    PROBE_PORT: String(pg.port),
    PROBE_DATABASE: cluster.stores.database,
    [PROBE_PASSWORD_VARIABLE]: pg.password,
    PATH: '/usr/bin:/bin',
  };
  const { stdout: out } = await runInPosture(taskPosture('store-probe'), {}, binaries().benchmark, [], env);
  const result = probeResultSchema.parse(JSON.parse(out));
  expect(result.probe).toMatchObject({ host: pg.host, queries: 100 });
  expect(result.probe.medianMs).toBeGreaterThan(0);
  expect(result.probe.p99Ms).toBeGreaterThanOrEqual(result.probe.medianMs);
  // The recorded probe log that the bench tests read has the shape this program prints.
  const pages = JSON.parse(readFileSync(join(__dirname, '../fixtures/bench/probe-log.json'), 'utf8')).pages;
  const lines: string[] = pages.flatMap((p: any) => p.events.map((e: any) => e.message));
  const recorded = JSON.parse(lines.slice(lines.indexOf('{'), lines.lastIndexOf('}') + 1).join('\n'));
  expect(Object.keys(result.probe).sort()).toEqual(Object.keys(recorded.probe).sort());
  console.log(`store probe on loopback over TLS: median ${result.probe.medianMs} ms, P99 ${result.probe.p99Ms} ms, connect ${result.probe.connectMs} ms`);
});
