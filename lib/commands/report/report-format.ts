import type { ReportBase } from './summarize';
import { percent } from '../shared/figure';
import { pointLength } from './window';

/* How every report writes its figures: deterministic, no clock, no locale; a missing figure says so, never a zero. */

/** A report's first four lines: what it is, and the window it covers. */
export function heading(title: string, r: ReportBase): string[] {
  const w = r.window;
  return [
    `# ${title}: ${r.scenario}`,
    '',
    `Stack \`${r.stackName}\`; window ${w.start} to ${w.end} (${num(w.minutes, 1)} min, ${w.periodSeconds} s points)${w.run ? `, covering the run ${w.run.start} to ${w.run.end}` : ''}.`,
    '',
  ];
}

/** What a peak is the peak of: a minute, or an average over a coarser point (`--period`). */
export const peakPoint = (periodSeconds: number) => (periodSeconds === 60 ? 'minute' : `${pointLength(periodSeconds)} point (its average)`);

/** What a figure without a datapoint behind it shows: never a zero. */
export const NO_DATA = 'no data';

const FORMATS = new Map<number, Intl.NumberFormat>();
/** 1,234.5 with at most `digits` decimals; NO_DATA when there is no value. */
export function num(v: number | null | undefined, digits = 2): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return NO_DATA;
  if (!FORMATS.has(digits)) FORMATS.set(digits, new Intl.NumberFormat('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 }));
  // A value that rounds to zero from below is zero, not "-0".
  return FORMATS.get(digits)!
    .format(v)
    .replace(/^-(?=0(\.0*)?$)/, '');
}
export const pct = (share: number | null) => (share === null || !Number.isFinite(share) ? NO_DATA : percent(share * 100));
export const pctValue = (v: number | null) => (v === null || !Number.isFinite(v) ? NO_DATA : percent(v));
export const rate = (v: number | null) => (v === null ? NO_DATA : `${num(v, 0)}/min`);
export const ms = (v: number | null) => (v === null ? NO_DATA : `${num(v, 1)} ms`);
export const flag = (v: number | null, threshold: number) => (v !== null && v >= threshold ? `**${pctValue(v)}** (at or above ${threshold}%)` : pctValue(v));
export function bytes(v: number | null): string {
  return v === null ? NO_DATA : `${num(v / 2 ** 30, 1)} GiB`;
}
