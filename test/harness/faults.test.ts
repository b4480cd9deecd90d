import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEMPORAL_ROLES, type TemporalRole, type TemporalScenario, resolveScenario } from '../../config';
import { describeOutcome, type FaultOutcome, faultLoad, faultSuite, membershipSettles } from '../../harness/faults';
import { recovery } from '../../harness/recovery';
import { logDigest, stragglers } from '../../harness/server-logs';
import type { RoleProcess } from '../../harness/temporal-cluster';
import { fakeTime } from '../support/fake-time';
import { tempDir } from '../support/temp-dir';

/* The recovery figure fed runs that did and did not come back; the membership check fed rows that did and did not settle. */

const series = (completed: number[], latencyP99MsByStart = completed.map(() => 100)) => ({ completed, latencyP99MsByStart, intervalSeconds: 1 });
const steady = Array(10).fill(10);

test('a run the fault did not touch recovered at once, second-to-second noise included', () => {
  expect(recovery(series([...steady, 9, 11, 8, 12, 10, ...steady]), 10, 10, 100, 25)).toBe(0);
});

test('a dip counts until its last bad second ends', () => {
  expect(recovery(series([...steady, 10, 2, 0, 0, 25, 10, ...steady]), 10, 10, 100, 26)).toBe(4);
});

test('starts with a P99 far above the steady one are not recovered, whatever the rate', () => {
  const lat = [...Array(12).fill(100), 4000, ...Array(13).fill(100)];
  expect(recovery(series(Array(26).fill(10), lat), 10, 10, 100, 26)).toBe(3);
});

test('a run still down when the load ended never recovered', () => {
  expect(recovery(series([...steady, 10, 10, 0, 0, 0, 0, 0, 0]), 10, 10, 100, 18)).toBeNull();
});

test('starts that stay slow after the rate is back never recovered', () => {
  const lat = [...Array(12).fill(100), ...Array(14).fill(4000)];
  expect(recovery(series(Array(26).fill(10), lat), 10, 10, 100, 26)).toBeNull();
});

test('one slow second alone, long after the run was back, is noise; two in a row, or two close together, are not', () => {
  // Stalled 11 to 13, back from 14; a lone slow second at 30 (held 16 s before it), the load on to 40.
  const stall = [...Array(11).fill(100), 9000, 9000, 9000, ...Array(26).fill(100)];
  const lone = stall.map((v, i) => (i === 30 ? 900 : v));
  expect(recovery(series(Array(40).fill(10), lone), 10, 10, 100, 40)).toBe(4);
  // Two in a row at 30 and 31: the run was not back until after them.
  const pair = stall.map((v, i) => (i === 30 || i === 31 ? 900 : v));
  expect(recovery(series(Array(40).fill(10), pair), 10, 10, 100, 40)).toBe(22);
  // Lone ones 3 s apart (30, 33): the second is not alone enough.
  const close = stall.map((v, i) => (i === 30 || i === 33 ? 900 : v));
  expect(recovery(series(Array(40).fill(10), close), 10, 10, 100, 40)).toBe(24);
  // Two in a row too near the end: not back for 5 s before the load ended.
  const late = stall.map((v, i) => (i === 36 || i === 37 ? 900 : v));
  expect(recovery(series(Array(40).fill(10), late), 10, 10, 100, 40)).toBeNull();
});

test('a workflow the fault stalled counts against the second it started in, not the second it arrived in', () => {
  // Started at second 11, back 20 s later: the seconds after it served new work at the rate.
  const lat = [...Array(11).fill(100), 20_000, ...Array(18).fill(100)];
  expect(recovery(series(Array(30).fill(10), lat), 10, 10, 100, 30)).toBe(2);
});

describe('membership', () => {
  const running = Object.fromEntries(TEMPORAL_ROLES.map((r, i) => [r, [`127.0.0.${20 + i}`]])) as Record<TemporalRole, string[]>;
  /** A cluster whose membership table answers `rows(seconds since the fault ended)`. */
  const cluster = (clock: ReturnType<typeof fakeTime>, end: number, rows: (seconds: number) => Partial<Record<TemporalRole, string[]>>) => ({
    memberAddresses: async () => rows((clock.now() - end) / 1000),
    tasks: (role?: TemporalRole) => (role ? running[role] : []).map((ip) => ({ ip }) as RoleProcess),
  });

  test('settles when the stopped task ages out, and says how long after the fault that was', async () => {
    const clock = fakeTime();
    const end = clock.now();
    const rows = (s: number) => ({ ...running, history: s < 12 ? [...running.history, '127.0.0.10'] : running.history });
    expect(await membershipSettles(cluster(clock, end, rows), end, clock)).toEqual({ membership: running, settledAfter: 12 });
  });

  test('a stopped task that stays a member, or a running one that never joins, is not settled', async () => {
    for (const rows of [() => ({ ...running, matching: [...running.matching, '127.0.0.11'] }), () => ({ ...running, worker: [] })]) {
      const clock = fakeTime();
      const end = clock.now();
      expect((await membershipSettles(cluster(clock, end, rows), end, clock)).settledAfter).toBeNull();
      expect(clock.now() - end).toBeGreaterThan(40_000);
    }
  });
});

describe('stragglers', () => {
  /** A store whose visibility rows are `answers[n]` on the n-th read (the last one after that). */
  const store = (answers: string[]) => {
    const reads: string[] = [];
    const psql = async (sql: string, database?: string) => {
      reads.push(`${database}: ${sql}`);
      return answers[Math.min(reads.length, answers.length) - 1];
    };
    return { reads, context: { cluster: { stores: { visibilityDatabase: 'faults_visibility' }, dir: logs } as never, postgres: { psql } } };
  };
  const logs = tempDir('faults-logs-');
  writeFileSync(
    join(logs, 'history-1.log'),
    [
      '{"level":"warn","ts":"2026-11-28T13:54:31.677Z","msg":"Fail to process task","wf-id":"w-1","error":"context deadline exceeded","attempt":2}',
      '{"level":"info","ts":"2026-11-28T13:54:20.000Z","msg":"Started","wf-id":"w-10"}',
      'not JSON, naming "w-1"',
    ].join('\n'),
  );
  writeFileSync(join(logs, 'matching-2.log'), '{"level":"info","ts":"2026-11-28T13:54:30.001Z","msg":"Workflow task not found","wf-id":"w-1"}\n');
  writeFileSync(join(logs, 'ignored.txt'), '"w-1"');

  test('a passing run has none and reads nothing', async () => {
    const s = store([]);
    expect(await stragglers(s.context, [])).toEqual([]);
    expect(s.reads).toEqual([]);
  });

  test('waits for each to close, then says when it did, how long its history grew and what the servers logged naming it', async () => {
    const clock = fakeTime();
    const s = store(['w-1||', 'w-1||', 'w-1|41.237|14']);
    expect(await stragglers(s.context, ['w-1'], 120_000, clock)).toEqual([
      {
        id: 'w-1',
        closedAfterSeconds: 41.2,
        events: 14,
        // By time, from every task's log; a line that is not JSON is kept as it is.
        logged: [
          '2026-11-28T13:54:30.001Z matching-2: Workflow task not found',
          '2026-11-28T13:54:31.677Z history-1: Fail to process task (context deadline exceeded)',
          'history-1: not JSON, naming "w-1"',
        ],
      },
    ]);
    expect(s.reads).toHaveLength(3);
    expect(s.reads[0]).toMatch(/^faults_visibility: SELECT .* FROM executions_visibility WHERE workflow_id IN \('w-1'\)/);
  });

  test('one still open, or missing from the store, when the wait ends is said to be open', async () => {
    const clock = fakeTime();
    const s = store(['w-1|12|13\nw-2||']);
    expect(await stragglers(s.context, ['w-1', 'w-2', 'w-3'], 10_000, clock)).toEqual([
      { id: 'w-1', closedAfterSeconds: 12, events: 13, logged: expect.arrayContaining([expect.stringContaining('Fail to process task')]) },
      { id: 'w-2', closedAfterSeconds: null, events: null, logged: [] },
      { id: 'w-3', closedAfterSeconds: null, events: null, logged: [] },
    ]);
    expect(clock.now() - Date.parse('2026-01-21T10:00:00Z')).toBeGreaterThan(10_000);
  });
});

test("a troubled run's warnings: each task's kinds counted, the most frequent first, with their first and last time", () => {
  const dir = tempDir('faults-digest-');
  const line = (level: string, ts: string, msg: string, error?: string) => JSON.stringify({ level, ts: `2026-11-29T${ts}Z`, msg, ...(error ? { error } : {}) });
  writeFileSync(
    join(dir, 'history-2.log'),
    [
      line('warn', '13:40:34.100', 'Fail to process task', 'context deadline exceeded'),
      line('info', '13:40:34.200', 'Acquired shard'),
      line('warn', '13:40:35.000', 'Fail to process task', 'context canceled'),
      line('warn', '13:40:48.900', 'Fail to process task', 'context deadline exceeded'),
      line('error', '13:40:49.000', 'Persistent fetch operation Failure', `GetWorkflowExecution: failed. ${'x'.repeat(300)}`),
      'SIGQUIT: quit',
      '{"level":"warn", truncated',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'matching-2.log'), `${line('info', '13:40:30.000', 'started')}\n`);
  writeFileSync(join(dir, 'frontend-2.log'), `${line('warn', '13:41:00.000', 'one')}\n${line('warn', '13:41:01.000', 'two')}\n`);
  const digest = logDigest(dir);
  expect(digest).toEqual([
    'frontend-2: 1 × one, 13:41:00.000',
    'frontend-2: 1 × two, 13:41:01.000',
    'history-2: 2 × Fail to process task (context deadline exceeded), 13:40:34.100 to 13:40:48.900',
    'history-2: 1 × Fail to process task (context canceled), 13:40:35.000',
    `history-2: 1 × Persistent fetch operation Failure (GetWorkflowExecution: failed. ${'x'.repeat(160 - 'GetWorkflowExecution: failed. '.length)}), 13:40:49.000`,
  ]);
  expect(logDigest(dir, 1)).toEqual([digest[0], digest[2]]);
});

test('a run that was not back says, interval by interval from the fault, what kept it out', () => {
  const raw = { series: { intervalSeconds: 1, completed: [10, 10, 10, 2, 0, 9.6], latencyP99MsByStart: [50, 50, 50, 4939.8, 0, 60] } };
  const o = {
    fault: 'PostgreSQL restarted',
    notes: { stops: [] },
    run: { raw },
    ledger: { completedOnce: 50, offered: 50, missing: [], duplicates: [], notCompleted: [] },
    faultWindow: { start: 3.2, end: 3.8 },
    steadyP99Ms: 50,
    faultP99Ms: 4939.8,
    recoverySeconds: null,
    startErrors: {},
    openAtDeadline: 0,
    stragglers: [],
    membershipSettled: true,
    membershipSettledSeconds: 0,
    warnings: [],
    lostStarts: { windowSeconds: 0.6, losses: 1, closeBySeconds: 16.6 },
    closeBySeconds: 19.8,
    lastCloseSeconds: 6,
  } as unknown as FaultOutcome;
  expect(describeOutcome(o)).toContain('; last close by 6 s (bound 19.8 s: 1 lost start(s) in a 0.6 s window); ');
  expect(describeOutcome(o)).toContain('not back at the rate before the load ended (from 3 s, every 1 s: completed 2 0 10; P99 ms by start 4940 0 60)');
  expect(describeOutcome(o)).not.toContain('warned');
  // Hundreds open: the first five in full, the rest counted; the servers' warnings last.
  const open = Array.from({ length: 7 }, (_, i) => ({ id: `w-${i}`, closedAfterSeconds: null, events: null, logged: [] }));
  const troubled = describeOutcome({ ...o, openAtDeadline: 7, stragglers: open, warnings: ['history-2: 680 × Fail to process task', 'matching-2: 3 × x'] });
  expect(troubled).toContain('open at deadline 7 (w-0 still open, w-1 still open, w-2 still open, w-3 still open, w-4 still open, and 2 more);');
  expect(troubled).toMatch(/; the servers warned: history-2: 680 × Fail to process task \| matching-2: 3 × x$/);
});

test('each fault plans the drains and waits it sits out from the rendered environment, so its load runs past them', () => {
  const { environment } = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
  const planned = Object.fromEntries(faultSuite().map((f) => [f.name, f.plannedSeconds(environment)]));
  expect(planned).toEqual({
    'rolling deploy: history': 0,
    'rolling deploy: matching': 5,
    // failHealthCheck 15 s, then drain 10 s.
    'rolling deploy: frontend': 25,
    'rolling deploy: worker': 0,
    'SIGKILL history, replaced after 5 s': 5,
    'SIGKILL matching, replaced after 5 s': 5,
    'PostgreSQL restarted (fast shutdown, start)': 0,
    'frontend scaled 1 → 2 → 1': 30,
  });
  const slower = {
    ...environment,
    deployment: { ...environment.deployment, shutdown: { ...environment.deployment.shutdown, frontend: { failHealthCheck: '20s', drain: '15s' } } },
  };
  expect(
    faultSuite()
      .find((f) => f.name === 'rolling deploy: frontend')!
      .plannedSeconds(slower),
  ).toBe(35);
});

test("each fault's load runs 60 s past the end it plans; the bench may set its own rate and start", () => {
  const { environment } = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
  const named = (name: string) => faultSuite().find((f) => f.name === name)!;
  expect(faultLoad(named('rolling deploy: matching'), environment)).toEqual({ rate: 10, faultAtSeconds: 12, duration: '77s', completionTimeout: '90s' });
  expect(faultLoad(named('rolling deploy: frontend'), environment).duration).toBe('97s');
  expect(faultLoad(named('rolling deploy: history'), environment, { rate: 50, faultAtSeconds: 20 })).toMatchObject({ rate: 50, duration: '80s' });
});
