import { TEMPORAL_ROLES, type TemporalRole, type TemporalScenario } from '../../../../config';
import type { PeakAverage, Points } from '../../../commands/report/fetch';
import { PrometheusError, type PrometheusReader, type RangeSeries, rangeStep } from './prometheus-reader';
import {
  type Answers,
  type Percentiles,
  byLabel,
  combined,
  gauge,
  histogramQuantile,
  mean,
  of,
  percentilesMs,
  perSecond,
  quantileSeries,
  ratio,
  total,
  windowBuckets,
} from './range-series';
import { type ServerQuery, serverQueries } from '../../contract/server-queries';

/*
 * The servers' and workers' own view of a run, from their Prometheus metrics: seed 000's
 * "Temporal Persistence Metrics" and "Service Health" tables per role, and what the server
 * saw (state transitions, start latency, persistence latency, schedule-to-start, backlog,
 * polls, worker slots). A figure with no sample behind it is null ("no data"), never zero.
 */

type Health = 'healthy' | 'saturated' | 'contended' | 'failing' | 'unknown';

interface PersistenceRow {
  /** Connections the role's pools allow, all its tasks (persistence_sql_max_open_conn). */
  readonly poolMax: number | null;
  readonly open: PeakAverage;
  readonly inUse: PeakAverage;
  readonly idle: PeakAverage;
  /** The busiest task's peak in use over its own pool. */
  readonly inUsePeakShare: number | null;
  /** Waits for a pool connection (DSQL plugin only; null: not emitted by this store's plugin). */
  readonly poolWaits: number | null;
  /** The largest cumulative wait a task reported, seconds, as a bucket's upper bound (DSQL plugin only). */
  readonly poolWaitCumulativeSeconds: number | null;
  readonly conflicts: number | null;
  readonly retries: number | null;
  readonly retriesExhausted: number | null;
  /** The DSQL plugin's transaction errors, by class. */
  readonly txErrors: Readonly<Record<string, number>>;
  /** Persistence errors by type, as the server counts them (both stores). */
  readonly persistenceErrors: Readonly<Record<string, number>>;
  readonly health: Health;
  readonly evidence: string;
}

export interface ServerView {
  /** Where the metrics were read. */
  readonly source: string;
  readonly stepSeconds: number;
  /** Why nothing was read, when nothing was. */
  readonly unread: string | null;
  readonly persistence: Readonly<Record<TemporalRole, PersistenceRow>>;
  readonly run: {
    readonly stateTransitions: number | null;
    /** How much of the window the state-transition series cover (steps with a sample × the step): the span `stateTransitions` counts. */
    readonly stateTransitionsCoverSeconds: number | null;
    readonly stateTransitionsPerSecond: PeakAverage;
    readonly startWorkflowLatencyMs: Percentiles;
    readonly persistenceP99ByOperation: readonly { readonly operation: string; readonly requests: number; readonly p99Ms: number | null }[];
    readonly historyPersistenceP99Ms: number | null;
    readonly scheduleToStartMs: {
      readonly serverWorkflow: Percentiles;
      readonly serverActivity: Percentiles;
      readonly workerWorkflow: Percentiles;
      readonly workerActivity: Percentiles;
    };
    readonly backlog: { readonly count: PeakAverage; readonly agePeakSeconds: number | null };
    readonly polls: {
      readonly success: number | null;
      readonly successSync: number | null;
      readonly timeouts: number | null;
      readonly successShare: number | null;
    };
    readonly workerSlots: { readonly freeLowest: number | null; readonly freeLowestShare: number | null; readonly total: number | null };
    readonly generator: {
      readonly starts: number | null;
      readonly peakStartsPerSecond: number | null;
      readonly targetRate: number | null;
      readonly startErrors: number | null;
    };
  };
  /** Series over time for the charts: id to points. */
  readonly series: Readonly<Record<string, Points>>;
}

/** Fetched answers, by query id. */

export interface ServerWindow {
  readonly start: Date;
  readonly end: Date;
}

/** The range step for a window: four scrapes at least, so every increase spans enough samples. */
function serverStep(window: ServerWindow, scrapeSeconds: number): number {
  return rangeStep((window.end.getTime() - window.start.getTime()) / 1000, 4 * scrapeSeconds);
}

export function queriesFor(scenario: TemporalScenario, stepSeconds: number): ServerQuery[] {
  return serverQueries({ store: scenario.preset.store.engine, namespace: scenario.preset.benchmark.namespace, stepSeconds });
}

/**
 * Runs every query of the view; the first query that fails stops the rest, naming it. The
 * first point is evaluated one step after the window's start: each point's `increase(x[step])`
 * looks back one step, so the points cover the window and nothing before it.
 */
async function fetchServerMetrics(
  reader: PrometheusReader,
  queries: readonly ServerQuery[],
  window: ServerWindow,
  stepSeconds: number,
): Promise<Map<string, RangeSeries[]>> {
  const answers = new Map<string, RangeSeries[]>();
  const first = new Date(window.start.getTime() + stepSeconds * 1000);
  if (first > window.end)
    throw new PrometheusError(
      `the window (${(window.end.getTime() - window.start.getTime()) / 1000} s) is shorter than one step (${stepSeconds} s, four scrapes)`,
    );
  // A few at a time: a workspace allows a handful of concurrent queries per caller.
  for (let i = 0; i < queries.length; i += 4)
    await Promise.all(
      queries.slice(i, i + 4).map(async (q) => {
        answers.set(q.id, await reader.queryRange({ query: q.promql, start: first, end: window.end, stepSeconds }));
      }),
    );
  return answers;
}

// ---- arithmetic on answers ----

const FAULT_CLASSES = /unavailable|timeout|deadline|exhausted|internal|connection|refused/i;

function health(
  row: Omit<PersistenceRow, 'health' | 'evidence'>,
  role: TemporalRole,
  store: TemporalScenario['preset']['store']['engine'],
): { health: Health; evidence: string } {
  if (row.poolMax === null && row.open.peak === null) return { health: 'unknown', evidence: 'no pool metrics from this role in the window' };
  const faults = Object.entries({ ...row.persistenceErrors, ...row.txErrors }).filter(([k]) => FAULT_CLASSES.test(k));
  const evidence: string[] = [];
  const pool = `${num(row.inUse.peak)} of ${num(row.poolMax)} connections in use at peak`;
  if (faults.length || (row.retriesExhausted ?? 0) > 0) {
    if ((row.retriesExhausted ?? 0) > 0) evidence.push(`${row.retriesExhausted} transactions ran out of retries`);
    for (const [k, n] of faults) evidence.push(`${n} × ${k}`);
    return { health: 'failing', evidence: evidence.join('; ') };
  }
  if ((row.poolWaits ?? 0) > 0 || (row.inUsePeakShare ?? 0) >= 1) {
    if ((row.poolWaits ?? 0) > 0) evidence.push(`${row.poolWaits} waits for a pool connection`);
    evidence.push(pool);
    return { health: 'saturated', evidence: evidence.join('; ') };
  }
  if ((row.conflicts ?? 0) > 0) return { health: 'contended', evidence: `${row.conflicts} OCC conflicts, ${row.retries ?? 0} retries; ${pool}` };
  const occ = store === 'dsql' ? (row.conflicts === null ? 'OCC conflicts: no data' : 'No OCC conflicts observed') : 'locking store (no OCC)';
  const waits = store === 'dsql' ? (row.poolWaits === null ? 'pool waits: no data' : 'no pool waits') : 'pool waits not emitted by this plugin';
  return { health: 'healthy', evidence: `${role === 'history' || store === 'dsql' ? `${occ}; ` : ''}${waits}; ${pool}` };
}

const num = (v: number | null) => (v === null ? 'no data' : String(Math.round(v)));

/** The view from the answers: pure, so the recorded answers of a real run give the same view offline. */
export function summarizeServer(scenario: TemporalScenario, answers: Answers, stepSeconds: number, source: string): ServerView {
  const transitions = perSecond(combined(of(answers, 'stateTransitions')), stepSeconds);
  return {
    source,
    stepSeconds,
    unread: null,
    persistence: persistenceRows(answers, scenario.preset.store.engine),
    run: runFigures(answers, stepSeconds, transitions),
    series: {
      stateTransitionsPerSecond: transitions,
      startLatencyP99: quantileSeries(of(answers, 'startLatency'), 0.99),
      serverWorkflowScheduleToStartP50: quantileSeries(of(answers, 'serverScheduleToStart', { task_type: 'Workflow' }), 0.5),
      serverActivityScheduleToStartP50: quantileSeries(of(answers, 'serverScheduleToStart', { task_type: 'Activity' }), 0.5),
      workerWorkflowScheduleToStartP50: quantileSeries(of(answers, 'workerWorkflowScheduleToStart'), 0.5),
      workerActivityScheduleToStartP50: quantileSeries(of(answers, 'workerActivityScheduleToStart'), 0.5),
      backlog: combined(of(answers, 'backlog')),
      ...Object.fromEntries(TEMPORAL_ROLES.map((role) => [`poolInUse.${role}`, combined(of(answers, 'poolInUse', { service_name: role }))])),
    },
  };
}

/** Each role's pool and the DSQL plugin's counters, with the health they add up to. */
function persistenceRows(answers: Answers, store: TemporalScenario['preset']['store']['engine']): Record<TemporalRole, PersistenceRow> {
  const dsql = store === 'dsql';
  return Object.fromEntries(
    TEMPORAL_ROLES.map((role) => {
      const sel = { service_name: role };
      const max = gauge(of(answers, 'poolMax', sel));
      // The DSQL plugin's own pool gauge: while it reports, a counter it never created counted nothing.
      const dsqlPool = dsql ? gauge(of(answers, 'dsqlPoolMax', sel)).peak : null;
      const row = {
        poolMax: max.peak,
        open: gauge(of(answers, 'poolOpen', sel)),
        inUse: gauge(of(answers, 'poolInUse', sel)),
        idle: gauge(of(answers, 'poolIdle', sel)),
        inUsePeakShare: gauge(of(answers, 'poolInUseShare', sel)).peak,
        poolWaits: dsql ? zeroIfServing(total(of(answers, 'poolWaits', sel)), dsqlPool) : null,
        poolWaitCumulativeSeconds: dsql ? histogramQuantile(1, windowBuckets(of(answers, 'poolWaitCumulative', sel))) : null,
        conflicts: dsql ? zeroIfServing(total(of(answers, 'conflicts', sel)), dsqlPool) : null,
        retries: dsql ? zeroIfServing(total(of(answers, 'retries', sel)), dsqlPool) : null,
        retriesExhausted: dsql ? zeroIfServing(total(of(answers, 'retriesExhausted', sel)), dsqlPool) : null,
        txErrors: byLabel(of(answers, 'txErrors', sel), 'error_class'),
        persistenceErrors: byLabel(of(answers, 'persistenceErrors', sel), 'error_type'),
      };
      return [role, { ...row, ...health(row, role, store) }];
    }),
  ) as Record<TemporalRole, PersistenceRow>;
}

/** The run as the servers and workers counted it: transitions, latencies, backlog, polls, slots, the generator. */
function runFigures(answers: Answers, stepSeconds: number, transitions: ReturnType<typeof perSecond>): ServerView['run'] {
  const requests = byLabel(of(answers, 'persistenceRequests'), 'operation');
  const busiest = Object.entries(requests)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 6)
    .map(([operation, n]) => ({ operation, requests: n, p99Ms: percentilesMs(of(answers, 'persistenceLatency', { operation })).p99 }));
  const polls = {
    success: total(of(answers, 'pollSuccess')),
    successSync: total(of(answers, 'pollSuccessSync')),
    timeouts: total(of(answers, 'pollTimeouts')),
  };
  const starts = combined(of(answers, 'generatorStarts'));
  return {
    stateTransitions: total(of(answers, 'stateTransitions')),
    stateTransitionsCoverSeconds: of(answers, 'stateTransitions').length ? combined(of(answers, 'stateTransitions')).t.length * stepSeconds : null,
    stateTransitionsPerSecond: transitions.v.length ? { peak: Math.max(...transitions.v), average: mean(transitions.v) } : { peak: null, average: null },
    startWorkflowLatencyMs: percentilesMs(of(answers, 'startLatency')),
    persistenceP99ByOperation: busiest,
    historyPersistenceP99Ms: percentilesMs(of(answers, 'historyPersistenceLatency')).p99,
    scheduleToStartMs: {
      serverWorkflow: percentilesMs(of(answers, 'serverScheduleToStart', { task_type: 'Workflow' })),
      serverActivity: percentilesMs(of(answers, 'serverScheduleToStart', { task_type: 'Activity' })),
      workerWorkflow: percentilesMs(of(answers, 'workerWorkflowScheduleToStart')),
      workerActivity: percentilesMs(of(answers, 'workerActivityScheduleToStart')),
    },
    backlog: { count: gauge(of(answers, 'backlog')), agePeakSeconds: gauge(of(answers, 'backlogAge')).peak },
    polls: { ...polls, successShare: polls.success === null ? null : ratio(polls.success, polls.success + (polls.timeouts ?? 0)) },
    workerSlots: workerSlots(answers),
    generator: {
      starts: total(of(answers, 'generatorStarts')),
      peakStartsPerSecond: starts.v.length ? Math.max(...starts.v) / stepSeconds : null,
      targetRate: gauge(of(answers, 'generatorTarget')).peak,
      startErrors: total(of(answers, 'generatorStartErrors')),
    },
  };
}

/** The workers' slots: the fewest free, the lowest share free per worker type at any point, and the most there were. */
function workerSlots(answers: Answers): ServerView['run']['workerSlots'] {
  const available = combined(of(answers, 'slotsAvailable'));
  const used = combined(of(answers, 'slotsUsed'));
  const freeShares = ['WorkflowWorker', 'ActivityWorker'].flatMap((type) => {
    const a = combined(of(answers, 'slotsAvailable', { worker_type: type }));
    const u = combined(of(answers, 'slotsUsed', { worker_type: type }));
    const uAt = new Map(u.t.map((t, i) => [t, u.v[i]]));
    return a.t.flatMap((t, i) => (uAt.has(t) && a.v[i] + uAt.get(t)! > 0 ? [a.v[i] / (a.v[i] + uAt.get(t)!)] : []));
  });
  return {
    freeLowest: available.v.length ? Math.min(...available.v) : null,
    freeLowestShare: freeShares.length ? Math.min(...freeShares) : null,
    total: available.v.length && used.v.length ? Math.max(...available.v.map((x, i) => x + (used.v[i] ?? 0))) : null,
  };
}

/**
 * A counter the plugin creates on its first increment: absent while the plugin reported its
 * pool means none happened; absent with no pool gauge either means no data.
 */
function zeroIfServing(count: number | null, pluginPool: number | null): number | null {
  return count ?? (pluginPool === null ? null : 0);
}

/** The view when the metrics could not be read: every figure "no data", and why. */
export function unreadServer(scenario: TemporalScenario, source: string, why: string): ServerView {
  return { ...summarizeServer(scenario, new Map(), 60, source), unread: why };
}

/**
 * Reads the view over a window: every query at the window's step, then the figures. What stops
 * the endpoint from answering (refused, not found, unsigned, no credentials) becomes the
 * view's `unread` reason, so the rest of the report is still written; a bug still throws.
 */
export async function readServerView(
  scenario: TemporalScenario,
  reader: PrometheusReader,
  window: ServerWindow,
  scrapeSeconds: number,
): Promise<{ view: ServerView; answers: Map<string, RangeSeries[]> | null }> {
  const step = serverStep(window, scrapeSeconds);
  const source = reader.endpoint.url;
  try {
    const answers = await fetchServerMetrics(reader, queriesFor(scenario, step), window, step);
    return { view: summarizeServer(scenario, answers, step, source), answers };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    const reachable =
      err instanceof PrometheusError ||
      err.name === 'CredentialsProviderError' ||
      err.name === 'TimeoutError' ||
      (err instanceof TypeError && err.message === 'fetch failed');
    if (!reachable) throw e;
    const why =
      err instanceof TypeError
        ? `${new URL(source).host} could not be reached (${err.cause?.code ?? err.cause?.message ?? 'fetch failed'})`
        : err.message.split('\n')[0];
    return { view: unreadServer(scenario, source, why), answers: null };
  }
}
