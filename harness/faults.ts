import { TEMPORAL_ROLES, type TemporalEnvironment, type TemporalRole } from '../config';
import { durationSeconds } from '../config/fields';
import { rollingDeployment } from '../config/packing';
import type { Postgres } from './postgres';
import { freePort } from './ports';
import { type GeneratorRun, runGenerator } from './benchmark';
import { type Ledger, judgeLedger, readStored } from './ledger';
import { DISPATCH_SLACK_SECONDS, type LostStartBound, lostStartBound } from './lost-starts';
import type { LocalCluster, RoleProcess, TaskStop } from './temporal-cluster';
import { runSchemaTask, updateLocalVisibility } from './temporal-stores';
import type { Binaries } from './binaries';
import { describeStragglers, logDigest, type Straggler, stragglers } from './server-logs';
import { recovery, type RunSeries } from './recovery';

/*
 * Faults injected into a local cluster while the benchmark offers a steady rate, and what
 * each one cost: workflows lost or done twice (counted from the store), start errors, the
 * time back to the steady rate and the worst per-second P99 against the steady one.
 * Shared by the integration suite (which asserts) and npm run bench:faults (which measures).
 */

export interface FaultContext {
  readonly cluster: LocalCluster;
  readonly postgres: Postgres;
  /** The rendered container stopTimeout: SIGKILL this long after SIGTERM. */
  readonly stopTimeoutMs: number;
}

/** What a fault did, as it happened. */
interface FaultNotes {
  /** Each task stopped the ECS way. */
  readonly stops: readonly (TaskStop & { readonly task: string })[];
  /** Tasks started while the fault ran. */
  readonly started: readonly string[];
}

export interface Fault {
  readonly name: string;
  /** Announced the ECS way (SIGTERM, the DNS record withdrawn first), as a deploy or a scale change is. */
  readonly graceful: boolean;
  /** How long its injection takes by design (the drains and waits it sits out), from the rendered environment. */
  readonly plannedSeconds: (e: TemporalEnvironment) => number;
  readonly inject: (c: FaultContext) => Promise<FaultNotes>;
}

/** What a stopped task of a role sits out after SIGTERM, as the environment renders it. */
function shutdownSeconds(e: TemporalEnvironment, role: TemporalRole): number {
  const s = e.deployment.shutdown;
  if (role === 'frontend') return durationSeconds(s.frontend.failHealthCheck) + durationSeconds(s.frontend.drain);
  return role === 'worker' ? 0 : durationSeconds(s[role].drain);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A rolling deploy of one role as ECS runs it with the rendered percentages: with
 * minimumHealthyPercent 100 it starts the surge's new tasks, waits for their health checks,
 * then stops as many old ones (SIGTERM, SIGKILL after stopTimeout); one task per role here.
 */
function rollingDeploy(role: TemporalRole): Fault {
  return {
    name: `rolling deploy: ${role}`,
    graceful: true,
    plannedSeconds: (e) => shutdownSeconds(e, role),
    inject: async ({ cluster, stopTimeoutMs }) => {
      const e = cluster.scenario.environment;
      const old = cluster.tasks(role);
      // A preset may roll more gently than the environment, as the stack renders it.
      const { surge } = rollingDeployment(
        old.length,
        e.deployment.minimumHealthyPercent,
        cluster.scenario.preset.deployment?.maximumPercent ?? e.deployment.maximumPercent,
      );
      if (surge < 1) throw new Error(`${role}: the rendered deployment percentages allow no new task before an old one stops`);
      const stops: FaultNotes['stops'][number][] = [];
      const started: string[] = [];
      for (let i = 0; i < old.length; i += surge) {
        const batch = old.slice(i, i + surge);
        for (const _ of batch) started.push((await cluster.startTask(role)).id);
        for (const t of batch) stops.push({ task: t.id, ...(await cluster.stopTask(t, stopTimeoutMs)) });
      }
      return { stops, started };
    },
  };
}

/** SIGKILL, unannounced; ECS starts a replacement (a new address) after delayMs. */
function killAndReplace(role: TemporalRole, delayMs: number): Fault {
  return {
    name: `SIGKILL ${role}, replaced after ${delayMs / 1000} s`,
    graceful: false,
    plannedSeconds: () => delayMs / 1000,
    inject: async ({ cluster }) => {
      const [victim] = cluster.tasks(role);
      await cluster.killTask(victim);
      await sleep(delayMs);
      return { stops: [], started: [(await cluster.startTask(role)).id] };
    },
  };
}

/** The store restarted: a fast shutdown (every session ended), then a start on the same data. */
function storeRestart(): Fault {
  return {
    name: 'PostgreSQL restarted (fast shutdown, start)',
    graceful: false,
    plannedSeconds: () => 0,
    inject: async ({ postgres }) => {
      await postgres.halt('fast');
      await postgres.start();
      return { stops: [], started: [] };
    },
  };
}

/** The frontend service scaled out by one task, then back in (the older task stopped the ECS way). */
function frontendScale(settleMs: number): Fault {
  return {
    name: 'frontend scaled 1 → 2 → 1',
    graceful: true,
    plannedSeconds: (e) => settleMs / 1000 + shutdownSeconds(e, 'frontend'),
    inject: async ({ cluster, stopTimeoutMs }) => {
      const [old] = cluster.tasks('frontend');
      const added = await cluster.startTask('frontend');
      await sleep(settleMs);
      return { stops: [{ task: old.id, ...(await cluster.stopTask(old, stopTimeoutMs)) }], started: [added.id] };
    },
  };
}

/**
 * A server upgrade as a deploy of a new release runs it: the schema task of the new release
 * first (the store's schema, and the visibility index's, brought up to it), then every role
 * rolled onto the new image in start order, each the way ECS rolls it.
 */
export function upgrade(to: Binaries): Fault {
  return {
    name: `upgrade to Temporal ${to.release}`,
    graceful: true,
    plannedSeconds: (e) => TEMPORAL_ROLES.reduce((sum, role) => sum + shutdownSeconds(e, role), 0),
    inject: async (c) => {
      const { cluster, postgres } = c;
      await runSchemaTask(to, cluster.scenario, postgres, cluster.stores.database, 'update');
      await updateLocalVisibility(to, postgres, cluster.stores.visibilityDatabase);
      cluster.setImage(to);
      const notes: FaultNotes[] = [];
      for (const role of TEMPORAL_ROLES) notes.push(await rollingDeploy(role).inject(c));
      return { stops: notes.flatMap((n) => n.stops), started: notes.flatMap((n) => n.started) };
    },
  };
}

/** The suite: every role rolled, history and matching killed, the store restarted, frontends scaled. */
export function faultSuite(): Fault[] {
  return [...TEMPORAL_ROLES.map(rollingDeploy), killAndReplace('history', 5_000), killAndReplace('matching', 5_000), storeRestart(), frontendScale(5_000)];
}

export interface LoadSettings {
  readonly rate: number;
  /** How long the generator offers starts (a Go duration). */
  readonly duration: string;
  /** Seconds into the run when the fault starts. */
  readonly faultAtSeconds: number;
  readonly completionTimeout: string;
}

/** The suite's load: 10 workflows/s, the fault 12 s in, results awaited 90 s past the last start. */
export const FAULT_SUITE_LOAD = { rate: 10, faultAtSeconds: 12, completionTimeout: '90s' } as const;
/**
 * A load runs this long past the end its fault plans: for the clients to reconnect, the fault's
 * backlog to drain and recovery()'s 5 s. The slowest seen: a killed matching, no completion for
 * 19 s, then its 200 workflows drained at 12 to 25/s beside the 10/s offered (a busy 2 cores).
 */
export const LOAD_AFTER_PLANNED_SECONDS = 60;

/** A fault's load: offered until LOAD_AFTER_PLANNED_SECONDS past the end the fault plans (plannedSeconds). */
export function faultLoad(fault: Fault, environment: TemporalEnvironment, o: Partial<Pick<LoadSettings, 'rate' | 'faultAtSeconds'>> = {}): LoadSettings {
  const load = { ...FAULT_SUITE_LOAD, ...o };
  return { ...load, duration: `${load.faultAtSeconds + fault.plannedSeconds(environment) + LOAD_AFTER_PLANNED_SECONDS}s` };
}

export interface FaultOutcome {
  readonly fault: string;
  readonly notes: FaultNotes;
  readonly run: GeneratorRun;
  readonly ledger: Ledger;
  /** Seconds from the generator's start when the fault began and ended. */
  readonly faultWindow: { readonly start: number; readonly end: number };
  /** Worst per-second P99 of the workflows started before the fault (steady) and from its start to recovery. */
  readonly steadyP99Ms: number;
  readonly faultP99Ms: number;
  /** Seconds from the fault's start until completions held the rate and new starts the steady latency again (recovery()); null: not within the run. */
  readonly recoverySeconds: number | null;
  /** Start errors by cause. */
  readonly startErrors: Readonly<Record<string, number>>;
  readonly openAtDeadline: number;
  /** The workflows still open at the deadline (the generator lists the first of them). */
  readonly openAtDeadlineIds: readonly string[];
  /** What became of each of them (stragglers()). */
  readonly stragglers: readonly Straggler[];
  /** Each role's membership (heartbeat within the cutoff) came to be the tasks running, at their addresses. */
  readonly membershipSettled: boolean;
  /** Seconds after the fault ended (at the latest, when the run ended) that it had; null: not within twice the cutoff. */
  readonly membershipSettledSeconds: number | null;
  readonly membership: Partial<Record<TemporalRole, string[]>>;
  /** A troubled run's server warnings (logDigest()); empty for a clean one. */
  readonly warnings: readonly string[];
  /** What lost task starts can cost, over the fault's window to membership settled (lost-starts.ts). */
  readonly lostStarts: LostStartBound;
  /** Seconds from the generator's start by which every workflow must have closed: the bound, or the last start's second and the slack. */
  readonly closeBySeconds: number;
  /** The end of the last second a workflow closed in, from the generator's start. */
  readonly lastCloseSeconds: number;
}

/** Seconds at the start of a run that do not count as steady (connections, caches). */
const WARM_UP = 3;

const worst = (v: readonly number[], from: number, to: number) => Math.max(0, ...v.slice(Math.max(0, from), Math.max(0, to)));

/** Runs the generator at a steady rate, injects the fault mid-run, and judges what it cost. */
export async function runFault(c: FaultContext, fault: Fault, load: LoadSettings): Promise<FaultOutcome> {
  const { cluster } = c;
  const preset = cluster.scenario.preset;
  const timeoutMs = (durationSeconds(load.duration) + durationSeconds(load.completionTimeout) + 120) * 1000;
  const spawned = Date.now();
  const running = runGenerator(
    preset,
    cluster.frontendAddress,
    await freePort(),
    {
      BENCHMARK_TARGET_RATE: String(load.rate),
      BENCHMARK_DURATION: load.duration,
      BENCHMARK_RAMP_UP: '0s',
      BENCHMARK_COMPLETION_TIMEOUT: load.completionTimeout,
    },
    timeoutMs,
  );
  await sleep(load.faultAtSeconds * 1000);
  const faultStart = Date.now();
  const notes = await fault.inject(c);
  const faultEnd = Date.now();
  // Watched while the load runs on, from the fault's end: looking only after the run would time the run.
  const settling = membershipSettles(cluster, faultEnd);
  settling.catch(() => undefined);
  const run = await running;
  const raw = run.raw;
  if (!raw) throw new Error(`${fault.name}: no result from the generator (exit ${run.exitCode}):\n${run.lines.slice(-30).join('\n')}`);
  const x = raw.results;
  const begin = raw.window?.start ? new Date(raw.window.start).getTime() : spawned;
  const at = (t: number) => (t - begin) / 1000;
  const series = raw.series;
  const faultWindow = { start: at(faultStart), end: at(faultEnd) };
  // Starts due in the second the fault began in may already meet it.
  const steadyP99Ms = worst(series.latencyP99MsByStart, WARM_UP, Math.floor(faultWindow.start));
  const lastStart = at(new Date(raw.window.lastStart).getTime());
  const recoverySeconds = recovery(series, load.rate, faultWindow.start, steadyP99Ms, lastStart);
  const faultP99Ms = worst(
    series.latencyP99MsByStart,
    Math.floor(faultWindow.start),
    Math.ceil(faultWindow.start + (recoverySeconds ?? lastStart - faultWindow.start)) + 1,
  );
  const ledger = judgeLedger(
    { workflowIdPrefix: raw.config.workflowIdPrefix, workflowsOffered: x.workflowsOffered, startErrorIds: x.startErrorIds, startErrors: x.startErrors },
    await readStored(c.postgres, cluster.stores.database, raw.config.workflowIdPrefix),
  );
  const { membership, settledAfter } = await settling;
  const openAtDeadlineIds: string[] = x.openAtDeadlineIds ?? [];
  const lostStarts = lostStartBound(faultWindow.end - faultWindow.start + (settledAfter ?? 2 * HEARTBEAT_CUTOFF_SECONDS));
  const closeBySeconds = Math.max(faultWindow.start + lostStarts.closeBySeconds, lastStart + DISPATCH_SLACK_SECONDS);
  const lastCloseSeconds = lastClose(series);
  // Trouble any verdict fails on keeps the role logs, and says what the servers warned of.
  const troubled = x.workflowsTimedOut > 0 || !ledger.exactlyOnce || recoverySeconds === null || lastCloseSeconds > closeBySeconds;
  if (troubled) cluster.keepLogs();
  return {
    fault: fault.name,
    notes,
    run,
    ledger,
    faultWindow,
    steadyP99Ms,
    faultP99Ms,
    recoverySeconds,
    startErrors: x.startErrorsByCause,
    openAtDeadline: x.workflowsTimedOut,
    openAtDeadlineIds,
    stragglers: await stragglers(c, openAtDeadlineIds),
    membershipSettled: settledAfter !== null,
    membershipSettledSeconds: settledAfter,
    membership,
    warnings: troubled ? logDigest(cluster.dir) : [],
    lostStarts,
    closeBySeconds,
    lastCloseSeconds,
  };
}

/** The end of the last interval any workflow closed in, in seconds from the series' start. */
export function lastClose(series: Pick<RunSeries, 'intervalSeconds' | 'completed'>): number {
  const c = series.completed;
  let last = c.length - 1;
  while (last >= 0 && c[last] === 0) last--;
  return (last + 1) * series.intervalSeconds;
}

/** A member whose heartbeat is older than this is gone (the server's own healthy-host cutoff, ringpop/monitor.go). */
const HEARTBEAT_CUTOFF_SECONDS = 20;

/**
 * Polls each second, from the fault's end, until each role's live membership rows are exactly
 * the addresses of its running tasks (up to the heartbeat cutoff and as long again); how long
 * after the fault ended that was.
 */
export async function membershipSettles(
  cluster: Pick<LocalCluster, 'memberAddresses' | 'tasks'>,
  faultEnd: number,
  clock = { now: Date.now, sleep },
): Promise<{ membership: Partial<Record<TemporalRole, string[]>>; settledAfter: number | null }> {
  const deadline = faultEnd + 2 * HEARTBEAT_CUTOFF_SECONDS * 1000;
  for (;;) {
    const membership = await cluster.memberAddresses(HEARTBEAT_CUTOFF_SECONDS);
    if (
      TEMPORAL_ROLES.every((role) =>
        sameSet(
          membership[role] ?? [],
          cluster.tasks(role).map((t: RoleProcess) => t.ip),
        ),
      )
    )
      return { membership, settledAfter: Math.max(0, Math.round((clock.now() - faultEnd) / 1000)) };
    if (clock.now() > deadline) return { membership, settledAfter: null };
    await clock.sleep(1000);
  }
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().every((v, i) => v === [...b].sort()[i]);

/** Each interval from the fault's start: completions and the P99 of its starts, what recovery() judged (a run that was not back says why). */
function afterFault(o: FaultOutcome): string {
  const series = o.run.raw?.series;
  if (!series) return 'no series';
  const first = Math.floor(o.faultWindow.start / series.intervalSeconds);
  const at = (xs: readonly number[]) =>
    xs
      .slice(first)
      .map((x) => Math.round(x))
      .join(' ');
  return `from ${first * series.intervalSeconds} s, every ${series.intervalSeconds} s: completed ${at(series.completed)}; P99 ms by start ${at(series.latencyP99MsByStart)}`;
}

/** One line per fault, for logs. */
export function describeOutcome(o: FaultOutcome): string {
  const l = o.ledger;
  const errors = Object.entries(o.startErrors)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const stops = o.notes.stops.map((s) => `${s.task} drained in ${(s.drainMs / 1000).toFixed(1)} s${s.killed ? ' (SIGKILL)' : ''}`).join('; ');
  return (
    `${o.fault}: ${l.completedOnce}/${l.offered} completed once, missing ${l.missing.length}, duplicates ${l.duplicates.length}, not completed ${l.notCompleted.length}; ` +
    `start errors ${errors || '0'}; open at deadline ${o.openAtDeadline}${o.stragglers.length ? ` (${describeStragglers(o.stragglers)})` : ''}; fault ${o.faultWindow.start.toFixed(1)}-${o.faultWindow.end.toFixed(1)} s; ` +
    `last close by ${o.lastCloseSeconds} s (bound ${o.closeBySeconds.toFixed(1)} s: ${o.lostStarts.losses} lost start(s) in a ${o.lostStarts.windowSeconds.toFixed(1)} s window); ` +
    `${o.recoverySeconds === null ? `not back at the rate before the load ended (${afterFault(o)})` : `recovered after ${o.recoverySeconds} s`}; P99 steady ${o.steadyP99Ms} ms, during ${o.faultP99Ms} ms; membership ${o.membershipSettled ? `settled ${o.membershipSettledSeconds} s after the fault` : `not settled ${JSON.stringify(o.membership)}`}` +
    (stops ? `; ${stops}` : '') +
    (o.warnings.length ? `; the servers warned: ${o.warnings.join(' | ')}` : '')
  );
}
