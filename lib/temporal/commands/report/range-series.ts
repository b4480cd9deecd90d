import type { PeakAverage, Points } from '../../../commands/report/fetch';
import type { RangeSeries } from './prometheus-reader';

/* Arithmetic over Prometheus range answers: series by id and labels, gauges, totals, histogram quantiles. */

/** Each query's answer by its id. */
export type Answers = ReadonlyMap<string, readonly RangeSeries[]>;

export interface Percentiles {
  readonly p50: number | null;
  readonly p95: number | null;
  readonly p99: number | null;
}

const sumAll = (v: readonly number[]) => v.reduce((a, b) => a + b, 0);
export const mean = (v: readonly number[]) => sumAll(v) / v.length;
export const ratio = (a: number | null, b: number | null) => (a === null || b === null || !(b > 0) ? null : a / b);

export function of(a: Answers, id: string, labels: Record<string, string> = {}): RangeSeries[] {
  return (a.get(id) ?? []).filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** One series per timestamp: the named series added up, point by point. */
export function combined(series: readonly RangeSeries[]): Points {
  const at = new Map<number, number>();
  for (const s of series) s.t.forEach((t, i) => at.set(t, (at.get(t) ?? 0) + s.v[i]));
  const t = [...at.keys()].sort((x, y) => x - y);
  return { t, v: t.map((x) => at.get(x)!) };
}

export function gauge(series: readonly RangeSeries[]): PeakAverage {
  const { v } = combined(series);
  return v.length ? { peak: Math.max(...v), average: mean(v) } : { peak: null, average: null };
}

/** A counter's total over the window: null when no series exists (the metric was never emitted). */
export function total(series: readonly RangeSeries[]): number | null {
  return series.length ? sumAll(series.flatMap((s) => s.v)) : null;
}

export function byLabel(series: readonly RangeSeries[], label: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of series) out[s.labels[label] ?? ''] = (out[s.labels[label] ?? ''] ?? 0) + sumAll(s.v);
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v > 0));
}

/**
 * A quantile of a histogram given as cumulative bucket counts, by Prometheus's own rule
 * (histogram_quantile): linear within the bucket that holds the rank, the lower bound of the
 * +Inf bucket when the rank falls there, null without observations.
 */
export function histogramQuantile(q: number, buckets: readonly { le: number; count: number }[]): number | null {
  const sorted = [...buckets].sort((a, b) => a.le - b.le);
  if (!sorted.length || sorted[sorted.length - 1].le !== Infinity) return null;
  const observations = sorted[sorted.length - 1].count;
  if (!(observations > 0)) return null;
  const rank = q * observations;
  // Found: the +Inf bucket holds every observation.
  const i = sorted.findIndex((b) => b.count >= rank);
  if (i === sorted.length - 1) return sorted.length > 1 ? sorted[sorted.length - 2].le : null;
  const lower = i === 0 ? 0 : sorted[i - 1].le;
  const below = i === 0 ? 0 : sorted[i - 1].count;
  const inBucket = sorted[i].count - below;
  if (i === 0 && sorted[0].le <= 0) return sorted[0].le;
  return inBucket > 0 ? lower + (sorted[i].le - lower) * ((rank - below) / inBucket) : sorted[i].le;
}

/** Buckets added up over the window (and over every series of the selection). */
export function windowBuckets(series: readonly RangeSeries[]): { le: number; count: number }[] {
  const at = new Map<number, number>();
  for (const s of series) {
    const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
    at.set(le, (at.get(le) ?? 0) + sumAll(s.v));
  }
  return [...at].map(([le, count]) => ({ le, count }));
}

const toMs = (seconds: number | null) => (seconds === null ? null : seconds * 1000);

export function percentilesMs(series: readonly RangeSeries[]): Percentiles {
  const b = windowBuckets(series);
  return { p50: toMs(histogramQuantile(0.5, b)), p95: toMs(histogramQuantile(0.95, b)), p99: toMs(histogramQuantile(0.99, b)) };
}

/** A quantile per step, for a chart. */
export function quantileSeries(series: readonly RangeSeries[], q: number, scale = 1000): Points {
  const steps = new Map<number, Map<number, number>>();
  for (const s of series) {
    const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
    s.t.forEach((t, i) => {
      const b = steps.get(t) ?? new Map<number, number>();
      b.set(le, (b.get(le) ?? 0) + s.v[i]);
      steps.set(t, b);
    });
  }
  const t: number[] = [];
  const v: number[] = [];
  for (const x of [...steps.keys()].sort((a, b) => a - b)) {
    const value = histogramQuantile(
      q,
      [...steps.get(x)!].map(([le, count]) => ({ le, count })),
    );
    if (value !== null) {
      t.push(x);
      v.push(value * scale);
    }
  }
  return { t, v };
}

export function perSecond(p: Points, stepSeconds: number): Points {
  return { t: p.t, v: p.v.map((x) => x / stepSeconds) };
}
