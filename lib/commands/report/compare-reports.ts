import { ConfigError } from '../../../config';
import { markdownTable } from '../shared/markdown-table';
import { num } from './render-report';
import type { Report, TemporalReport } from './summarize';

/** Every number under `metrics`, by dotted path: `cpu.serverless.peak`. */
export function flatten(value: unknown, prefix = ''): Map<string, number | null> {
  const out = new Map<string, number | null>();
  if (typeof value === 'number' || value === null) out.set(prefix, value);
  else if (value && typeof value === 'object' && !Array.isArray(value))
    for (const [k, v] of Object.entries(value)) for (const [fk, fv] of flatten(v, prefix ? `${prefix}.${k}` : k)) out.set(fk, fv);
  return out;
}

/** The deltas between two runs, metric by metric, as a markdown table (B - A). */
export function compareReports(a: Report, b: Report, names: readonly [string, string]): string {
  if (a.family !== b.family)
    throw new ConfigError(`cannot compare a ${a.family} report (${names[0]}) with a ${b.family} report (${names[1]}); valid: two reports of the same family`);
  const fa = flatten(a.metrics);
  const fb = flatten(b.metrics);
  const keys = [...new Set([...fa.keys(), ...fb.keys()])];
  // A peak (or lowest) is of one point: over points of different lengths it measures the period, not the run.
  const [pa, pb] = [a.window.periodSeconds, b.window.periodSeconds];
  const periodsDiffer = pa !== pb;
  const extreme = (k: string) => /peak|lowest/i.test(k);
  const rows = keys.map((k) => {
    const x = fa.get(k) ?? null;
    const y = fb.get(k) ?? null;
    if (periodsDiffer && extreme(k)) return [k, num(x), num(y), 'n/a', `not comparable (${pa} s and ${pb} s points)`];
    const delta = x !== null && y !== null ? y - x : null;
    return [k, num(x), num(y), delta === null ? 'n/a' : signed(num(delta), delta), change(x, delta)];
  });
  const title = (r: Report) => `${r.scenario} (${r.window.start})`;
  return [
    `# ${title(a)} -> ${title(b)}`,
    '',
    ...(periodsDiffer
      ? [
          `A's points are ${pa} s and B's ${pb} s: peaks and lowest values are each of one point, so they are not compared; totals and averages are. Report both windows with the same --period to compare them.`,
          '',
        ]
      : []),
    ...(a.family === 'temporal' && b.family === 'temporal' ? [runTable([a, b], names), '', ...bottleneckTable([a, b]), ''] : []),
    markdownTable(['Metric', `A: ${a.scenario}`, `B: ${b.scenario}`, 'B - A', 'Change'], rows),
    '',
  ].join('\n');
}

const STORE_NAMES = { dsql: 'Aurora DSQL', 'aurora-postgresql': 'Aurora PostgreSQL' } as const;

/** Two runs side by side, as seed 001 compares stores: throughput, latency percentiles, work per workflow. */
function runTable(runs: readonly TemporalReport[], names: readonly [string, string]): string {
  const ms = (v: number | null | undefined) => (v === null || v === undefined ? 'n/a' : num(v, 1));
  const rows = runs.map((r, i) => {
    const b = r.benchmark;
    const rt = b?.storeRoundTripMs;
    return [
      `${i ? 'B' : 'A'}: ${r.scenario}`,
      STORE_NAMES[r.store ?? 'dsql'],
      b ? num(b.workflowsPerSecond, 2) : 'n/a',
      ms(b?.latencyMs.p50),
      ms(b?.latencyMs.p95),
      ms(b?.latencyMs.p99),
      ms(b?.latencyMs.max),
      r.metrics.transactions.perWorkflow === null ? 'n/a' : num(r.metrics.transactions.perWorkflow, 1),
      rt ? `${ms(rt.median)} / ${ms(rt.p99)}` : 'n/a',
    ];
  });
  const missing = runs.filter((r) => !r.benchmark).map((r, i) => names[runs.indexOf(r)] ?? String(i));
  return [
    markdownTable(
      [
        'Run',
        'Store',
        'workflows/s',
        'p50 (ms)',
        'p95 (ms)',
        'p99 (ms)',
        'max latency (ms)',
        'transactions per workflow',
        'store round trip, median / p99 (ms)',
      ],
      rows,
    ),
    ...(missing.length
      ? [
          '',
          `n/a: ${missing.join(' and ')} ${missing.length > 1 ? 'were' : 'was'} not written from a bench run (report --run <run.json>), so ${missing.length > 1 ? 'they have' : 'it has'} no benchmark figures.`,
        ]
      : []),
  ].join('\n');
}

/** Each run's bottlenecks side by side: what held A back and what held B back. */
function bottleneckTable(runs: readonly TemporalReport[]): string[] {
  // Reports written before the bottleneck section have none to compare.
  const ranked = runs.map((r) => r.bottlenecks?.ranked ?? null);
  const components = [...new Set(ranked.flatMap((x) => (x ?? []).map((f) => f.component)))];
  const cell = (i: number, c: string) => {
    if (ranked[i] === null) return 'n/a (no bottleneck section)';
    const at = ranked[i]!.findIndex((f) => f.component === c);
    return at < 0 ? 'not a bottleneck' : `#${at + 1}: ${ranked[i]![at].evidence.join('; ')}`;
  };
  return [
    '**Where the bottleneck was**',
    '',
    components.length
      ? markdownTable(
          ['Component', `A: ${runs[0].scenario}`, `B: ${runs[1].scenario}`],
          components.map((c) => [c, cell(0, c), cell(1, c)]),
        )
      : 'Neither run had a bottleneck by the rules in config.',
  ];
}

const signed = (text: string, v: number) => (v > 0 ? `+${text}` : text);

/** The relative change; n/a where A is 0 or either side has no data. */
function change(a: number | null, delta: number | null): string {
  if (delta === null || a === null) return 'n/a';
  if (delta === 0) return '0%';
  return a === 0 ? 'n/a' : signed(`${num((delta / Math.abs(a)) * 100, 1)}%`, delta);
}
