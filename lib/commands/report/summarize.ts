import type { Scenario } from '../../../config';
import type { MetricCatalog, Series } from '../../platform/contract/metrics';
import { seriesById } from '../../platform/contract/metrics';
import type { PeakAverage, Points } from './fetch';
import type { Proposal } from './proposals';
import { type ReportWindow, wholeInRun } from './window';

/*
 * The report's arithmetic, on points already fetched. Two kinds of series:
 * - gauges (Average, Maximum, Minimum): peak and average over the points present; a gap is
 *   unknown, not zero, and shows up in `coverage`;
 * - counts (Sum): totals add the points present; per-minute rates (peak and average) are
 *   over the periods present, so a gap neither dilutes a rate nor is taken for an idle minute.
 * Either way, a series with fewer points than the window holds is listed in `coverage`.
 */

export type { PeakAverage };

export interface Coverage {
  readonly points: number;
  readonly expected: number;
}

/** What every family's report holds; each family's adds its configuration and figures (lib/families.ts). */
export interface ReportBase {
  readonly schemaVersion: 1;
  readonly family: string;
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
  readonly metrics: object;
  /** What to try next, from the rules in config (each family's proposals). */
  readonly proposal: Proposal;
}

/** Series lookups over one window; differences are computed here, point by point. */
export class SeriesContext {
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

export const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
export const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

/** The fields every report opens with. */
export function reportBase(scenario: Scenario, ctx: SeriesContext): Omit<ReportBase, 'family' | 'coverage' | 'missing' | 'metrics' | 'proposal'> {
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
