import { TEMPORAL_ROLES, TEMPORAL_STOP_ORDER, type TemporalRole, type TemporalScenario, resolveScenario } from '../../config';
import { durationSeconds } from '../../config/fields';
import { type Worker, runGenerator, startWorker, warmUp } from '../../harness/benchmark';
import { membershipSettles } from '../../harness/faults';
import { type Ledger, judgeLedger, readStored } from '../../harness/ledger';
import { freePort } from '../../harness/ports';
import { type Postgres, startPostgres } from '../../harness/postgres';
import { type LocalCluster, type TaskStop, startCluster } from '../../harness/temporal-cluster';

/*
 * What `npm run hibernate` and `npm run wake` do to a cluster, on the rendered four-role cluster:
 * workflows waiting on durable timers, the benchmark worker and every role stopped the ECS way in
 * the order hibernate stops them (TEMPORAL_STOP_ORDER), the whole cluster down while every timer
 * falls due, then each role started again in start order and the worker last. Every workflow
 * completes exactly once after the wake, counted in the history store.
 */

const scenario = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
/** Long enough that hibernating (each role drained in turn) ends before the first timer is due. */
const TIMER_SECONDS = 90;
const RATE = 5;
const STARTS_SECONDS = 10;

let pg: Postgres;
let cluster: LocalCluster;
let worker: Worker | undefined;
const stops: Array<{ role: TemporalRole | 'benchmark-worker'; stop?: TaskStop }> = [];
let firstTimerDue = 0;
let lastTimerDue = 0;
let hibernatedAt = 0;
let wokeAt = 0;
let offered: { workflowIdPrefix: string; workflowsOffered: number; startErrorIds: string[]; startErrors: number };
let whileDown: Awaited<ReturnType<typeof readStored>> = [];
let ledger: Ledger;
let membershipSettled: number | null = null;

beforeAll(async () => {
  pg = await startPostgres({ maxConnections: 800 });
  cluster = await startCluster({ postgres: pg, scenario: scenario.name, databasePrefix: 'hibernate' });
  worker = await startWorker(scenario.preset, cluster.frontendAddress, await freePort());
  await warmUp(scenario.preset, cluster.frontendAddress);

  // Workflows that sleep on a durable timer: the generator starts them and stops waiting at once.
  const started = Date.now();
  const run = await runGenerator(
    scenario.preset,
    cluster.frontendAddress,
    await freePort(),
    {
      BENCHMARK_WORKFLOW_TYPE: 'timer',
      BENCHMARK_TIMER: `${TIMER_SECONDS}s`,
      BENCHMARK_TARGET_RATE: String(RATE),
      BENCHMARK_DURATION: `${STARTS_SECONDS}s`,
      BENCHMARK_RAMP_UP: '0s',
      BENCHMARK_COMPLETION_TIMEOUT: '1s',
    },
    120_000,
  );
  const raw = run.raw;
  if (!raw) throw new Error(`no result from the generator (exit ${run.exitCode}):\n${run.lines.slice(-30).join('\n')}`);
  offered = {
    workflowIdPrefix: raw.config.workflowIdPrefix,
    workflowsOffered: raw.results.workflowsOffered,
    startErrorIds: raw.results.startErrorIds,
    startErrors: raw.results.startErrors,
  };
  firstTimerDue = new Date(raw.window?.start ?? started).getTime() + TIMER_SECONDS * 1000;
  lastTimerDue = new Date(raw.window.lastStart).getTime() + TIMER_SECONDS * 1000;

  // Hibernate: the benchmark workers first, then the roles in the reverse of their start, each drained.
  const stopTimeoutMs = durationSeconds(scenario.environment.deployment.stopTimeout) * 1000;
  await worker.stop();
  worker = undefined;
  stops.push({ role: 'benchmark-worker' });
  const counts = Object.fromEntries(TEMPORAL_ROLES.map((r) => [r, cluster.tasks(r).length])) as Record<TemporalRole, number>;
  for (const role of TEMPORAL_STOP_ORDER) for (const task of cluster.tasks(role)) stops.push({ role, stop: await cluster.stopTask(task, stopTimeoutMs) });
  hibernatedAt = Date.now();

  // Down until every timer has fallen due; the store says none completed meanwhile.
  await new Promise((r) => setTimeout(r, Math.max(0, lastTimerDue - Date.now()) + 5_000));
  whileDown = await readStored(pg, cluster.stores.database, offered.workflowIdPrefix);

  // Wake: each role in start order, then the benchmark workers.
  wokeAt = Date.now();
  for (const role of TEMPORAL_ROLES) for (let i = 0; i < counts[role]; i++) await cluster.startTask(role);
  ({ settledAfter: membershipSettled } = await membershipSettles(cluster, Date.now()));
  worker = await startWorker(scenario.preset, cluster.frontendAddress, await freePort());

  // Every timer overdue: they fire now; wait until the store has them all completed (or give up).
  const deadline = Date.now() + 180_000;
  for (;;) {
    ledger = judgeLedger(offered, await readStored(pg, cluster.stores.database, offered.workflowIdPrefix));
    if (ledger.exactlyOnce || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 2_000));
  }
}, 900_000);

afterAll(async () => {
  await worker?.stop();
  await cluster?.stop();
  await pg?.stop();
}, 120_000);

test('the run offered workflows, and hibernation ended before the first of their timers was due', () => {
  expect(offered.workflowsOffered).toBeGreaterThanOrEqual(RATE * STARTS_SECONDS * 0.8);
  expect(hibernatedAt).toBeLessThan(firstTimerDue);
});

test('hibernate stopped the workers, then worker, frontend, matching and history, each drained within stopTimeout by SIGTERM', () => {
  const order = stops.map((s) => s.role).filter((r, i, all) => all.indexOf(r) === i);
  expect(order).toEqual(['benchmark-worker', 'worker', 'frontend', 'matching', 'history']);
  for (const { stop } of stops.filter((s) => s.stop))
    expect({ killed: stop!.killed, serverGotSignal: stop!.serverGotSignal }).toEqual({ killed: false, serverGotSignal: true });
});

test('while the cluster was down every timer fell due, and the store held each workflow open, none completed', () => {
  expect(wokeAt).toBeGreaterThan(lastTimerDue);
  expect(whileDown).toHaveLength(offered.workflowsOffered - offered.startErrors);
  expect(whileDown.filter((w) => w.status !== 1)).toEqual([]);
});

test('after wake, membership formed again from the new tasks, in start order', () => {
  expect(membershipSettled).not.toBeNull();
});

test('after wake, every workflow completed exactly once, counted in the store', () => {
  expect({
    missing: ledger.missing,
    duplicates: ledger.duplicates,
    notCompleted: ledger.notCompleted,
    unexpected: ledger.unexpected,
    decidable: ledger.decidable,
  }).toEqual({
    missing: [],
    duplicates: [],
    notCompleted: [],
    unexpected: [],
    decidable: true,
  });
  expect(ledger.completedOnce).toBe(offered.workflowsOffered - offered.startErrors + ledger.failedStartsThatRan);
});
