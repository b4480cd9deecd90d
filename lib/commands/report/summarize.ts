import { type ClusterRole, describeOffload, TEMPORAL_ROLES, type FolioScenario, type Scenario, type TemporalScenario } from '../../../config';
import { type MetricCatalog, type Series, seriesById, temporalServices } from '../../contract/metrics';
import type { HistoryStore } from '../../../config/temporal-schema';
import type { PeakAverage, Points } from './fetch';
import { type Bottlenecks, bottleneckFigures, findBottlenecks } from './bottlenecks';
import type { ServerView } from './server-view';
import { firstFailedWindow, type LadderView, ladderView } from './ladder-view';
import type { BottleneckRule } from '../../../config/observability-schema';
import type { Ladder } from '../shared/run-record';
import type { Resume, ResumeReading } from './resumes';
import type { WaitReading } from './wait-events';
import { type Proposal, proposeNext, proposeNextPreset } from './proposals';
import { type BenchmarkOutcome, type ReportWindow, wholeInRun } from './window';

/*
 * The report's arithmetic, on points already fetched. Two kinds of series:
 * - gauges (Average, Maximum, Minimum): peak and average over the points present; a gap is
 *   unknown, not zero, and shows up in `coverage`;
 * - counts (Sum): totals add the points present; per-minute rates (peak and average) are
 *   over the periods present, so a gap neither dilutes a rate nor is taken for an idle minute.
 * Either way, a series with fewer points than the window holds is listed in `coverage`.
 */

export type { PeakAverage };

interface Coverage {
  readonly points: number;
  readonly expected: number;
}

interface ReportBase {
  readonly schemaVersion: 1;
  readonly scenario: string;
  readonly stackName: string;
  /** The points' span; `run`, when the window is a run's, is the run inside it that averages are taken over. */
  readonly window: {
    readonly start: string;
    readonly end: string;
    readonly periodSeconds: number;
    readonly minutes: number;
    readonly run?: { readonly start: string; readonly end: string };
  };
  readonly coverage: Readonly<Record<string, Coverage>>;
  /** Series with no datapoint at all in the window: every figure from them is omitted. */
  readonly missing: readonly string[];
  readonly notes: readonly string[];
}

export interface FolioReport extends ReportBase {
  readonly family: 'folio';
  readonly configured: {
    readonly primaryInstanceClass: string;
    /** The offload cluster in words (describeOffload). */
    readonly offload: string;
    /** The Serverless v2 range; null when the offload cluster is provisioned. */
    readonly acu: { readonly min: number; readonly max: number; readonly ceilingPercentOfMax: number } | null;
    readonly routedToOffload: readonly string[];
  };
  readonly metrics: {
    /** Serverless v2 capacity; null when the offload cluster is provisioned. */
    readonly acu:
      | (PeakAverage & {
          readonly lowest: number | null;
          readonly peakShareOfMax: number | null;
          readonly minutesAtCeiling: number | null;
          readonly shareOfWindowAtCeiling: number | null;
          readonly acuHours: number | null;
          readonly utilization: PeakAverage;
          /** A range that pauses at 0 ACU: the stretches of points at 0 (start of the first, end of the last point); null otherwise. */
          readonly paused: {
            readonly minutes: number;
            readonly stretches: readonly { readonly from: string; readonly to: string; readonly minutes: number }[];
            /** Each resume of the offload writer in the window, from its RDS events: what the first connection waited. Null when they were not read (`resumesUnread` says why). */
            readonly resumes: readonly Resume[] | null;
            readonly resumesUnread: string | null;
            /** Set when RDS no longer kept the window's start: the resumes are from then on. */
            readonly resumesSince: string | null;
          } | null;
        })
      | null;
    readonly cpu: Readonly<Record<ClusterRole, PeakAverage>>;
    readonly connections: Readonly<Record<ClusterRole, PeakAverage>>;
    readonly freeableMemoryLowestBytes: Readonly<Record<ClusterRole, number | null>>;
    readonly dbLoad: Readonly<Record<ClusterRole, PeakAverage>>;
  };
  /** Where the offload writer's load waited (Performance Insights), or why that was not read. */
  readonly waits: WaitReading;
  /** What to try next, from the rules in config (proposals.ts). */
  readonly proposal: Proposal;
}

interface ServiceUsage {
  readonly replicas: number;
  readonly cpu: PeakAverage;
  readonly memory: PeakAverage;
}

export interface TemporalReport extends ReportBase {
  readonly family: 'temporal';
  /** Where the preset keeps Temporal's history. */
  readonly store: HistoryStore;
  readonly workflows: number | null;
  /** The benchmark run's own figures, when the window is a run's (`--run`). */
  readonly benchmark: BenchmarkOutcome | null;
  readonly configured: {
    readonly targetRate: number;
    readonly serverTasks: number;
    /** Every server task's pool full: the connections the store sees at most (preset pools x replicas). */
    readonly poolConnections: number;
    readonly cpuAlarmPercent: number;
  };
  readonly metrics: {
    readonly transactions: {
      readonly totalPerMinute: PeakAverage;
      readonly readOnlyPerMinute: PeakAverage;
      readonly writePerMinute: PeakAverage;
      readonly total: number | null;
      readonly readOnly: number | null;
      readonly write: number | null;
      readonly readOnlyShare: number | null;
      readonly peakPerSecond: number | null;
      /** All transactions (DSQL) or commits (Aurora) in the window over the workflows the run completed. */
      readonly perWorkflow: number | null;
      /** The peak per-minute rate over the run's workflows: the ratio seed 000 reports. */
      readonly peakPerMinuteOverWorkflows: number | null;
    };
    readonly commitLatencyMs: PeakAverage;
    readonly services: Readonly<Record<string, ServiceUsage>>;
    /** The dsql store's own figures. */
    readonly occConflicts?: { readonly total: number | null; readonly peakPerMinute: number | null };
    readonly queryTimeouts?: { readonly total: number | null };
    readonly dsqlConnections?: PeakAverage;
    readonly limiter?: { readonly writes: number | null; readonly throttledWrites: number | null };
    /** The aurora-postgresql store's writer (ACU only for Serverless v2). */
    readonly aurora?: { readonly cpu: PeakAverage; readonly connections: PeakAverage; readonly dbLoad: PeakAverage; readonly acu: PeakAverage | null };
    /** The servers' and workers' own metrics (Prometheus): per-role persistence and the server's view of the run. */
    readonly server: Pick<ServerView, 'persistence' | 'run'>;
  };
  /** Where the servers' metrics were read, and why not when they were not. */
  readonly server: { readonly source: string; readonly stepSeconds: number; readonly unread: string | null };
  readonly bottlenecks: Bottlenecks;
  /** A ladder's steps and the bottleneck at its first failing step, when the window is a ladder's (`--run`). */
  readonly ladder?: LadderView;
  /** What to try next: the remedy for the component ranked first (proposals.ts); for a ladder, at its first failing step. */
  readonly proposal: Proposal;
}

export type Report = FolioReport | TemporalReport;

/**
 * `server`: a Temporal report's view from the servers' own metrics (required for a Temporal
 * scenario); `resumes`: a FOLIO offload cluster's resumes from 0 ACU, where it may pause;
 * `failedStep`: for a ladder's run record, the servers' view over its first step that did not hold.
 */
export function summarize(
  scenario: Scenario,
  catalog: MetricCatalog,
  points: ReadonlyMap<string, Points>,
  window: ReportWindow,
  server?: ServerView,
  resumes?: ResumeReading,
  waits?: WaitReading,
  failedStep?: ServerView,
): Report {
  const ctx = new Context(catalog, points, window);
  if (scenario.family === 'folio')
    return summarizeFolio(scenario, ctx, resumes, waits ?? { offload: null, unread: 'Performance Insights was not asked for this report' });
  if (!server) throw new Error('a Temporal report needs the server view (unreadServer() when it could not be read)');
  return summarizeTemporal(scenario, ctx, server, failedStep);
}

/** Series lookups over one window; differences are computed here, point by point. */
class Context {
  readonly minutes: number;
  readonly coverage: Record<string, Coverage> = {};
  private readonly expected: number;

  constructor(
    private readonly catalog: MetricCatalog,
    private readonly fetched: ReadonlyMap<string, Points>,
    readonly window: ReportWindow,
  ) {
    const ms = window.end.getTime() - window.start.getTime();
    this.minutes = ms / 60_000;
    this.expected = Math.max(1, Math.floor(ms / 1000 / window.periodSeconds));
  }

  points(id: string): Points {
    const p = pointsOf(this.catalog, this.fetched, id);
    this.coverage[id] = { points: p.t.length, expected: this.expected };
    return p;
  }

  /** The values of the points wholly inside a run (all of them when the window is not a run's): what an average is taken over. */
  private whole({ t, v }: Points): number[] {
    return v.filter((_, i) => wholeInRun(this.window, t[i]));
  }

  /** Peak over every point, average over the whole ones (null when none is whole: never an edge's part-idle figure). */
  private peakAverage(p: Points, scale: number): PeakAverage {
    const whole = this.whole(p);
    return p.v.length ? { peak: Math.max(...p.v) * scale, average: whole.length ? mean(whole) * scale : null } : { peak: null, average: null };
  }

  gauge(id: string): PeakAverage {
    return this.peakAverage(this.points(id), 1);
  }

  lowest(id: string): number | null {
    const { v } = this.points(id);
    return v.length ? Math.min(...v) : null;
  }

  /** Total of a count series over the window; null when it has no point (not a zero). */
  total(id: string): number | null {
    const { v } = this.points(id);
    return v.length ? v.reduce((a, b) => a + b, 0) : null;
  }

  /** The series that had no point at all. */
  missing(): string[] {
    return Object.entries(this.coverage)
      .filter(([, c]) => c.points === 0)
      .map(([id]) => id);
  }

  /** The values of the points that overlap [start, end): a stretch inside the window (a ladder's step). */
  within(id: string, start: Date, end: Date): number[] {
    const { t, v } = pointsOf(this.catalog, this.fetched, id);
    return v.filter((_, i) => t[i] + this.window.periodSeconds * 1000 > start.getTime() && t[i] < end.getTime());
  }

  /** A count series as a rate per minute, over the periods that have a point. */
  perMinute(id: string): PeakAverage {
    return this.peakAverage(this.points(id), 60 / this.window.periodSeconds);
  }
}

/** A series' points: fetched, or for a difference, computed where both operands have one. */
export function pointsOf(catalog: MetricCatalog, fetched: ReadonlyMap<string, Points>, id: string): Points {
  const s: Series = seriesById(catalog, id);
  if (s.kind === 'metric') return fetched.get(id) ?? { t: [], v: [] };
  const a = pointsOf(catalog, fetched, s.minuend);
  const b = pointsOf(catalog, fetched, s.subtrahend);
  const bAt = new Map(b.t.map((t, i) => [t, b.v[i]]));
  const t: number[] = [];
  const v: number[] = [];
  a.t.forEach((x, i) => {
    const y = bAt.get(x);
    if (y !== undefined) {
      t.push(x);
      v.push(a.v[i] - y);
    }
  });
  return { t, v };
}

const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

function base(scenario: Scenario, ctx: Context): Omit<ReportBase, 'coverage' | 'missing'> {
  return {
    schemaVersion: 1,
    scenario: scenario.name,
    stackName: scenario.stackName,
    window: {
      start: ctx.window.start.toISOString(),
      end: ctx.window.end.toISOString(),
      periodSeconds: ctx.window.periodSeconds,
      minutes: ctx.minutes,
      ...(ctx.window.run ? { run: { start: ctx.window.run.start.toISOString(), end: ctx.window.run.end.toISOString() } } : {}),
    },
    notes: ctx.window.note ? [ctx.window.note] : [],
  };
}

function summarizeFolio(scenario: FolioScenario, ctx: Context, resumes: ResumeReading | undefined, waits: WaitReading): FolioReport {
  const { phase, routes } = scenario;
  const { percentOfMax } = scenario.environment.observability.alarms.serverlessAtCeiling;
  const range = phase.offload.serverless;
  const both = <T>(f: (key: 'Primary' | 'Offload') => T) => ({ primary: f('Primary'), offload: f('Offload') });
  const metrics: FolioReport['metrics'] = {
    acu: range ? acuFigures(ctx, range.max, percentOfMax, range.min === 0 ? (resumes ?? { unread: 'not read' }) : undefined) : null,
    cpu: both((k) => ctx.gauge(`cpu${k}`)),
    connections: both((k) => ctx.gauge(`connections${k}`)),
    freeableMemoryLowestBytes: both((k) => ctx.lowest(`freeableMemory${k}`)),
    dbLoad: both((k) => ctx.gauge(`dbLoad${k}`)),
  };
  const report: Omit<FolioReport, 'proposal'> = {
    family: 'folio',
    ...base(scenario, ctx),
    configured: {
      primaryInstanceClass: phase.primaryInstanceClass,
      offload: describeOffload(phase.offload),
      acu: range ? { min: range.min, max: range.max, ceilingPercentOfMax: percentOfMax } : null,
      routedToOffload: routes.filter((r) => r.cluster === 'offload').map((r) => r.module),
    },
    metrics,
    waits,
    coverage: ctx.coverage,
    missing: ctx.missing(),
  };
  return { ...report, proposal: proposeNext(report, scenario) };
}

/** A Serverless v2 offload cluster's capacity over the window, against its ceiling. */
function acuFigures(ctx: Context, max: number, percentOfMax: number, pauses: ResumeReading | undefined): NonNullable<FolioReport['metrics']['acu']> {
  const acu = ctx.points('acu');
  const ceiling = (max * percentOfMax) / 100;
  const minutesAtCeiling = (acu.v.filter((x) => x >= ceiling).length * ctx.window.periodSeconds) / 60;
  const gauge = ctx.gauge('acu');
  const none = acu.v.length === 0;
  return {
    ...gauge,
    lowest: ctx.lowest('acu'),
    peakShareOfMax: gauge.peak === null ? null : gauge.peak / max,
    minutesAtCeiling: none ? null : minutesAtCeiling,
    shareOfWindowAtCeiling: none ? null : minutesAtCeiling / ctx.minutes,
    acuHours: none ? null : acu.v.reduce((a, b) => a + b, 0) * (ctx.window.periodSeconds / 3600),
    utilization: ctx.gauge('acuUtilization'),
    paused: pauses
      ? {
          ...pausedStretches(acu, ctx.window.periodSeconds),
          resumes: pauses.resumes ?? null,
          resumesUnread: pauses.unread ?? null,
          resumesSince: pauses.since ?? null,
        }
      : null,
  };
}

/**
 * Where a cluster that may pause sat at 0 ACU: consecutive points at 0, each stretch from its
 * first point to the end of its last. A gap in the data ends a stretch (unknown is not paused).
 */
export function pausedStretches(
  acu: Points,
  periodSeconds: number,
): Pick<NonNullable<NonNullable<FolioReport['metrics']['acu']>['paused']>, 'minutes' | 'stretches'> {
  const step = periodSeconds * 1000;
  const stretches: { from: string; to: string; minutes: number }[] = [];
  let start: number | undefined;
  let last = 0;
  const close = () => {
    if (start === undefined) return;
    stretches.push({ from: new Date(start).toISOString(), to: new Date(last + step).toISOString(), minutes: (last + step - start) / 60_000 });
    start = undefined;
  };
  acu.t.forEach((t, i) => {
    if (start !== undefined && t - last > step) close();
    if (acu.v[i] === 0) {
      start ??= t;
      last = t;
    } else close();
  });
  close();
  return { minutes: stretches.reduce((n, x) => n + x.minutes, 0), stretches };
}

function summarizeTemporal(scenario: TemporalScenario, ctx: Context, server: ServerView, failedStep?: ServerView): TemporalReport {
  const { preset, environment } = scenario;
  const workflows = ctx.window.workflows ?? null;
  const dsql = preset.store.engine === 'dsql';
  const notes: string[] = [];
  let transactions: TemporalReport['metrics']['transactions'];
  if (dsql) {
    const total = ctx.total('totalTx');
    const totalPerMinute = ctx.perMinute('totalTx');
    // The split into read-only and write is taken over the periods where both counts exist.
    const totals = ctx.points('totalTx');
    const write = ctx.points('writeTx');
    const both = new Set(write.t);
    const totalWhereBoth = totals.t.reduce((sum, t, i) => (both.has(t) ? sum + totals.v[i] : sum), 0);
    const writeTotal = ctx.total('writeTx');
    if (write.t.length < totals.t.length)
      notes.push(
        `ReadOnlyTx has points in ${write.t.length} of the ${totals.t.length} periods TotalTx has; the read-only share and write figures cover those ${write.t.length}`,
      );
    transactions = {
      totalPerMinute,
      readOnlyPerMinute: ctx.perMinute('readOnlyTx'),
      writePerMinute: ctx.perMinute('writeTx'),
      total,
      readOnly: ctx.total('readOnlyTx'),
      write: writeTotal,
      readOnlyShare: writeTotal === null ? null : ratio(totalWhereBoth - writeTotal, totalWhereBoth),
      peakPerSecond: totalPerMinute.peak === null ? null : totalPerMinute.peak / 60,
      perWorkflow: workflows && total !== null ? ratio(total, workflows) : null,
      peakPerMinuteOverWorkflows: workflows && totalPerMinute.peak !== null ? totalPerMinute.peak / workflows : null,
    };
  } else {
    // Aurora publishes commits per second, averaged over each period: commits are its transactions.
    const perSecond = ctx.gauge('commits');
    const { v } = ctx.points('commits');
    const total = v.length ? v.reduce((a, b) => a + b, 0) * ctx.window.periodSeconds : null;
    const none = { peak: null, average: null };
    transactions = {
      totalPerMinute: { peak: perSecond.peak === null ? null : perSecond.peak * 60, average: perSecond.average === null ? null : perSecond.average * 60 },
      readOnlyPerMinute: none,
      writePerMinute: none,
      total,
      readOnly: null,
      write: null,
      readOnlyShare: null,
      peakPerSecond: perSecond.peak,
      perWorkflow: workflows && total !== null ? ratio(total, workflows) : null,
      peakPerMinuteOverWorkflows: workflows && perSecond.peak !== null ? (perSecond.peak * 60) / workflows : null,
    };
  }
  const services = Object.fromEntries(
    temporalServices().map((s) => [
      s.label,
      {
        replicas: s.role ? preset.services[s.role].replicas : preset.benchmark.workers.replicas,
        cpu: ctx.gauge(`cpu${s.key}`),
        memory: ctx.gauge(`memory${s.key}`),
      },
    ]),
  );
  const storeMetrics = dsql
    ? {
        occConflicts: { total: ctx.total('occConflicts'), peakPerMinute: ctx.perMinute('occConflicts').peak },
        queryTimeouts: { total: ctx.total('queryTimeouts') },
        dsqlConnections: ctx.gauge('dsqlConnections'),
        limiter: { writes: ctx.total('limiterWrites'), throttledWrites: ctx.total('limiterThrottles') },
      }
    : {
        aurora: {
          cpu: ctx.gauge('storeCpu'),
          connections: ctx.gauge('storeConnections'),
          dbLoad: ctx.gauge('dbLoad'),
          acu: preset.store.engine === 'aurora-postgresql' && preset.store.writer.serverlessAcu ? ctx.gauge('acu') : null,
        },
      };
  const serverTasks = TEMPORAL_ROLES.reduce((n, r) => n + preset.services[r].replicas, 0);
  const head = base(scenario, ctx);
  const commitLatencyMs = ctx.gauge('commitLatency');
  const figures = bottleneckFigures(server, {
    historyCpuPeakPercent: services.history?.cpu.peak ?? null,
    commitLatencyMs: commitLatencyMs.average,
    // Waits and conflicts come from the load: per minute of the run, when the window is a run's (its edges are idle).
    minutes: ctx.window.run ? (ctx.window.run.end.getTime() - ctx.window.run.start.getTime()) / 60_000 : ctx.minutes,
  });
  const ladder = ctx.window.ladder && temporalLadder(ctx, ctx.window.ladder, environment.observability.bottlenecks, failedStep);
  const report: Omit<TemporalReport, 'proposal'> = {
    family: 'temporal',
    ...head,
    notes: [...head.notes, ...notes],
    store: preset.store.engine,
    workflows,
    benchmark: ctx.window.benchmark ?? null,
    configured: {
      targetRate: preset.benchmark.targetRate,
      serverTasks,
      poolConnections: TEMPORAL_ROLES.reduce((n, r) => n + preset.services[r].replicas * preset.pools[r].maxConns, 0),
      cpuAlarmPercent: environment.observability.alarms.cpuHigh.percent,
    },
    metrics: { transactions, commitLatencyMs, services, ...storeMetrics, server: { persistence: server.persistence, run: server.run } },
    server: { source: server.source, stepSeconds: server.stepSeconds, unread: server.unread },
    bottlenecks: findBottlenecks(environment.observability.bottlenecks, figures),
    ...(ladder && { ladder }),
    coverage: ctx.coverage,
    missing: ctx.missing(),
  };
  // A ladder's next preset comes from the step it could not hold, judged on that step alone.
  const at = ladder?.atFirstFailed;
  const judged = at
    ? { ...report, bottlenecks: at.bottlenecks, window: { ...report.window, run: { start: at.start, end: at.end } }, server: { unread: at.unread } }
    : report;
  return { ...report, proposal: proposeNextPreset(judged, scenario) };
}

/** The ladder's steps, and the bottleneck rules on its first failing step: the servers' view over it, CloudWatch's points inside it. */
function temporalLadder(ctx: Context, ladder: Ladder, rules: readonly BottleneckRule[], failedStep: ServerView | undefined): LadderView {
  const w = firstFailedWindow(ladder);
  if (!w || !failedStep) return ladderView(ladder, rules, null);
  const cpu = ctx.within('cpuHistory', w.start, w.end);
  const commit = ctx.within('commitLatency', w.start, w.end);
  return ladderView(ladder, rules, {
    server: failedStep,
    cloudWatch: {
      historyCpuPeakPercent: cpu.length ? Math.max(...cpu) : null,
      commitLatencyMs: commit.length ? mean(commit) : null,
      minutes: (w.end.getTime() - w.start.getTime()) / 60_000,
    },
  });
}
