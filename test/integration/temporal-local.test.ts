import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { TEMPORAL_ROLES, type TemporalScenario, resolveScenario } from '../../config';
import { BENCHMARK_WORKFLOW_TYPES } from '../../config/temporal-schema';
import { PROBE_PASSWORD_VARIABLE, benchmarkEnvironment, dynamicConfig, probeEnvironment } from '../../lib/app/temporal-config';
import { type Postgres, startPostgres } from '../support/postgres';
import { type Worker, runGenerator, startWorker } from './support/benchmark';
import { binaries } from './support/binaries';
import { type LocalCluster, membersOnceFormed, roleFile, startCluster } from './support/temporal-cluster';

/*
 * A real Temporal cluster (upstream server, four processes) started from the stack's own
 * rendering on a real PostgreSQL, then the project's benchmark against it: what a deploy of
 * temporal-150wps starts on ECS, less the two stores that only exist on AWS.
 */

/** The result JSON in the recorded generator log that test/lib/commands/bench reads. */
const recorded = (() => {
  const pages = JSON.parse(readFileSync(join(__dirname, '../fixtures/bench/generator-log.json'), 'utf8')).pages;
  const lines: string[] = pages.flatMap((p: any) => p.events.map((e: any) => e.message));
  return JSON.parse(lines.slice(lines.indexOf('{'), lines.lastIndexOf('}') + 1).join('\n'));
})();

const RATE = 20;
const DURATION = '60s';

let pg: Postgres;
let cluster: LocalCluster;
let worker: Worker | undefined;
const scenario = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
const WORKER_METRICS = scenario.environment.ports.metrics + 10;
const GENERATOR_METRICS = scenario.environment.ports.metrics + 11;

beforeAll(async () => {
  pg = await startPostgres({ maxConnections: 600 });
  cluster = await startCluster({ postgres: pg, scenario: scenario.name });
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await cluster?.stop();
  await pg?.stop();
}, 60_000);

test('the four roles form one cluster: each has a live membership record', async () => {
  expect((await membersOnceFormed(cluster)).sort()).toEqual([...TEMPORAL_ROLES].sort());
});

test('each role wrote the rendered config where the start command puts it, with its own address', () => {
  for (const r of cluster.roles) {
    const config = parse(roleFile(r, 'temporal/config.yaml'));
    expect(config.global.membership.broadcastAddress).toBe('127.0.0.1');
    expect(config.services[r.role].rpc).toMatchObject({ grpcPort: scenario.environment.ports[r.role].grpc, bindOnIP: '0.0.0.0' });
    expect(roleFile(r, 'temporal/dynamicconfig.yaml').trim()).toBe(dynamicConfig(scenario.preset).trim());
  }
});

test('every rendered dynamic-config key loads without a warning in every role', () => {
  for (const role of TEMPORAL_ROLES) {
    const log = cluster.tail(role, 100_000);
    expect(log).toContain('Updated dynamic config');
    expect(log).not.toMatch(/dynamic config (warning|error)|unregistered key/);
  }
});

test('the benchmark program reads every variable the stack renders for it, and knows the same workflow types', () => {
  const help = execFileSync(binaries().benchmark, ['--help'], { encoding: 'utf8' });
  const rendered = [
    ...['worker', 'generator'].flatMap((mode) => Object.keys(benchmarkEnvironment(scenario.preset, mode as 'worker' | 'generator', { frontendAddress: 'x:1', metricsPort: 1 }))),
    // The store probe, for both stores, and the password ECS sets from the Aurora secret.
    ...Object.keys(probeEnvironment(scenario.environment, 'dsql', { storeHost: 'h', tokenEndpoint: 't' })),
    ...Object.keys(probeEnvironment(scenario.environment, 'aurora-postgresql', { storeHost: 'h' })),
    PROBE_PASSWORD_VARIABLE,
  ];
  for (const name of new Set(rendered)) expect(help).toMatch(new RegExp(`^${name}\\s`, 'm'));
  expect(help).toContain(`one of: ${BENCHMARK_WORKFLOW_TYPES.join(', ')}`);
});

test(`the benchmark runs at ${RATE} workflows/s for ${DURATION}: every workflow completes and bench run reads the result`, async () => {
  worker = startWorker(scenario.preset, cluster.frontendAddress, WORKER_METRICS);
  const run = await runGenerator(scenario.preset, cluster.frontendAddress, GENERATOR_METRICS, { BENCHMARK_TARGET_RATE: String(RATE), BENCHMARK_DURATION: DURATION, BENCHMARK_RAMP_UP: '10s' }, 240_000);
  const r = run.result;
  if (!r) throw new Error(`no result from the generator (exit ${run.exitCode}):\n${run.lines.slice(-30).join('\n')}\nworker:\n${worker.output().slice(-3000)}`);
  const x = r.results;
  // 20/s for 60 s with a 10 s linear ramp: 20 × 5 + 20 × 50 starts.
  expect(x.workflowsStarted).toBe(1100);
  expect(x.workflowsCompleted).toBe(x.workflowsStarted);
  expect(x.workflowsFailed).toBe(0);
  expect(r.passed).toBe(true);
  expect(run.exitCode).toBe(0);
  expect(x.latency.p50).toBeGreaterThan(0);
  expect(x.latency.p99).toBeGreaterThanOrEqual(x.latency.p50);
  expect(await pg.psql('SELECT name FROM namespaces ORDER BY name', cluster.stores.database)).toContain(scenario.preset.benchmark.namespace);
  // The recorded log that the bench tests read has the shape this program really prints.
  const keys = (o: Record<string, any>) => Object.keys(o).sort();
  expect(keys(run.raw!)).toEqual(keys(recorded));
  expect(keys(run.raw!.results)).toEqual(keys(recorded.results));
  expect(keys(run.raw!.results.latency)).toEqual(keys(recorded.results.latency));
  console.log(
    `local run, ${RATE}/s for ${DURATION}: ${x.workflowsStarted} started, ${x.workflowsCompleted} completed, ${x.actualRate}/s; ` +
      `latency P50 ${x.latency.p50} ms, P95 ${x.latency.p95} ms, P99 ${x.latency.p99} ms, max ${x.latency.max} ms`,
  );
}, 300_000);

test('the multi-activity workflow type runs too', async () => {
  const run = await runGenerator(
    scenario.preset,
    cluster.frontendAddress,
    GENERATOR_METRICS,
    { BENCHMARK_WORKFLOW_TYPE: 'multi-activity', BENCHMARK_TARGET_RATE: '10', BENCHMARK_DURATION: '10s', BENCHMARK_RAMP_UP: '0s' },
    120_000,
  );
  expect(run.raw?.config).toMatchObject({ workflowType: 'multi-activity', activityCount: 3 });
  expect(run.result?.results).toMatchObject({ workflowsStarted: 100, workflowsCompleted: 100, workflowsFailed: 0 });
  expect(run.exitCode).toBe(0);
}, 180_000);
