import { markdownTable } from '../shared/markdown-table';
import type { FolioReport, PeakAverage, Report, TemporalReport } from './summarize';
import type { Percentiles } from './server-view';
import type { Bottlenecks } from './bottlenecks';
import type { LadderView } from './ladder-view';
import { pointLength } from './window';

/** Markdown tables in the shape of the seed reports. Deterministic: no clock, no locale. */
export function renderMarkdown(report: Report, charts: readonly { file: string; title: string }[] = []): string {
  const body = report.family === 'folio' ? folio(report) : temporal(report);
  const gaps = Object.entries(report.coverage).filter(([, c]) => c.points < c.expected);
  const series = Object.keys(report.coverage).length;
  const missing = report.missing.length;
  const notice =
    missing === series
      ? [
          `**No data at all** in this window: none of the ${series} series has a datapoint. Check the window (times are UTC), the region, --env-name${report.family === 'temporal' && report.store === 'dsql' ? ' and the DSQL cluster id' : ''}, or whether anything ran. Every figure below says "no data"; none is a zero.`,
          '',
        ]
      : missing
        ? [
            `**No data** for ${missing} of ${series} series in this window: ${report.missing.join(', ')}. Their figures below say "no data", and figures derived from them are left out.`,
            '',
          ]
        : [];
  return [
    ...body.slice(0, 4),
    ...notice,
    ...body.slice(4),
    ...(charts.length ? ['## Charts', '', ...charts.map((c) => `![${c.title}](${c.file})`), ''] : []),
    ...(gaps.length
      ? [
          '## Data coverage',
          '',
          'Series with fewer points than the window holds (gaps are unknown, not zero, for gauges):',
          '',
          markdownTable(
            ['Series', 'Points', 'Expected'],
            gaps.map(([id, c]) => [id, num(c.points), num(c.expected)]),
          ),
          '',
        ]
      : []),
    ...(report.notes.length ? ['## Notes', '', ...report.notes.map((n) => `- ${n}`), ''] : []),
  ].join('\n');
}

function heading(title: string, r: Report): string[] {
  const w = r.window;
  return [
    `# ${title}: ${r.scenario}`,
    '',
    `Stack \`${r.stackName}\`; window ${w.start} to ${w.end} (${num(w.minutes, 1)} min, ${w.periodSeconds} s points)${w.run ? `, covering the run ${w.run.start} to ${w.run.end}` : ''}.`,
    '',
  ];
}

function folio(r: FolioReport): string[] {
  const c = r.configured;
  const m = r.metrics;
  return [
    ...heading('FOLIO hybrid Aurora report', r),
    `Primary writer ${c.primaryInstanceClass}; offload cluster ${c.offload}; routed to the offload cluster: ${c.routedToOffload.join(', ') || 'none'}.`,
    '',
    ...(c.acu && m.acu ? capacity(c.acu, m.acu) : []),
    '## Writer CPU',
    '',
    markdownTable(
      ['Cluster', 'Peak', 'Average'],
      [
        [`primary (${c.primaryInstanceClass})`, pctValue(m.cpu.primary.peak), pctValue(m.cpu.primary.average)],
        [`offload (${c.offload})`, pctValue(m.cpu.offload.peak), pctValue(m.cpu.offload.average)],
      ],
    ),
    '',
    '## Connections, memory and load',
    '',
    markdownTable(
      ['Cluster', 'Connections peak', 'Connections average', 'Freeable memory lowest', 'DB load peak', 'DB load average'],
      (['primary', 'offload'] as const).map((k) => [
        k,
        num(m.connections[k].peak, 0),
        num(m.connections[k].average, 0),
        bytes(m.freeableMemoryLowestBytes[k]),
        num(m.dbLoad[k].peak, 1),
        num(m.dbLoad[k].average, 1),
      ]),
    ),
    '',
    ...waitLines(r.waits),
    ...proposalLines(r),
  ];
}

/** Where the offload writer's load waited, or why that is not known. */
function waitLines(w: FolioReport['waits']): string[] {
  if (!w.offload) return ['## Where the offload writer waited', '', `Not read: ${w.unread ?? 'no load in the window'}.`, ''];
  return [
    '## Where the offload writer waited',
    '',
    `Database load by wait event (Performance Insights); I/O waits: ${pct(w.offload.ioShare)} of it.`,
    '',
    markdownTable(
      ['Wait event', 'Type', 'Share of load'],
      w.offload.top.map((e) => [e.name, e.type, pct(e.share)]),
    ),
    '',
  ];
}

/** The proposal: what to deploy next and why, each reason a figure against its threshold. */
function proposalLines(r: Report): string[] {
  const p = r.proposal;
  const lead =
    p.status === 'proposed' || p.status === 'blocked'
      ? `**${p.rule}**: ${p.says}.`
      : p.status === 'unchanged'
        ? `Nothing to change: ${p.says}.`
        : `No proposal: ${p.says}.`;
  return [
    '## What to try next',
    '',
    lead,
    '',
    ...(p.evidence.length ? [`From: ${p.evidence.join('; ')}.`, ''] : []),
    ...p.caveats.map((c) => `Caveat: ${c}.`),
    ...(p.caveats.length ? [''] : []),
    ...(p.next
      ? [
          `As a ${r.family === 'folio' ? 'phase' : 'preset'}: \`proposal.next.phase\` in report.json, named \`${p.next.phase.name}\` (\`npm run plan -- --from ${r.scenario} --proposal <this report.json>\` shows what deploying it does; add it to \`config/${r.family === 'folio' ? 'folio-phases' : 'temporal-scenarios'}.ts\` to deploy it). What it changes:`,
          '',
          '```text',
          ...p.next.diff,
          '```',
          '',
        ]
      : []),
  ];
}

/** The Serverless v2 offload cluster's capacity section. */
function capacity(c: NonNullable<FolioReport['configured']['acu']>, a: NonNullable<FolioReport['metrics']['acu']>): string[] {
  return [
    `## Serverless v2 capacity (configured ${c.min}-${c.max} ACU)`,
    '',
    markdownTable(
      ['Metric', 'Value'],
      [
        ['Peak ACU', a.peak === null ? NO_DATA : `${num(a.peak, 1)} (${pct(a.peakShareOfMax)} of max)`],
        ['Average ACU', num(a.average, 1)],
        ['Lowest ACU', num(a.lowest, 1)],
        [
          `Time at ceiling (>= ${c.ceilingPercentOfMax}% of ${c.max} ACU)`,
          a.minutesAtCeiling === null ? NO_DATA : `${num(a.minutesAtCeiling, 0)} min (${pct(a.shareOfWindowAtCeiling)} of the window)`,
        ],
        ['ACU-hours', num(a.acuHours, 2)],
        ['ACU utilization (peak / average)', `${pctValue(a.utilization.peak)} / ${pctValue(a.utilization.average)}`],
        ...(a.paused
          ? [['Paused (0 ACU)', `${num(a.paused.minutes, 0)} min in ${a.paused.stretches.length} stretch${a.paused.stretches.length === 1 ? '' : 'es'}`]]
          : []),
      ],
    ),
    '',
    ...(a.paused?.stretches.length
      ? [
          markdownTable(
            ['Paused from', 'Resumed by', 'Minutes'],
            a.paused.stretches.map((x) => [x.from, x.to, num(x.minutes, 0)]),
          ),
          '',
        ]
      : []),
    ...(a.paused ? resumeLines(a.paused) : []),
  ];
}

/** What the first connection after each pause waited, from the writer's RDS events. */
function resumeLines(p: NonNullable<NonNullable<FolioReport['metrics']['acu']>['paused']>): string[] {
  if (p.resumes === null) return [`What the first connection after a pause waited was not read: ${p.resumesUnread ?? 'no reason given'}.`, ''];
  const since = p.resumesSince ? ` (RDS keeps events 14 days: from ${p.resumesSince})` : '';
  if (!p.resumes.length) return [`The offload writer did not resume in the window${since}: no "Initiated resume" event.`, ''];
  return [
    markdownTable(
      ['Resume started', 'First connection waited (s)'],
      p.resumes.map((r) => [r.at, r.waitedSeconds === null ? "not resumed by the window's end" : num(r.waitedSeconds, 1)]),
    ),
    '',
    `From the offload writer's RDS events${since}: each resume from its start ("Initiated resume") to its end ("Successfully resumed"), which is what the connection that woke it waited.`,
    '',
  ];
}

/** What a peak is the peak of: a minute, or an average over a coarser point (`--period`). */
const peakPoint = (periodSeconds: number) => (periodSeconds === 60 ? 'minute' : `${pointLength(periodSeconds)} point (its average)`);

function temporal(r: TemporalReport): string[] {
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
    ...proposalLines(r),
  ];
}

const ROLES = ['history', 'matching', 'frontend', 'worker'] as const;
const counts = (m: Readonly<Record<string, number>>) => {
  const e = Object.entries(m).sort((a, b) => b[1] - a[1]);
  return e.length ? e.map(([k, n]) => `${num(n, 0)} ${k}`).join(', ') : 'none';
};
const pcts = (p: Percentiles) => [ms(p.p50), ms(p.p95), ms(p.p99)];

/** What a total from the servers' series counts: the window, or only the part of it their samples cover. */
const coverage = (covered: number | null, windowSeconds: number) =>
  covered === null || covered >= windowSeconds
    ? 'in the window'
    : `in the ${num(covered, 0)} s the servers' samples cover, of the window's ${num(windowSeconds, 0)} s`;

/** Seed 000's "Temporal Persistence Metrics" and "Service Health", and the server's view of the run. */
function serverSections(r: TemporalReport): string[] {
  const s = r.metrics.server;
  const dsql = r.store === 'dsql';
  const source = `From the servers' and workers' own metrics (Prometheus, ${r.server.source}, ${r.server.stepSeconds} s steps).`;
  if (r.server.unread)
    return ['## Temporal persistence metrics', '', `Not read: ${r.server.unread}. Every figure from the servers' own metrics says "no data".`, ''];
  const notEmitted = 'not emitted';
  const run = s.run;
  const st = run.scheduleToStartMs;
  return [
    '## Temporal persistence metrics',
    '',
    source,
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
    '## Service health',
    '',
    markdownTable(
      ['Service', 'Health', 'Evidence'],
      ROLES.map((role) => [role, s.persistence[role].health, s.persistence[role].evidence]),
    ),
    '',
    "## The server's view of the run",
    '',
    markdownTable(
      ['Figure', 'Value'],
      [
        [
          'State transitions/s (peak / average)',
          `${num(run.stateTransitionsPerSecond.peak, 1)} / ${num(run.stateTransitionsPerSecond.average, 1)}${run.stateTransitions === null ? '' : ` (${num(run.stateTransitions, 0)} ${coverage(run.stateTransitionsCoverSeconds, r.window.minutes * 60)})`}`,
        ],
        ['StartWorkflowExecution at the frontend (P50 / P95 / P99)', pcts(run.startWorkflowLatencyMs).join(' / ')],
        ['Workflow-task schedule-to-start, server (P50 / P95 / P99)', pcts(st.serverWorkflow).join(' / ')],
        ['Activity schedule-to-start, server (P50 / P95 / P99)', pcts(st.serverActivity).join(' / ')],
        ["Workflow-task schedule-to-start, workers' SDK (P50 / P95 / P99)", pcts(st.workerWorkflow).join(' / ')],
        ["Activity schedule-to-start, workers' SDK (P50 / P95 / P99)", pcts(st.workerActivity).join(' / ')],
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

function bottleneckTable(b: Bottlenecks, what: string): string[] {
  return [
    ...(b.ranked.length
      ? [
          markdownTable(
            ['Rank', 'Component', 'Why', 'Evidence'],
            b.ranked.map((f, i) => [String(i + 1), f.component, f.says, f.evidence.join('; ')]),
          ),
        ]
      : [
          `None: no rule in config (observability.bottlenecks) held for ${what}; workers, matching, history, the store and the generator each stayed within its thresholds.`,
        ]),
    ...(b.unjudged.length ? ['', `Not judged (no data): ${b.unjudged.join(', ')}.`] : []),
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

const FORMATS = new Map<number, Intl.NumberFormat>();
/** 1,234.5 with at most `digits` decimals; n/a when there is no value. */
/** What a figure without a datapoint behind it shows: never a zero. */
const NO_DATA = 'no data';

export function num(v: number | null | undefined, digits = 2): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NO_DATA;
  if (!FORMATS.has(digits)) FORMATS.set(digits, new Intl.NumberFormat('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 }));
  return FORMATS.get(digits)!.format(v);
}
const pct = (share: number | null) => (share === null ? NO_DATA : `${num(share * 100, 0)}%`);
const pctValue = (v: number | null) => (v === null ? NO_DATA : `${num(v, 0)}%`);
const rate = (v: number | null) => (v === null ? NO_DATA : `${num(v, 0)}/min`);
const ms = (v: number | null) => (v === null ? NO_DATA : `${num(v, 1)} ms`);
const flag = (v: number | null, threshold: number) => (v !== null && v >= threshold ? `**${pctValue(v)}** (at or above ${threshold}%)` : pctValue(v));
function bytes(v: number | null): string {
  return v === null ? NO_DATA : `${num(v / 2 ** 30, 1)} GiB`;
}
