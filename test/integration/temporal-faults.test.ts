import { type TemporalScenario, resolveScenario } from '../../config';
import { durationSeconds } from '../../config/fields';
import { freePort } from '../../harness/ports';
import { type Postgres, startPostgres } from '../../harness/postgres';
import { type Worker, startWorker, warmUp } from '../../harness/benchmark';
import { type FaultContext, type FaultOutcome, describeOutcome, faultLoad, faultSuite, runFault } from '../../harness/faults';
import { type LocalCluster, startCluster } from '../../harness/temporal-cluster';

/*
 * The rendered cluster under the faults a user meets: every role rolled as a deploy rolls it,
 * history and matching killed and replaced, the store restarted, the frontends scaled; the
 * benchmark at a steady rate throughout. No workflow lost or done twice, counted in the store.
 */

const scenario = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;

let pg: Postgres;
let cluster: LocalCluster;
let worker: Worker | undefined;
let context: FaultContext;
const outcomes: FaultOutcome[] = [];

beforeAll(async () => {
  pg = await startPostgres({ maxConnections: 800 });
  cluster = await startCluster({ postgres: pg, scenario: scenario.name, databasePrefix: 'faults' });
  context = { cluster, postgres: pg, stopTimeoutMs: durationSeconds(scenario.environment.deployment.stopTimeout) * 1000 };
  worker = await startWorker(scenario.preset, cluster.frontendAddress, await freePort());
  await warmUp(scenario.preset, cluster.frontendAddress);
}, 300_000);

afterAll(async () => {
  for (const o of outcomes) console.log(describeOutcome(o));
  await worker?.stop();
  await cluster?.stop();
  await pg?.stop();
}, 120_000);

describe.each(faultSuite().map((f) => [f.name, f] as const))('%s', (_, fault) => {
  let o: FaultOutcome;
  beforeAll(async () => {
    o = await runFault(context, fault, faultLoad(fault, scenario.environment));
    outcomes.push(o);
    console.log(describeOutcome(o));
  }, 420_000);

  test('every started workflow completed exactly once, counted in the store', () => {
    const l = o.ledger;
    expect({ missing: l.missing, duplicates: l.duplicates, notCompleted: l.notCompleted, unexpected: l.unexpected, decidable: l.decidable }).toEqual({
      missing: [],
      duplicates: [],
      notCompleted: [],
      unexpected: [],
      decidable: true,
    });
    expect(l.completedOnce + o.run.raw!.results.startErrors - l.failedStartsThatRan).toBe(l.offered);
    expect({ open: o.openAtDeadline, stragglers: o.stragglers }).toEqual({ open: 0, stragglers: [] });
    expect(o.run.raw!.results.workflowsFailed).toBe(0);
  });

  // A start history recorded and no worker heard of waits out its task's timeout and a backoff, and happens only while the fault lasts (harness/lost-starts.ts).
  test('the last workflow closed by the bound lost task starts impose', () => {
    expect(o.lastCloseSeconds).toBeGreaterThan(o.faultWindow.end);
    expect(o.lastCloseSeconds).toBeLessThanOrEqual(o.closeBySeconds);
  });

  test('the run got back to the steady rate', () => {
    expect(o.recoverySeconds).not.toBeNull();
  });

  // A deploy or a scale change is announced (SIGTERM, the DNS record withdrawn): no client may see it fail a start.
  if (fault.graceful)
    test('no start failed', () => {
      expect(o.startErrors).toEqual({});
    });

  test('membership settled: each role is the tasks running now, at their new addresses', () => {
    expect(o.membershipSettled).toBe(true);
  });

  test('tasks stopped the ECS way drained within stopTimeout, the server itself taking SIGTERM', () => {
    for (const s of o.notes.stops) {
      expect({ task: s.task, killed: s.killed, serverGotSignal: s.serverGotSignal }).toEqual({ task: s.task, killed: false, serverGotSignal: true });
      expect(s.drainMs).toBeLessThan(context.stopTimeoutMs);
    }
  });
});
