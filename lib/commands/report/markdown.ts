import { markdownTable } from '../markdown';
import type { FolioReport, PeakAverage, Report, TemporalReport } from './summarize';

/** Markdown tables in the shape of the seed reports. Deterministic: no clock, no locale. */
export function renderMarkdown(report: Report, charts: readonly { file: string; title: string }[] = []): string {
  const body = report.family === 'folio' ? folio(report) : temporal(report);
  const gaps = Object.entries(report.coverage).filter(([, c]) => c.points < c.expected);
  const series = Object.keys(report.coverage).length;
  const missing = report.missing.length;
  const notice =
    missing === series
      ? [`**No data at all** in this window: none of the ${series} series has a datapoint. Check the window (times are UTC), the region, --env-name${report.family === 'temporal' && report.store === 'dsql' ? ' and the DSQL cluster id' : ''}, or whether anything ran. Every figure below says "no data"; none is a zero.`, '']
      : missing
        ? [`**No data** for ${missing} of ${series} series in this window: ${report.missing.join(', ')}. Their figures below say "no data", and figures derived from them are left out.`, '']
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
          markdownTable(['Series', 'Points', 'Expected'], gaps.map(([id, c]) => [id, num(c.points), num(c.expected)])),
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
    `Stack \`${r.stackName}\`; window ${w.start} to ${w.end} (${num(w.minutes, 1)} min, ${w.periodSeconds} s points).`,
    '',
  ];
}

function folio(r: FolioReport): string[] {
  const c = r.configured;
  const m = r.metrics;
  const ceilingShare = m.acu.shareOfWindowAtCeiling;
  return [
    ...heading('FOLIO hybrid Aurora report', r),
    `Writer ${c.writerInstanceClass}; Serverless v2 ${c.acuMin}-${c.acuMax} ACU; routed to Serverless: ${c.routedToServerless.join(', ') || 'none'}.`,
    '',
    `## Serverless v2 capacity (configured ${c.acuMin}-${c.acuMax} ACU)`,
    '',
    markdownTable(
      ['Metric', 'Value'],
      [
        ['Peak ACU', m.acu.peak === null ? NO_DATA : `${num(m.acu.peak, 1)} (${pct(m.acu.peakShareOfMax)} of max)`],
        ['Average ACU', num(m.acu.average, 1)],
        ['Lowest ACU', num(m.acu.lowest, 1)],
        [`Time at ceiling (>= ${c.ceilingPercentOfMax}% of ${c.acuMax} ACU)`, m.acu.minutesAtCeiling === null ? NO_DATA : `${num(m.acu.minutesAtCeiling, 0)} min (${pct(ceilingShare)} of the window)`],
        ['ACU-hours', num(m.acu.acuHours, 2)],
        ['ACU utilization (peak / average)', `${pctValue(m.acuUtilization.peak)} / ${pctValue(m.acuUtilization.average)}`],
      ],
    ),
    '',
    '## Writer CPU',
    '',
    markdownTable(['Cluster', 'Peak', 'Average'], [
      [`provisioned (${c.writerInstanceClass})`, pctValue(m.cpu.provisioned.peak), pctValue(m.cpu.provisioned.average)],
      [`Serverless v2 (${c.acuMin}-${c.acuMax} ACU)`, pctValue(m.cpu.serverless.peak), pctValue(m.cpu.serverless.average)],
    ]),
    '',
    '## Connections, memory and load',
    '',
    markdownTable(
      ['Cluster', 'Connections peak', 'Connections average', 'Freeable memory lowest', 'DB load peak', 'DB load average'],
      (['provisioned', 'serverless'] as const).map((k) => [
        k,
        num(m.connections[k].peak, 0),
        num(m.connections[k].average, 0),
        bytes(m.freeableMemoryLowestBytes[k]),
        num(m.dbLoad[k].peak, 1),
        num(m.dbLoad[k].average, 1),
      ]),
    ),
    '',
  ];
}

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
    t.total === null ? `- ${tx} in the window: no data (${dsql ? 'TotalTx' : 'CommitThroughput'} has no datapoint)` : `- ${num(t.total, 0)} ${tx} in the window`,
    ...(t.peakPerSecond === null ? [] : [`- ~${num(t.peakPerSecond, 0)} ${tx}/second at the peak minute`]),
    ...(t.readOnlyShare === null ? [] : [`- ${pct(t.readOnlyShare)} read-only vs ${pct(1 - t.readOnlyShare)} write`]),
    ...(t.total === null
      ? [`- ${tx} per workflow: not computed (no ${dsql ? 'transaction' : 'commit'} data)`]
      : t.perWorkflow === null
      ? [`- ${tx} per workflow: pass --workflows (or --run) to compute it`]
      : [
          `- ${num(t.perWorkflow, 1)} ${tx} per workflow (${num(t.total, 0)} ${tx} / ${num(r.workflows, 0)} workflows)`,
          `- ${num(t.peakPerMinuteOverWorkflows, 1)} = peak ${tx} per minute / workflows (the ratio seed 000 reports as "transactions per workflow")`,
        ]),
    '',
    '## Service CPU and memory (% of the tasks\' reservation)',
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
      ? ['## Connection rate limiter', '', markdownTable(['Writes (WCU)', 'Throttled writes'], [[num(r.metrics.limiter.writes, 0), num(r.metrics.limiter.throttledWrites, 0)]]), '']
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
      [[num(b.workflowsPerSecond, 2), ms(b.latencyMs.p50), ms(b.latencyMs.p95), ms(b.latencyMs.p99), ms(b.latencyMs.max), rt ? `${ms(rt.median)} / ${ms(rt.p99)}` : 'not measured']],
    ),
    ...(rt ? ['', `One store round trip (median) is ${num((rt.median / b.latencyMs.p99) * 100, 1)}% of the workflows' P99: each persistence call pays it at least once.`] : []),
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
        ['Commits', rate(t.totalPerMinute.peak), rate(t.totalPerMinute.average), t.peakPerSecond === null ? '' : `${num(t.peakPerSecond, 0)} commits/s at peak (CommitThroughput)`],
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
