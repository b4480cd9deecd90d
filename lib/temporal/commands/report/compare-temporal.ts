import { markdownTable } from '../../../commands/shared/markdown-table';
import { num } from '../../../commands/report/report-format';
import type { TemporalReport } from './temporal-summary';

/** `report --compare` of two Temporal reports: the runs and their bottlenecks side by side, before the metric-by-metric table. */
export function compareTemporalReports(a: TemporalReport, b: TemporalReport, names: readonly [string, string]): string[] {
  return [runTable([a, b], names), '', ...bottleneckTable([a, b]), ''];
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
