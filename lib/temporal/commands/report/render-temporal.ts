import { markdownTable } from '../../../commands/shared/markdown-table';
import { flag, heading, ms, num, NO_DATA, pct, pctValue, peakPoint, rate } from '../../../commands/report/report-format';
import { pointLength } from '../../../commands/report/window';
import type { PeakAverage } from '../../../commands/report/fetch';
import type { Bottlenecks } from './bottlenecks';
import type { LadderView } from './ladder-view';
import type { Percentiles } from './range-series';
import type { TemporalReport } from './temporal-summary';

/** A Temporal report's body: the store, the services, the servers' view, the run, the bottlenecks. */
export function renderTemporal(r: TemporalReport): string[] {
  const t = r.metrics.transactions;
  const c = r.configured;
  const dsql = r.store === 'dsql';
  const tx = dsql ? 'transactions' : 'commits';
  return [
    ...heading(`Temporal on ${dsql ? 'Aurora DSQL' : 'Aurora PostgreSQL'} report`, r),
    `Target rate ${c.targetRate} workflows/s${r.workflows === null ? '' : `; ${num(r.workflows, 0)} workflows completed`}.`,
    '',
    ...(r.benchmark ? benchmarkSection(r.benchmark) : []),
    ...(dsql ? dsqlTable(r) : auroraTable(r)),
    '',
    `**${dsql ? 'Transaction' : 'Commit'} analysis**`,
    '',
    t.total === null
      ? `- ${tx} in the window: no data (${dsql ? 'TotalTx' : 'CommitThroughput'} has no datapoint)`
      : `- ${num(t.total, 0)} ${tx} in the window`,
    ...(t.peakPerSecond === null ? [] : [`- ~${num(t.peakPerSecond, 0)} ${tx}/second at the peak ${peakPoint(r.window.periodSeconds)}`]),
    ...(t.readOnlyShare === null ? [] : [`- ${pct(t.readOnlyShare)} read-only vs ${pct(1 - t.readOnlyShare)} write`]),
    ...(t.total === null
      ? [`- ${tx} per workflow: not computed (no ${dsql ? 'transaction' : 'commit'} data)`]
      : t.perWorkflow === null
        ? [`- ${tx} per workflow: pass --workflows (or --run) to compute it`]
        : [
            `- ${num(t.perWorkflow, 1)} ${tx} per workflow (${num(t.total, 0)} ${tx} / ${num(r.workflows, 0)} workflows)`,
            r.window.periodSeconds === 60
              ? `- ${num(t.peakPerMinuteOverWorkflows, 1)} = peak ${tx} per minute / workflows (the ratio seed 000 reports as "transactions per workflow")`
              : `- ${num(t.peakPerMinuteOverWorkflows, 1)} = peak ${tx} per minute / workflows, over ${pointLength(r.window.periodSeconds)} points: not seed 000's ratio, which takes the peak 1-minute point (a coarser period averages the peak away; --period 1m gives it)`,
          ]),
    '',
    "## Service CPU and memory (% of the tasks' reservation)",
    '',
    markdownTable(
      ['Service', 'Replicas', 'CPU peak', 'CPU average', 'Memory peak', 'Memory average'],
      Object.entries(r.metrics.services).map(([name, s]) => [
        name,
        num(s.replicas, 0),
        flag(s.cpu.peak, c.cpuAlarmPercent),
        pctValue(s.cpu.average),
        pctValue(s.memory.peak),
        pctValue(s.memory.average),
      ]),
    ),
    '',
    ...(r.metrics.limiter
      ? [
          '## Connection rate limiter',
          '',
          markdownTable(['Writes (WCU)', 'Throttled writes'], [[num(r.metrics.limiter.writes, 0), num(r.metrics.limiter.throttledWrites, 0)]]),
          '',
        ]
      : []),
    ...serverSections(r),
    ...(r.ladder ? ladderSection(r.ladder) : []),
    ...bottleneckSection(r),
  ];
}

const ROLES = ['history', 'matching', 'frontend', 'worker'] as const;
const counts = (m: Readonly<Record<string, number>>) => {
  const e = Object.entries(m).sort((a, b) => b[1] - a[1]);
  return e.length ? e.map(([k, n]) => `${num(n, 0)} ${k}`).join(', ') : 'none';
};
/** P50 / P95 / P99 with the unit said once. */
const pcts = (p: Percentiles) => {
  const v = [p.p50, p.p95, p.p99];
  return v.every((x) => x === null) ? NO_DATA : `${v.map((x) => num(x, 1)).join(' / ')} ms`;
};

/** What a total from the servers' series counts: the window, or only the part of it their samples cover. */
const coverage = (covered: number | null, windowSeconds: number) =>
  covered === null || covered >= windowSeconds
    ? 'in the window'
    : `in the ${num(covered, 0)} s the servers' samples cover, of the window's ${num(windowSeconds, 0)} s`;

/** Seed 000's "Temporal Persistence Metrics" and "Service Health", and the server's view of the run. */
function serverSections(r: TemporalReport): string[] {
  if (r.server.unread)
    return ['## Temporal persistence metrics', '', `Not read: ${r.server.unread}. Every figure from the servers' own metrics says "no data".`, ''];
  const s = r.metrics.server;
  return [
    ...persistenceSection(r),
    '## Service health',
    '',
    markdownTable(
      ['Service', 'Health', 'Evidence'],
      ROLES.map((role) => [role, s.persistence[role].health, s.persistence[role].evidence]),
    ),
    '',
    ...serverViewSection(r),
  ];
}

/** Each role's pool, its waits, conflicts and retries (the DSQL plugin's counters), and its errors. */
function persistenceSection(r: TemporalReport): string[] {
  const s = r.metrics.server;
  const dsql = r.store === 'dsql';
  const notEmitted = 'not emitted';
  return [
    '## Temporal persistence metrics',
    '',
    `From the servers' and workers' own metrics (Prometheus, ${r.server.source}, ${r.server.stepSeconds} s steps).`,
    '',
    markdownTable(
      [
        'Service',
        'Pool max',
        'Open (peak)',
        'In use (peak / average)',
        'Idle (average)',
        'Pool waits',
        'Wait time (cumulative)',
        'OCC conflicts',
        'Retries',
        'Errors by class',
      ],
      ROLES.map((role) => {
        const p = s.persistence[role];
        return [
          role,
          num(p.poolMax, 0),
          num(p.open.peak, 0),
          `${num(p.inUse.peak, 0)} / ${num(p.inUse.average, 1)}`,
          num(p.idle.average, 1),
          dsql ? num(p.poolWaits, 0) : notEmitted,
          dsql ? (p.poolWaitCumulativeSeconds === null ? (p.poolWaits === 0 ? '0 s' : NO_DATA) : `up to ${num(p.poolWaitCumulativeSeconds, 3)} s`) : notEmitted,
          dsql ? num(p.conflicts, 0) : notEmitted,
          dsql ? num(p.retries, 0) : notEmitted,
          counts({ ...p.txErrors, ...p.persistenceErrors }),
        ];
      }),
    ),
    '',
    dsql
      ? "Pool waits, conflicts and retries are the DSQL plugin's own counters; the wait time is the largest cumulative wait a task reported (the plugin records the running total)."
      : 'Upstream\'s PostgreSQL plugin emits no pool-wait or conflict counters ("not emitted"): a locking store has no OCC conflicts.',
    '',
  ];
}

/** What the servers saw of the run: transitions, start and schedule-to-start latency, backlog, polls, slots, the generator, the busiest operations. */
function serverViewSection(r: TemporalReport): string[] {
  const run = r.metrics.server.run;
  const st = run.scheduleToStartMs;
  return [
    "## The server's view of the run",
    '',
    markdownTable(
      ['Figure', 'Value'],
      [
        [
          'State transitions/s (peak / average)',
          `${num(run.stateTransitionsPerSecond.peak, 1)} / ${num(run.stateTransitionsPerSecond.average, 1)}${run.stateTransitions === null ? '' : ` (${num(run.stateTransitions, 0)} ${coverage(run.stateTransitionsCoverSeconds, r.window.minutes * 60)})`}`,
        ],
        ['StartWorkflowExecution at the frontend (P50 / P95 / P99)', pcts(run.startWorkflowLatencyMs)],
        ['Workflow-task schedule-to-start, server (P50 / P95 / P99)', pcts(st.serverWorkflow)],
        ['Activity schedule-to-start, server (P50 / P95 / P99)', pcts(st.serverActivity)],
        ["Workflow-task schedule-to-start, workers' SDK (P50 / P95 / P99)", pcts(st.workerWorkflow)],
        ["Activity schedule-to-start, workers' SDK (P50 / P95 / P99)", pcts(st.workerActivity)],
        ['Matching backlog (peak / average)', `${num(run.backlog.count.peak, 0)} / ${num(run.backlog.count.average, 1)}`],
        ['Oldest backlog task (peak)', run.backlog.agePeakSeconds === null ? NO_DATA : `${num(run.backlog.agePeakSeconds, 1)} s`],
        [
          'Polls: success (sync) / timeouts',
          `${num(run.polls.success, 0)} (${num(run.polls.successSync, 0)}) / ${num(run.polls.timeouts, 0)}${run.polls.successShare === null ? '' : `; ${pct(run.polls.successShare)} found a task`}`,
        ],
        [
          'Worker slots free (lowest, of total)',
          `${num(run.workerSlots.freeLowest, 0)} of ${num(run.workerSlots.total, 0)}${run.workerSlots.freeLowestShare === null ? '' : ` (lowest share per worker type ${pct(run.workerSlots.freeLowestShare)})`}`,
        ],
        [
          'Generator: peak starts/s / offered rate / start errors',
          `${num(run.generator.peakStartsPerSecond, 1)} / ${num(run.generator.targetRate, 1)} / ${num(run.generator.startErrors, 0)}`,
        ],
      ],
    ),
    '',
    '**Persistence latency, busiest operations (all roles)**',
    '',
    run.persistenceP99ByOperation.length
      ? markdownTable(
          ['Operation', 'Requests', 'P99'],
          run.persistenceP99ByOperation.map((o) => [o.operation, num(o.requests, 0), ms(o.p99Ms)]),
        )
      : NO_DATA,
    '',
  ];
}

/** The ranked components that held the run back, with the figures behind each. */
function bottleneckSection(r: TemporalReport): string[] {
  return ['## Where the bottleneck was', '', ...bottleneckTable(r.bottlenecks, 'this run'), ''];
}

/** No rule held: said of what had data only; with no figure at all, nothing is said to have stayed within anything. */
function noneHeld(b: Bottlenecks, what: string): string[] {
  const judged = Object.entries(b.figures).filter(([, v]) => v !== null).length;
  if (!judged) return [];
  return b.unjudged.length
    ? [`None: no rule in config (observability.bottlenecks) held for ${what} among the figures with data; the others were not judged.`]
    : [
        `None: no rule in config (observability.bottlenecks) held for ${what}; workers, matching, history, the store and the generator each stayed within its thresholds.`,
      ];
}

function bottleneckTable(b: Bottlenecks, what: string): string[] {
  return [
    ...(b.ranked.length
      ? [
          markdownTable(
            ['Rank', 'Component', 'Why', 'Evidence'],
            b.ranked.map((f, i) => [String(i + 1), f.component, f.says, f.evidence.join('; ')]),
          ),
        ]
      : noneHeld(b, what)),
    ...(b.unjudged.length ? [...(b.ranked.length || noneHeld(b, what).length ? [''] : []), `Not judged (no data): ${b.unjudged.join(', ')}.`] : []),
  ];
}

/** A ladder: each step against its rate, the highest rate held, and where the first that did not hold was held back. */
function ladderSection(l: LadderView): string[] {
  const at = l.atFirstFailed;
  const first = l.steps.find((s) => !s.held);
  return [
    '## The ladder',
    '',
    `Each rate offered for ${l.step}. A step held when at least ${pct(l.held.completedShareMin)} of what it offered completed, its P99 stayed at or under ${l.held.p99MaxMs} ms, and the open workflows grew by at most ${pct(l.held.openGrowthShareMax)} of its second half's starts (observability.ladder).`,
    '',
    markdownTable(
      ['Offered (wps)', 'Completed (wps)', 'Completed of offered', 'P99', 'Open growth', 'Step'],
      l.steps.map((s) => [
        num(s.rate, 0),
        num(s.figures.completedPerSecond, 1),
        pct(s.figures.completedShare),
        ms(s.figures.p99Ms),
        pct(s.figures.openGrowthShare),
        s.held ? 'held' : `did not hold: ${s.failed.join('; ')}`,
      ]),
    ),
    '',
    l.firstFailed === null
      ? `**Every step held**, up to ${l.highestHeld}/s, the last rate planned: the limit is higher (climb again from ${l.highestHeld}/s).`
      : l.highestHeld === null
        ? `**No step held**: the first, ${l.firstFailed}/s, did not. Start lower.`
        : `**Highest rate held: ${l.highestHeld}/s.** The first that did not: ${l.firstFailed}/s.`,
    '',
    ...(first
      ? [
          `### Where ${first.rate}/s was held back (its step alone, ${first.start} to ${first.end})`,
          '',
          ...(at === null
            ? ["Not judged: the servers' metrics over the step were not read."]
            : at.unread
              ? [`Not judged: the servers' metrics over the step were not read (${at.unread}).`]
              : bottleneckTable(at.bottlenecks, 'this step')),
          '',
        ]
      : []),
  ];
}

/** The run's own figures, and how much of its P99 one store round trip is (seed 004's question). */
function benchmarkSection(b: NonNullable<TemporalReport['benchmark']>): string[] {
  const rt = b.storeRoundTripMs;
  return [
    '## Benchmark',
    '',
    markdownTable(
      ['Workflows/s', 'P50', 'P95', 'P99', 'Max', 'Store round trip (median / P99)'],
      [
        [
          num(b.workflowsPerSecond, 2),
          ms(b.latencyMs.p50),
          ms(b.latencyMs.p95),
          ms(b.latencyMs.p99),
          ms(b.latencyMs.max),
          rt ? `${ms(rt.median)} / ${ms(rt.p99)}` : 'not measured',
        ],
      ],
    ),
    ...(rt
      ? [
          '',
          `One store round trip (median) is ${num((rt.median / b.latencyMs.p99) * 100, 1)}% of the workflows' P99: each persistence call pays it at least once.`,
        ]
      : []),
    '',
  ];
}

function dsqlTable(r: TemporalReport): string[] {
  const t = r.metrics.transactions;
  const c = r.configured;
  const perMin = (p: PeakAverage): [string, string] => [rate(p.peak), rate(p.average)];
  const writeShare = t.readOnlyShare === null ? null : 1 - t.readOnlyShare;
  const m = r.metrics;
  return [
    '## DSQL CloudWatch metrics',
    '',
    markdownTable(
      ['Metric', 'Peak', 'Average', 'Notes'],
      [
        ['TotalTx', ...perMin(t.totalPerMinute), t.peakPerSecond === null ? '' : `${num(t.peakPerSecond, 0)} transactions/s at peak`],
        ['ReadOnlyTx', ...perMin(t.readOnlyPerMinute), t.readOnlyShare === null ? '' : `${pct(t.readOnlyShare)} of total`],
        ['WriteTx', ...perMin(t.writePerMinute), `${writeShare === null ? '' : `${pct(writeShare)} of total; `}TotalTx - ReadOnlyTx (no such metric)`],
        ['Commit latency (P50)', ms(m.commitLatencyMs.peak), ms(m.commitLatencyMs.average), ''],
        ['OCC conflicts', rate(m.occConflicts?.peakPerMinute ?? null), '', `${num(m.occConflicts?.total, 0)} in the window`],
        ['Query timeouts', '', '', `${num(m.queryTimeouts?.total, 0)} in the window`],
        [
          'DSQL connections',
          num(m.dsqlConnections?.peak, 0),
          num(m.dsqlConnections?.average, 0),
          `pools full at ${num(c.poolConnections, 0)} (${c.serverTasks} tasks); account-wide metric`,
        ],
      ],
    ),
  ];
}

/** The Aurora writer in the shape of the DSQL table: throughput, commit latency, load, connections. */
function auroraTable(r: TemporalReport): string[] {
  const t = r.metrics.transactions;
  const c = r.configured;
  const a = r.metrics.aurora!;
  return [
    '## Aurora PostgreSQL CloudWatch metrics (writer)',
    '',
    markdownTable(
      ['Metric', 'Peak', 'Average', 'Notes'],
      [
        [
          'Commits',
          rate(t.totalPerMinute.peak),
          rate(t.totalPerMinute.average),
          t.peakPerSecond === null ? '' : `${num(t.peakPerSecond, 0)} commits/s at peak (CommitThroughput)`,
        ],
        ['Commit latency (average)', ms(r.metrics.commitLatencyMs.peak), ms(r.metrics.commitLatencyMs.average), ''],
        ['Writer CPU', pctValue(a.cpu.peak), pctValue(a.cpu.average), ''],
        ['DB load (active sessions)', num(a.dbLoad.peak, 1), num(a.dbLoad.average, 1), 'DBLoad (Performance Insights)'],
        ...(a.acu ? [['Serverless v2 capacity', `${num(a.acu.peak, 1)} ACU`, `${num(a.acu.average, 1)} ACU`, '']] : []),
        ['Connections', num(a.connections.peak, 0), num(a.connections.average, 0), `pools full at ${num(c.poolConnections, 0)} (${c.serverTasks} tasks)`],
      ],
    ),
  ];
}
