import { ConfigError } from '../../../config';
import { markdownTable } from '../shared/markdown-table';
import { num } from './report-format';
import { familyOf } from '../../families';
import type { ReportBase } from './summarize';

/** Every number under `metrics`, by dotted path: `cpu.serverless.peak`. */
export function flatten(value: unknown, prefix = ''): Map<string, number | null> {
  const out = new Map<string, number | null>();
  if (typeof value === 'number' || value === null) out.set(prefix, value);
  else if (value && typeof value === 'object' && !Array.isArray(value))
    for (const [k, v] of Object.entries(value)) for (const [fk, fv] of flatten(v, prefix ? `${prefix}.${k}` : k)) out.set(fk, fv);
  return out;
}

/** One metric of two runs: A's value, B's, B - A, and the relative change; null where there is none to give. */
interface MetricDelta {
  readonly metric: string;
  readonly a: number | null;
  readonly b: number | null;
  readonly delta: number | null;
  /** Why the values are not compared, when they are not. */
  readonly notComparable?: string;
}

/** The deltas between two runs, metric by metric (B - A): what `report --compare --json` prints. */
export function metricDeltas(a: ReportBase, b: ReportBase, names: readonly [string, string]): MetricDelta[] {
  if (a.family !== b.family)
    throw new ConfigError(`cannot compare a ${a.family} report (${names[0]}) with a ${b.family} report (${names[1]}); valid: two reports of the same family`);
  const fa = flatten(a.metrics);
  const fb = flatten(b.metrics);
  const keys = [...new Set([...fa.keys(), ...fb.keys()])];
  // A peak (or lowest) is of one point: over points of different lengths it measures the period, not the run.
  const [pa, pb] = [a.window.periodSeconds, b.window.periodSeconds];
  const periodsDiffer = pa !== pb;
  const extreme = (k: string) => /peak|lowest/i.test(k);
  return keys.map((metric) => {
    const [x, y] = [fa.get(metric) ?? null, fb.get(metric) ?? null];
    if (periodsDiffer && extreme(metric)) return { metric, a: x, b: y, delta: null, notComparable: `${pa} s and ${pb} s points` };
    return { metric, a: x, b: y, delta: x !== null && y !== null ? y - x : null };
  });
}

/** The deltas between two runs, metric by metric, as a markdown table (B - A). */
export function compareReports(a: ReportBase, b: ReportBase, names: readonly [string, string]): string {
  const [pa, pb] = [a.window.periodSeconds, b.window.periodSeconds];
  const periodsDiffer = pa !== pb;
  const rows = metricDeltas(a, b, names).map((d) =>
    d.notComparable
      ? [d.metric, num(d.a), num(d.b), 'n/a', `not comparable (${d.notComparable})`]
      : [d.metric, num(d.a), num(d.b), d.delta === null ? 'n/a' : signed(num(d.delta), d.delta), change(d.a, d.delta)],
  );
  const title = (r: ReportBase) => `${r.scenario} (${r.window.start})`;
  return [
    `# ${title(a)} -> ${title(b)}`,
    '',
    ...(periodsDiffer
      ? [
          `A's points are ${pa} s and B's ${pb} s: peaks and lowest values are each of one point, so they are not compared; totals and averages are. Report both windows with the same --period to compare them.`,
          '',
        ]
      : []),
    ...familyOf(a).compareReports(a, b, names),
    markdownTable(['Metric', `A: ${a.scenario}`, `B: ${b.scenario}`, 'B - A', 'Change'], rows),
    '',
  ].join('\n');
}

const signed = (text: string, v: number) => (v > 0 ? `+${text}` : text);

/** The relative change; n/a where A is 0 or either side has no data. */
function change(a: number | null, delta: number | null): string {
  if (delta === null || a === null) return 'n/a';
  if (delta === 0) return '0%';
  return a === 0 ? 'n/a' : signed(`${num((delta / Math.abs(a)) * 100, 1)}%`, delta);
}
