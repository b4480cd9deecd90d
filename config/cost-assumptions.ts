import { z } from './zod';

/*
 * What the cost model cannot read from a scenario: how much a deployment logs, stores and
 * scrapes, and how many DSQL processing units (DPUs) a transaction costs. The defaults are
 * seed 000's own estimates (its "Daily Cost Estimate"), so the model reproduces that table;
 * replace them with what a report measures.
 */

const positive = z.number().positive();
const nonNegative = z.number().nonnegative();

const temporalCostAssumptionsSchema = z.strictObject({
  /** Hours a day the benchmark load runs; the seed extrapolates a 5-minute run to 24 h. */
  loadHoursPerDay: z.number().min(0).max(24),
  /** DSQL transactions per completed workflow: seed 000 saw 4,533 tx/s at 136.74 wps. */
  transactionsPerWorkflow: positive,
  /** DPUs per DSQL transaction: seed 000's ~10M DPU/day at 4,533 tx/s over 24 h. */
  dpuPerTransaction: positive,
  dsqlStorageGb: nonNegative,
  /** The aurora-postgresql store's data: the same history as DSQL's, so the same size by default. */
  auroraStorageGb: nonNegative,
  logIngestionGbPerDay: nonNegative,
  logStorageGb: nonNegative,
  /** CloudWatch metrics billed as custom metrics (Container Insights, Prometheus-to-CloudWatch). */
  cloudWatchMetrics: z.number().int().nonnegative(),
  prometheusSamplesPerDay: nonNegative,
  prometheusStorageGb: nonNegative,
  rateLimiterWritesPerDay: nonNegative,
  /** Hours a day someone has the live dashboard open (it refreshes itself while open). */
  dashboardHoursPerDay: z.number().min(0).max(24),
  /** Samples one refresh of the live dashboard reads, per server task and minute of its time range. */
  dashboardSamplesPerTaskMinute: nonNegative,
});

export type TemporalCostAssumptions = z.output<typeof temporalCostAssumptionsSchema>;

const SEED_TX_PER_SECOND = 272_000 / 60;

export const TEMPORAL_COST_ASSUMPTIONS: TemporalCostAssumptions = temporalCostAssumptionsSchema.parse({
  loadHoursPerDay: 24,
  transactionsPerWorkflow: SEED_TX_PER_SECOND / 136.74,
  dpuPerTransaction: 10_000_000 / (SEED_TX_PER_SECOND * 86_400),
  dsqlStorageGb: 10,
  auroraStorageGb: 10,
  logIngestionGbPerDay: 10,
  logStorageGb: 50,
  cloudWatchMetrics: 500,
  prometheusSamplesPerDay: 100_000_000,
  prometheusStorageGb: 1,
  // The limiter takes one conditional write per new connection; pools are pre-warmed, so
  // writes come from lifetime expiry (55 min) and restarts: about 1,000 × 24 × a few.
  rateLimiterWritesPerDay: 14_000,
  // A working day of watching runs.
  dashboardHoursPerDay: 8,
  // Measured by the integration suite: every panel over a 1-minute run of the local cluster's
  // 4 server tasks read 81,964 samples (test/integration/temporal-local.test.ts, "live dashboard").
  dashboardSamplesPerTaskMinute: 81_964 / 4,
});
