import type { AuroraStorageType } from '../../../config/fields';
import type { TemporalCostAssumptions } from '../../../config/cost-assumptions';
import { type PriceFile, priceOf } from '../../../config/prices';
import { BUDGET_MONTH_DAYS } from '../../../config/spending-schema';
import type { IdleRule } from '../../platform/contract/idle-rule';
import { usd } from './money';

/*
 * The daily cost of a scenario, line by line (each family's lines: lib/<family>/commands/cost/), in the shape of seed 000's "Daily Cost
 * Estimate": what runs (instances, nodes, gateways, endpoints) comes from the resolved
 * scenario, what it costs from config/prices, and what it consumes (logs, metrics, DPUs)
 * from config/cost-assumptions or a report.
 */

/** The metrics EC2's detailed monitoring publishes per instance, each billed as a custom metric (CloudWatch pricing). */
export const EC2_DETAILED_METRICS = 7;

export interface CostLine {
  /** The table's cells, in the section's column order, the cost last. */
  readonly cells: readonly string[];
  readonly usdPerDay: number;
}

export interface CostSection {
  /** The name in the summary table (`EC2 (Compute)`). */
  readonly category: string;
  /** The section heading (`Compute (EC2)`). */
  readonly title: string;
  readonly headers: readonly string[];
  readonly lines: readonly CostLine[];
  readonly subtotal: number;
  /** What the subtotal counts, when not every line (`Subtotal (at the floor)`). */
  readonly subtotalLabel?: string;
  readonly note?: string;
}

/** The same deployment with one thing changed: the benchmark fleet parked, ACUs at the ceiling. */
export interface CostVariant {
  readonly label: string;
  readonly total: number;
  /** Change against the estimate's total. */
  readonly delta: number;
  readonly note: string;
}

export interface CostEstimate {
  readonly scenario: string;
  readonly region: string;
  readonly title: string;
  readonly sections: readonly CostSection[];
  readonly total: number;
  readonly variants: readonly CostVariant[];
  /** Temporal: the daily total per million workflows at the preset's rate, to compare presets by efficiency. */
  readonly perMillionWorkflows?: PerMillionWorkflows;
  /** The estimate set against an alternative for the same load (Temporal: Temporal Cloud's list price). */
  readonly comparisons?: readonly CostComparison[];
  /** Oldest and newest asOf date of the prices used. */
  readonly pricesAsOf: { readonly oldest: string; readonly newest: string };
  readonly notes: readonly string[];
}

/** A table a family sets beside its estimate: a title, its cells as printed, and what to read it with. */
export interface CostComparison {
  readonly title: string;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
  readonly notes: readonly string[];
}

interface PerMillionWorkflows {
  /** Workflows per second under load: the preset's recorded rate, else its target. */
  readonly workflowsPerSecond: number;
  readonly basis: 'recorded' | 'target';
  readonly workflowsPerDay: number;
  readonly usd: number;
}

export interface TemporalCostInputs {
  /** DSQL transactions per second under load; default: the preset's recorded rate, else target × tx per workflow. */
  readonly transactionsPerSecond?: number;
  readonly assumptions?: Partial<TemporalCostAssumptions>;
}

export interface FolioCostInputs {
  /** Average Serverless v2 capacity observed over a run (a report's acu.average). */
  readonly observedAverageAcu?: number;
  readonly observedFrom?: string;
}

export const count = (v: number) => Math.round(v).toLocaleString('en-US');

export class Pricer {
  readonly used = new Set<string>();
  constructor(readonly file: PriceFile) {}
  usd(key: string): number {
    this.used.add(key);
    return priceOf(this.file, key).usd;
  }
  asOf() {
    const dates = [...this.used].map((k) => this.file.prices[k].asOf).sort();
    return { oldest: dates[0], newest: dates[dates.length - 1] };
  }
}

export const section = (category: string, title: string, headers: string[], lines: CostLine[], note?: string): CostSection => ({
  category,
  title,
  headers,
  lines,
  subtotal: lines.reduce((a, l) => a + l.usdPerDay, 0),
  ...(note ? { note } : {}),
});

/** What the idle rules' alarms add to the alarms line: CloudWatch bills a metric-math alarm per metric it reads. */
export function idleAlarmMetrics(rules: readonly IdleRule[]): number {
  return rules.reduce((n, r) => n + r.metrics.length, 0);
}

/** The environment's budget (config) against a day of this scenario running and one hibernated. */
export function budgetNote(dailyUsd: number, running: number, hibernated: number, state: 'hibernated' | 'stopped'): string {
  const verdict =
    running > dailyUsd ? `a day running (${usd(running)}) passes it: the alarm topic is told on such a day` : `a day running (${usd(running)}) is within it`;
  return `Budget (config, AWS Budgets, no charge without budget actions): ${usd(dailyUsd)} a day and ${usd(dailyUsd * BUDGET_MONTH_DAYS)} a month forecast; ${verdict}; a day ${state}, ${usd(hibernated)}.`;
}

/** An Aurora price key for a storage type: I/O-Optimized compute has its own price (`rds:db.r8g.2xlarge-iopt1`). */
export const auroraKey = (item: string, storage: AuroraStorageType) => `rds:${item}${storage === 'aurora-iopt1' ? '-iopt1' : ''}`;
export const storageName = (storage: AuroraStorageType) => (storage === 'aurora-iopt1' ? 'I/O-Optimized' : 'Standard');

export function line(item: string, estimate: string, price: string, usdPerDay: number): CostLine {
  return { cells: [item, estimate, price, usd(usdPerDay)], usdPerDay };
}

export const sum = (sections: readonly CostSection[]) => sections.reduce((a, s) => a + s.subtotal, 0);

/** What the cost command can say about the load: each family reads the inputs it takes. */
export type CostInputs = TemporalCostInputs & FolioCostInputs;
