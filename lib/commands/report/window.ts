import { z } from '../../../config/zod';
import { ConfigError } from '../../../config';
import { durationSeconds } from '../../../config/fields';
import type { LadderConfig } from '../../../config/observability-schema';
import { checkRunRecord } from './record-checks';
import { span } from '../shared/option-values';
import { type GeneratorSeries, type Ladder, readRunRecord } from '../shared/run-record';

/**
 * The time range a report covers, and the period its points are aggregated over. `start` and
 * `end` bound whole points on the grid CloudWatch starts its points on, so no point reaches
 * outside them and none is cut short.
 */
export interface ReportWindow {
  readonly start: Date;
  readonly end: Date;
  readonly periodSeconds: number;
  /**
   * A run's own start and end (`--run`), which rarely fall on the grid: the points cover the
   * run, and averages are taken over the points wholly inside it (a point at either edge is
   * part idle, and would pull every average down).
   */
  readonly run?: { readonly start: Date; readonly end: Date };
  /** Workflows the run completed, when known: gives transactions per workflow. */
  readonly workflows?: number;
  /** Why the period is not the one asked for, when it is not. */
  readonly note?: string;
  /** The benchmark's start-to-close latency percentiles (ms), when the window is a run's. */
  readonly benchmarkLatencyMs?: { readonly p50: number; readonly p95: number; readonly p99: number };
  /** What the run measured, when the window is a run's (`--run`). */
  readonly benchmark?: BenchmarkOutcome;
  /** The generator's second-by-second counts, when the run's result has them. */
  readonly generatorSeries?: GeneratorSeries;
  /** A ladder's steps, when the run record is bench ladder's. */
  readonly ladder?: Ladder;
}

/** A run's outcome as the report shows it: throughput, latency, and the store's round trip. */
export interface BenchmarkOutcome {
  readonly workflowsPerSecond: number | null;
  readonly latencyMs: { readonly p50: number; readonly p95: number; readonly p99: number; readonly max: number | null };
  /** From a server task to the store, on an open connection (bench run's probe). */
  readonly storeRoundTripMs: { readonly median: number; readonly p99: number } | null;
}

export interface WindowOptions {
  readonly start?: string;
  readonly end?: string;
  readonly last?: string;
  readonly run?: string;
  readonly period?: string;
  readonly workflows?: string;
}

/*
 * CloudWatch keeps one-minute points for 15 days, five-minute points for 63 days and hourly
 * points for 455 days; a finer period over older data returns nothing.
 */
const RETENTION: readonly { periodSeconds: number; days: number }[] = [
  { periodSeconds: 60, days: 15 },
  { periodSeconds: 300, days: 63 },
  { periodSeconds: 3600, days: 455 },
];
const DAY_MS = 86_400_000;

/** A time with its zone: Z, or an offset written either way ISO 8601 allows (+01:00, +0100). */
function parseTime(text: string, what: string): Date {
  const extended = text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const parsed = z.iso.datetime({ offset: true }).safeParse(extended);
  if (!parsed.success)
    throw new ConfigError(
      `${what} "${text}" is not a time (valid: ISO 8601 with a zone: Z or an offset, e.g. 2026-01-21T10:00:00Z, 2026-01-21T11:00:00+01:00 or +0100)`,
    );
  return new Date(extended);
}

/** A time the user gave, as they wrote it, with UTC beside it where they wrote another zone. */
const asGiven = (text: string | undefined, d: Date) => (text === undefined || text.endsWith('Z') ? stamp(d) : `${text} (${stamp(d)})`);

/** Whether the point starting at `t` lies wholly inside the run; every point does when the window is not a run's. */
export function wholeInRun(w: Pick<ReportWindow, 'periodSeconds' | 'run'>, t: number): boolean {
  return !w.run || (t >= w.run.start.getTime() && t + w.periodSeconds * 1000 <= w.run.end.getTime());
}

/** How long one point is, as the report says it: 1-minute, 5-minute, 1-hour. */
export const pointLength = (seconds: number) => (seconds % 3600 === 0 ? `${seconds / 3600}-hour` : `${seconds / 60}-minute`);

/** A time as the user writes it: 2026-11-20T10:00:00Z (no milliseconds when there are none). */
const stamp = (d: Date) => d.toISOString().replace('.000Z', 'Z');

/** What the options say before the grid: the range, and what a run record adds. */
interface GivenRange {
  start: Date;
  end: Date;
  workflows?: number;
  /** What the run record holds (`--run`), as the window carries it. */
  fromRun: Pick<ReportWindow, 'benchmarkLatencyMs' | 'benchmark' | 'generatorSeries' | 'ladder'>;
}

/** The run record's span and what it measured, judged from its own data first. */
function rangeOfRun(file: string, scenario: string, ladderRules?: LadderConfig['held']): GivenRange {
  const run = readRunRecord(file);
  if (run.scenario !== scenario) throw new ConfigError(`--run ${file} records scenario "${run.scenario}", not "${scenario}"; valid: the run's own scenario`);
  checkRunRecord(run, `--run "${file}"`, ladderRules);
  const latency = run.result?.results.latency;
  const r = run.result?.results;
  const fromRun: GivenRange['fromRun'] = {
    ...(latency ? { benchmarkLatencyMs: { p50: latency.p50, p95: latency.p95, p99: latency.p99 } } : {}),
    ...(r
      ? {
          benchmark: {
            workflowsPerSecond: r.actualRate ?? null,
            latencyMs: { p50: r.latency.p50, p95: r.latency.p95, p99: r.latency.p99, max: r.latency.max ?? null },
            storeRoundTripMs: run.storeRoundTrip ? { median: run.storeRoundTrip.medianMs, p99: run.storeRoundTrip.p99Ms } : null,
          },
        }
      : {}),
    ...(run.result?.series && run.result.window ? { generatorSeries: { ...run.result.series, start: new Date(run.result.window.start) } } : {}),
    ...(run.ladder ? { ladder: run.ladder } : {}),
  };
  return { start: new Date(run.start), end: new Date(run.end), workflows: run.workflowsCompleted, fromRun };
}

/** The range the one way given names: a run record's, the last duration up to now, or from --start to --end. */
function givenRange(o: WindowOptions, scenario: string, now: Date, ladderRules?: LadderConfig['held']): GivenRange {
  if (o.run) return rangeOfRun(o.run, scenario, ladderRules);
  if (o.last) {
    const seconds = durationSeconds(o.last);
    if (!(seconds > 0))
      throw new ConfigError(`--last "${o.last}" is not a duration (valid: a whole number above 0 with s, m or h, or several as 1h30m, e.g. 30m, 2h)`);
    if (seconds > RETENTION.at(-1)!.days * 86_400)
      throw new ConfigError(`--last "${o.last}" reaches back further than CloudWatch keeps metrics, 455 days (valid: a --last of at most 455 days (10920h))`);
    // Moved back to the last whole point below, once the grid is known.
    return { start: new Date(now.getTime() - seconds * 1000), end: now, fromRun: {} };
  }
  if (o.start === undefined || o.end === undefined) throw new ConfigError(`--start and --end go together; valid: --start <time> --end <time>`);
  return { start: parseTime(o.start, '--start'), end: parseTime(o.end, '--end'), fromRun: {} };
}

/** A range that ends after it starts, and not in the future. */
function checkRange(o: WindowOptions, { start, end }: GivenRange, now: Date): void {
  const [from, to] = o.run ? [undefined, undefined] : [o.start, o.end];
  const whose = o.run ? `--run ${o.run}: the run` : 'the window';
  if (end.getTime() === start.getTime())
    throw new ConfigError(`${whose} is empty: it ends when it starts (${asGiven(to, end)}); valid: an end after the start`);
  if (end < start) throw new ConfigError(`${whose} ends (${asGiven(to, end)}) before it starts (${asGiven(from, start)}); valid: an end after the start`);
  if (end.getTime() > now.getTime() + 60_000)
    throw new ConfigError(
      o.run
        ? `${whose} ends in the future (${asGiven(to, end)}); valid: a record of a run that has ended`
        : `--end ${asGiven(to, end)} is in the future; valid: a time up to now`,
    );
}

/** --workflows: a count for a window that has none of its own. */
function givenWorkflows(o: WindowOptions, recorded: number | undefined): number | undefined {
  if (o.workflows === undefined) return recorded;
  if (!/^\d+$/.test(o.workflows) || Number(o.workflows) === 0)
    throw new ConfigError(`--workflows "${o.workflows}" is not valid (valid: a whole number above 0)`);
  // The run's own count is what ran; another would make every per-workflow figure wrong.
  if (recorded !== undefined)
    throw new ConfigError(
      `--workflows ${o.workflows} cannot replace the ${recorded} workflows --run ${o.run} records (valid: --run alone, or --workflows with --start/--end or --last)`,
    );
  return Number(o.workflows);
}

/** The finest period CloudWatch still holds for the window's start, and the period the points are read at. */
function choosePeriod(o: WindowOptions, { start, end }: GivenRange, now: Date): { finest: (typeof RETENTION)[number]; periodSeconds: number; note?: string } {
  const ageDays = (now.getTime() - start.getTime()) / DAY_MS;
  const finest = RETENTION.find((r) => ageDays <= r.days);
  if (!finest) {
    const valid = o.last ? 'a --last of at most 455 days (10920h)' : o.run ? 'a run from the last 455 days' : 'a --start within the last 455 days';
    throw new ConfigError(`the window starts ${Math.floor(ageDays)} days ago; CloudWatch keeps metrics for 455 days (valid: ${valid})`);
  }
  const windowSeconds = (end.getTime() - start.getTime()) / 1000;
  if (o.period === undefined)
    return finest.periodSeconds > 60
      ? {
          finest,
          periodSeconds: finest.periodSeconds,
          note: `the window is ${Math.floor(ageDays)} days old, so points are ${pointLength(finest.periodSeconds)} aggregates (CloudWatch's finest for that age)`,
        }
      : { finest, periodSeconds: finest.periodSeconds };
  const p = durationSeconds(o.period);
  if (!(p >= 60) || p % 60 !== 0)
    throw new ConfigError(`--period "${o.period}" is not valid (valid: a duration with a unit, a whole number of minutes: 60s, 5m, 1h)`);
  // CloudWatch answers an older window only at a multiple of the finest period it keeps; any other returns nothing.
  if (p % finest.periodSeconds !== 0)
    throw new ConfigError(
      `--period ${o.period} is ${p < finest.periodSeconds ? 'finer than' : 'not a multiple of'} the ${pointLength(finest.periodSeconds)} points CloudWatch keeps for a window ${Math.floor(ageDays)} days old, so it would answer with nothing (valid: ${finest.periodSeconds / 60}m or a multiple of it)`,
    );
  // A point spans one period: one longer than the window, or one the window ends inside,
  // reaches past it (part empty, or holding what came after), and every rate drawn from it is wrong.
  if (p > windowSeconds)
    throw new ConfigError(
      `--period ${o.period} is longer than the ${o.run ? 'run' : 'window'} (${span(windowSeconds)}); valid: a period the window holds a whole number of, e.g. 1m`,
    );
  if (windowSeconds % p !== 0 && !o.run)
    throw new ConfigError(
      `the window (${span(windowSeconds)}) is not a whole number of --period ${o.period}: its last point would be part empty (valid: a period that divides the window, e.g. 1m)`,
    );
  return { finest, periodSeconds: p };
}

/** A run starts and ends when its task does: the whole points that cover it, and which of them lie wholly inside. */
function runOnGrid(
  file: string,
  given: GivenRange,
  grid: number,
  periodSeconds: number,
): { start: Date; end: Date; run: NonNullable<ReportWindow['run']>; note?: string } {
  const p = periodSeconds * 1000;
  const points = `${pointLength(periodSeconds)} points`;
  const run = { start: given.start, end: given.end };
  const start = new Date(Math.floor(run.start.getTime() / grid) * grid);
  const end = new Date(start.getTime() + Math.ceil((run.end.getTime() - start.getTime()) / p) * p);
  const all = (end.getTime() - start.getTime()) / p;
  const whole = Array.from({ length: all }, (_, k) => start.getTime() + k * p).filter((t) => wholeInRun({ periodSeconds, run }, t)).length;
  if (whole === 0)
    throw new ConfigError(
      `--run ${file}: the run (${span((run.end.getTime() - run.start.getTime()) / 1000)}) holds no whole one of its ${points}, so no average could be taken (valid: a shorter --period, e.g. 1m, or a longer run)`,
    );
  if (start.getTime() === run.start.getTime() && end.getTime() === run.end.getTime()) return { start, end, run };
  return {
    start,
    end,
    run,
    note: `the run (${stamp(run.start)} to ${stamp(run.end)}) is read as the ${all} ${points} from ${stamp(start)} to ${stamp(end)} that cover it: totals and peaks over all ${all}, averages over the ${whole} wholly inside the run`,
  };
}

/** A window the user gave must be whole points on CloudWatch's grid (--last: up to the last whole point). */
function windowOnGrid(o: WindowOptions, given: GivenRange, now: Date, finestSeconds: number, periodSeconds: number): { start: Date; end: Date } {
  const grid = finestSeconds * 1000;
  const p = periodSeconds * 1000;
  const points = `${pointLength(periodSeconds)} points`;
  const windowSeconds = (given.end.getTime() - given.start.getTime()) / 1000;
  let { start, end } = given;
  if (o.last) {
    // Up to the last whole point: the one under way has only part of its data.
    end = new Date(Math.floor(now.getTime() / grid) * grid);
    start = new Date(end.getTime() - windowSeconds * 1000);
    if ((windowSeconds * 1000) % p !== 0) {
      const n = (windowSeconds * 1000) / p;
      const near = [...new Set([Math.max(1, Math.floor(n)), Math.ceil(n)])].map((k) => span((k * p) / 1000));
      throw new ConfigError(`--last ${o.last} is not a whole number of ${points} (valid: a multiple of ${span(periodSeconds)}, e.g. ${near.join(' or ')})`);
    }
  }
  if (start.getTime() % grid !== 0) {
    const [before, after] = [Math.floor(start.getTime() / grid) * grid, Math.ceil(start.getTime() / grid) * grid].map((t) => stamp(new Date(t)));
    throw new ConfigError(
      `--start ${o.start} does not start on a whole ${pointLength(finestSeconds)} point, where CloudWatch starts them: the first point would take in time before the window (valid: a start of ${before} or ${after})`,
    );
  }
  if ((end.getTime() - start.getTime()) % p !== 0) {
    const n = (end.getTime() - start.getTime()) / p;
    const [shorter, longer] = [Math.floor(n), Math.ceil(n)].map((k) => stamp(new Date(start.getTime() + k * p)));
    throw new ConfigError(
      `the window (${span(windowSeconds)}) is not a whole number of ${points}: its last point would reach past --end (valid: an --end of ${shorter === stamp(start) ? longer : `${shorter} or ${longer}`})`,
    );
  }
  return { start, end };
}

/**
 * Resolves the window options of the report command; each mistake is one ConfigError. A run
 * record is judged from its own data first, a ladder's steps by `ladderRules` (config's).
 * CloudWatch starts a window's points at its start, rounded down to the grid of the finest
 * period it keeps for that age; each point then spans one period.
 */
export function reportWindow(o: WindowOptions, scenario: string, now = new Date(), ladderRules?: LadderConfig['held']): ReportWindow {
  const ways = [o.start !== undefined || o.end !== undefined ? '--start/--end' : '', o.last ? '--last' : '', o.run ? '--run' : ''].filter(Boolean);
  if (ways.length !== 1)
    throw new ConfigError(
      `${ways.length ? `${ways.join(' and ')} cannot be combined` : 'no time window given'}; valid: --start <time> --end <time>, --last <duration> or --run <file>`,
    );
  const given = givenRange(o, scenario, now, ladderRules);
  checkRange(o, given, now);
  const workflows = givenWorkflows(o, given.workflows);
  const { finest, periodSeconds, note: periodNote } = choosePeriod(o, given, now);
  const placed = o.run
    ? runOnGrid(o.run, given, finest.periodSeconds * 1000, periodSeconds)
    : { ...windowOnGrid(o, given, now, finest.periodSeconds, periodSeconds), run: undefined, note: undefined };
  const note = [periodNote, placed.note].filter(Boolean).join('; ') || undefined;
  return {
    start: placed.start,
    end: placed.end,
    periodSeconds,
    ...(placed.run ? { run: placed.run } : {}),
    workflows,
    note,
    ...given.fromRun,
  };
}
