import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { TEMPORAL_ROLES, type TemporalScenario, resolveScenario } from '../../config';
import { PASSWORD_VARIABLE, POSTGRES_PLUGIN, PROBE_PASSWORD_VARIABLE, probeEnvironment } from '../../lib/temporal/contract/temporal-config';
import { probeResultSchema } from '../../lib/commands/shared/run-record';
import { type Postgres, startPostgres } from '../../harness/postgres';
import { type Worker, runGenerator, startWorker } from '../../harness/benchmark';
import { runInPosture, taskPosture } from '../../harness/task-posture';
import { binaries } from '../../harness/binaries';
import { type LocalCluster, membersOnceFormed, roleFile, startCluster } from '../../harness/temporal-cluster';
import { runSchemaTask } from '../../harness/temporal-stores';

/*
 * The aurora-postgresql store's rendering run for real: upstream's temporal-sql-tool runs the
 * stack's schema command (the schema, then the servers' login and its rights), and four
 * upstream server processes start from the stack's config, logging in as their own user with
 * the token their passwordCommand prints for each new connection (a local stand-in for RDS's
 * IAM authentication: harness/temporal-cluster.ts, localIamAuth), on a PostgreSQL that, like
 * the Aurora cluster (rds.force_ssl=1), admits TLS connections only. Then a short benchmark,
 * a token rotation, and another.
 */

let pg: Postgres;
let cluster: LocalCluster;
let worker: Worker | undefined;
const scenario = resolveScenario({ scenario: 'temporal-aurora-150wps' }) as TemporalScenario;
const METRICS = scenario.environment.ports.metrics;
const aurora = scenario.environment.auroraPostgresql;

/** psql as the servers' user with a token, as a server's new connection logs in. */
const asServer = (token: string, sql: string) =>
  promisify(execFile)(
    join(pg.bin, 'psql'),
    ['-X', '-v', 'ON_ERROR_STOP=1', '-At', '-h', pg.host, '-p', String(pg.port), '-U', aurora.serverUser, '-d', cluster.stores.database, '-c', sql],
    { env: { PATH: '/usr/bin:/bin', PGPASSWORD: token, PGSSLMODE: 'require' } },
  ).then((r) => r.stdout.trim());
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'allowed',
    (e: { stderr?: string }) => String(e.stderr).trim().split('\n')[0],
  );
/** Who the servers are logged in as, and how many connections each. */
const logins = () =>
  pg.psql(`SELECT usename, count(*) FROM pg_stat_activity WHERE datname = '${cluster.stores.database}' AND usename <> current_user GROUP BY usename`);

async function benchmark(rate: number, seconds: number, port: number) {
  const run = await runGenerator(
    scenario.preset,
    cluster.frontendAddress,
    port,
    { BENCHMARK_TARGET_RATE: String(rate), BENCHMARK_DURATION: `${seconds}s`, BENCHMARK_RAMP_UP: '0s' },
    180_000,
  );
  const r = run.result;
  if (!r)
    throw new Error(`no result from the generator (exit ${run.exitCode}):\n${run.lines.slice(-30).join('\n')}\nworker:\n${worker?.output().slice(-3000)}`);
  expect(r.results).toMatchObject({ workflowsStarted: rate * seconds, workflowsCompleted: rate * seconds, workflowsFailed: 0 });
  expect(run.exitCode).toBe(0);
  return r;
}

beforeAll(async () => {
  pg = await startPostgres({ maxConnections: 600, requireTls: true });
  cluster = await startCluster({ postgres: pg, scenario: scenario.name, databasePrefix: 'aurora' });
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await cluster?.stop();
  await pg?.stop();
}, 60_000);

test("the preset renders the upstream plugin, the servers' own user with a token command, and TLS without host verification", () => {
  const config = parse(roleFile(cluster.roles[0], 'temporal/config.yaml'));
  const sql = config.persistence.datastores[config.persistence.defaultStore].sql;
  expect(sql).toMatchObject({
    pluginName: POSTGRES_PLUGIN,
    user: aurora.serverUser,
    tls: { enabled: true, enableHostVerification: false },
    passwordCommand: {
      command: cluster.iam.command,
      args: ['--host', 'store.invalid', '--port', '5432', '--user', aurora.serverUser, '--region', scenario.environment.region],
      timeout: '10s',
    },
  });
  // No password anywhere: not in the file, not in any server's environment.
  expect(sql.password).toBeUndefined();
  for (const task of cluster.roles)
    expect(readFileSync(`/proc/${task.process.pid}/environ`, 'utf8').split('\0')).not.toContainEqual(
      expect.stringMatching(new RegExp(`^${PASSWORD_VARIABLE}=`)),
    );
});

test("every server connection is the servers' user, each opened with a token its command printed with the rendered arguments", async () => {
  expect(await membersOnceFormed(cluster)).toHaveLength(TEMPORAL_ROLES.length);
  expect(await logins()).toMatch(new RegExp(`^${aurora.serverUser}\\|\\d+$`));
  for (const task of cluster.roles) {
    const calls = cluster.iam.calls(task);
    expect(calls.length).toBeGreaterThan(0);
    expect(new Set(calls)).toEqual(new Set([`--host store.invalid --port 5432 --user ${aurora.serverUser} --region ${scenario.environment.region}`]));
  }
});

test("the servers' user has the data rights it uses and nothing more: no DDL, no version rows, no role rights", async () => {
  const token = cluster.iam.current();
  expect(await asServer(token, 'SELECT count(*) > 0 FROM shards')).toBe('t');
  expect(await refusal(asServer(token, 'CREATE TABLE planted (id int)'))).toMatch(/permission denied for schema public/);
  expect(await refusal(asServer(token, 'DROP TABLE shards'))).toMatch(/must be owner of table shards/);
  expect(await refusal(asServer(token, 'DELETE FROM schema_version'))).toMatch(/permission denied for table schema_version/);
  expect(await refusal(asServer(token, 'TRUNCATE executions'))).toMatch(/permission denied for table executions/);
  expect(await refusal(asServer(token, 'SELECT count(*) FROM schema_update_history'))).toMatch(/permission denied for table schema_update_history/);
  expect(await pg.psql(`SELECT rolsuper, rolcreaterole, rolcreatedb, rolinherit FROM pg_roles WHERE rolname = '${aurora.serverUser}'`)).toBe('f|f|f|t');
  expect(
    await pg.psql(
      `SELECT string_agg(b.rolname, ',') FROM pg_auth_members m JOIN pg_roles b ON b.oid = m.roleid JOIN pg_roles r ON r.oid = m.member WHERE r.rolname = '${aurora.serverUser}'`,
    ),
  ).toBe('rds_iam');
});

test('a right it needs, planted away: without reading schema_version a server does not start, and says why', async () => {
  await pg.psql(`REVOKE SELECT ON schema_version FROM ${aurora.serverUser}`, cluster.stores.database);
  try {
    await expect(cluster.startTask('history')).rejects.toThrow(/unable to read DB schema version[^]*permission denied for table schema_version/);
  } finally {
    await pg.psql(`GRANT SELECT ON schema_version TO ${aurora.serverUser}`, cluster.stores.database);
  }
}, 120_000);

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
  const r = await benchmark(10, 20, METRICS + 11);
  console.log(`local aurora-postgresql rendering, 10/s for 20s: latency P50 ${r.results.latency.p50} ms, P99 ${r.results.latency.p99} ms`);
}, 240_000);

test('a new token for every new connection: after a rotation and every connection dropped, the old token is refused and the servers log in with the new one', async () => {
  const old = cluster.iam.current();
  const before = cluster.roles.map((t) => cluster.iam.calls(t).length);
  await cluster.iam.rotate();
  expect(await refusal(asServer(old, 'SELECT 1'))).toMatch(/password authentication failed for user "temporal_server"/);
  await pg.psql(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename = '${aurora.serverUser}'`);
  await benchmark(10, 5, METRICS + 12);
  expect(await logins()).toMatch(new RegExp(`^${aurora.serverUser}\\|\\d+$`));
  const after = cluster.roles.map((t) => cluster.iam.calls(t).length);
  // Each role opened new connections, each with a token asked for then.
  after.forEach((n, i) => expect(n).toBeGreaterThan(before[i]));
}, 240_000);

test("bench run's store probe, as the stack renders it, logs in as the servers do and times 100 round trips over TLS to the store", async () => {
  // The swap: where it connects (this server's address and database), and the token it would
  // sign for the servers' user becomes the local stand-in's; user, TLS mode and count as rendered.
  const {
    PROBE_TOKEN_HOST: tokenHost,
    PROBE_TOKEN_KIND: kind,
    ...rendered
  } = probeEnvironment(scenario.environment, 'aurora-postgresql', { storeHost: pg.host });
  expect([tokenHost, kind, rendered.PROBE_USER]).toEqual([pg.host, 'rds', aurora.serverUser]);
  const env = {
    ...rendered,
    PROBE_PORT: String(pg.port),
    PROBE_DATABASE: cluster.stores.database,
    [PROBE_PASSWORD_VARIABLE]: cluster.iam.current(),
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
