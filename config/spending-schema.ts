import { z } from './zod';

/*
 * What an environment may spend while nobody tests: the idle rule that parks it by itself, and
 * the AWS Budgets budget that warns the alarm topic. One section per family's environment, so
 * each environment (envName) carries its own.
 */

const minutes = z
  .number()
  .int({ error: (iss) => `${String(iss.input)} minutes is not valid (valid: a whole number of minutes, 10-1440)` })
  .min(10, { error: (iss) => `${String(iss.input)} minutes is not valid (valid: 10-1440; shorter would park between two runs of one session)` })
  .max(1440, { error: (iss) => `${String(iss.input)} minutes is not valid (valid: 10-1440; CloudWatch evaluates at most one day)` });

const budget = z.strictObject({
  /** What a day may cost (USD): actual spend above it on any day, or a month forecast above 30 such days, tells the alarm topic. */
  dailyUsd: z
    .number()
    .positive({ error: (iss) => `${String(iss.input)} USD a day is not a budget (valid: above 0)` })
    .max(100_000, { error: (iss) => `${String(iss.input)} USD a day is not a budget (valid: at most 100000)` }),
});

/** The monthly budget is this many daily amounts (AWS Budgets forecasts months, never days). */
export const BUDGET_MONTH_DAYS = 30;

const off = z.strictObject({ action: z.literal('off') });

/** Temporal: an up fleet with no generator running and idle workers for `minutes` is parked (its service to 0 tasks). */
export const temporalSpendingSchema = z.strictObject({
  budget,
  idle: z.discriminatedUnion(
    'action',
    [
      z.strictObject({
        action: z.literal('park-fleet'),
        minutes,
        /** The benchmark workers' busiest task's CPU below this is "no load" (an idle worker polls, it does not compute). */
        workerCpuBelowPercent: z
          .number()
          .gt(0, { error: (iss) => `${String(iss.input)}% is not valid (valid: above 0, below 100)` })
          .lt(100, { error: (iss) => `${String(iss.input)}% is not valid (valid: above 0, below 100)` }),
      }),
      off,
    ],
    { error: (iss) => `idle action ${JSON.stringify((iss.input as { action?: unknown })?.action)} is not valid (valid: park-fleet, off)` },
  ),
});

/** FOLIO: both clusters without a client connection for `minutes` are stopped (Aurora keeps storage and backups). */
export const folioSpendingSchema = z.strictObject({
  budget,
  idle: z.discriminatedUnion('action', [z.strictObject({ action: z.literal('stop-clusters'), minutes }), off], {
    error: (iss) => `idle action ${JSON.stringify((iss.input as { action?: unknown })?.action)} is not valid (valid: stop-clusters, off)`,
  }),
});
