import { TEMPORAL_ROLES, type TemporalScenario } from '../../../../config';
import type { BottleneckRule } from '../../../../config/observability-schema';
import type { HistoryStore } from '../../../../config/temporal-schema';
import type { MetricCatalog } from '../../../platform/contract/metrics';
import type { PeakAverage, Points } from '../../../commands/report/fetch';
import type { Proposal } from '../../../commands/report/proposals';
import { type ReportBase, SeriesContext, mean, ratio, reportBase } from '../../../commands/report/summarize';
import type { BenchmarkOutcome, ReportWindow } from '../../../commands/report/window';
import type { Ladder } from '../../../commands/shared/run-record';
import { temporalServices } from '../../contract/temporal-metrics';
import { type Bottlenecks, bottleneckFigures, findBottlenecks } from './bottlenecks';
import { firstFailedWindow, type LadderView, ladderView } from './ladder-view';
import type { ServerView } from './server-view';
import { proposeNextPreset } from './temporal-proposals';

/* The Temporal report's figures: the store, the services, the servers' own view, the bottlenecks. */

/**
 * A Temporal preset's window: the store's transactions and latency, every service's use, the
 * servers' own view (`server`; unreadServer() when it could not be read), the bottlenecks;
 * `failedStep`: for a ladder's run record, the servers' view over its first step that did not hold.
 */
export function summarizeTemporal(
  scenario: TemporalScenario,
  catalog: MetricCatalog,
  points: ReadonlyMap<string, Points>,
  window: ReportWindow,
  server: ServerView,
  failedStep?: ServerView,
): TemporalReport {
  const ctx = new SeriesContext(catalog, points, window);
  const { preset, environment } = scenario;
  const workflows = ctx.window.workflows ?? null;
  const notes: string[] = [];
  const transactions = preset.store.engine === 'dsql' ? dsqlTransactions(ctx, workflows, notes) : auroraTransactions(ctx, workflows);
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
  // Read in the order the report's coverage lists them.
  const store = storeMetrics(ctx, scenario);
  const head = reportBase(scenario, ctx);
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
      serverTasks: TEMPORAL_ROLES.reduce((n, r) => n + preset.services[r].replicas, 0),
      poolConnections: TEMPORAL_ROLES.reduce((n, r) => n + preset.services[r].replicas * preset.pools[r].maxConns, 0),
      cpuAlarmPercent: environment.observability.alarms.cpuHigh.percent,
    },
    metrics: { transactions, commitLatencyMs, services, ...store, server: { persistence: server.persistence, run: server.run } },
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

type Transactions = TemporalReport['metrics']['transactions'];

/** DSQL's transactions: total, read-only and write, the split taken over the periods where both counts exist. */
function dsqlTransactions(ctx: SeriesContext, workflows: number | null, notes: string[]): Transactions {
  const total = ctx.total('totalTx');
  const totalPerMinute = ctx.perMinute('totalTx');
  const totals = ctx.points('totalTx');
  const write = ctx.points('writeTx');
  const both = new Set(write.t);
  const totalWhereBoth = totals.t.reduce((sum, t, i) => (both.has(t) ? sum + totals.v[i] : sum), 0);
  const writeTotal = ctx.total('writeTx');
  if (write.t.length < totals.t.length)
    notes.push(
      `ReadOnlyTx has points in ${write.t.length} of the ${totals.t.length} periods TotalTx has; the read-only share and write figures cover those ${write.t.length}`,
    );
  return {
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
}

/** Aurora publishes commits per second, averaged over each period: commits are its transactions. */
function auroraTransactions(ctx: SeriesContext, workflows: number | null): Transactions {
  const perSecond = ctx.gauge('commits');
  const { v } = ctx.points('commits');
  const total = v.length ? v.reduce((a, b) => a + b, 0) * ctx.window.periodSeconds : null;
  const none = { peak: null, average: null };
  return {
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

/** The store's own figures: DSQL's conflicts, timeouts, connections and limiter; or the Aurora writer's. */
function storeMetrics(ctx: SeriesContext, scenario: TemporalScenario) {
  const store = scenario.preset.store;
  if (store.engine === 'dsql')
    return {
      occConflicts: { total: ctx.total('occConflicts'), peakPerMinute: ctx.perMinute('occConflicts').peak },
      queryTimeouts: { total: ctx.total('queryTimeouts') },
      dsqlConnections: ctx.gauge('dsqlConnections'),
      limiter: { writes: ctx.total('limiterWrites'), throttledWrites: ctx.total('limiterThrottles') },
    };
  return {
    aurora: {
      cpu: ctx.gauge('storeCpu'),
      connections: ctx.gauge('storeConnections'),
      dbLoad: ctx.gauge('dbLoad'),
      acu: store.writer.serverlessAcu ? ctx.gauge('acu') : null,
    },
  };
}

/** The ladder's steps, and the bottleneck rules on its first failing step: the servers' view over it, CloudWatch's points inside it. */
function temporalLadder(ctx: SeriesContext, ladder: Ladder, rules: readonly BottleneckRule[], failedStep: ServerView | undefined): LadderView {
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
  /** What to try next: the remedy for the component ranked first (temporal-proposals.ts); for a ladder, at its first failing step. */
  readonly proposal: Proposal;
}
