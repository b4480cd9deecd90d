import { z } from 'zod';
import { physicalName, stackName } from './fields';

/*
 * The observability section each family's environment carries: where its dashboard, alarm
 * topic and stack live, who is told, and when an alarm fires. Thresholds are config so
 * that a phase can be judged against the same numbers the dashboards draw.
 */

const minutes = z
  .number()
  .int({ error: (iss) => `${String(iss.input)} minutes is not valid (valid: a whole number of minutes, 1-1440)` })
  .min(1, { error: (iss) => `${String(iss.input)} minutes is not valid (valid: 1-1440)` })
  .max(1440, { error: (iss) => `${String(iss.input)} minutes is not valid (valid: 1-1440; CloudWatch evaluates at most one day)` });
const percent = z.number().gt(0, { error: (iss) => `${String(iss.input)}% is not valid (valid: above 0, at most 100)` }).max(100, { error: (iss) => `${String(iss.input)}% is not valid (valid: above 0, at most 100)` });
const perMinute = z.number().int().positive({ error: (iss) => `${String(iss.input)} per minute is not valid (valid: a whole number above 0)` });

/** A condition that must hold for `minutes` consecutive one-minute periods. */
const sustained = <T extends z.ZodRawShape>(shape: T) => z.strictObject({ ...shape, minutes });

const names = z.strictObject({
  stackName,
  dashboard: physicalName(/^[A-Za-z0-9_-]{1,255}$/, 'dashboard name (A-Z, a-z, 0-9, _, -)'),
  alarmTopic: physicalName(/^[A-Za-z0-9_-]{1,256}$/, 'SNS topic name (A-Z, a-z, 0-9, _, -)'),
});
const alarmEmails = z.array(z.email({ error: (iss) => `"${String(iss.input)}" is not an email address (valid: name@domain)` })).readonly();

export const folioObservabilitySchema = z.strictObject({
  ...names.shape,
  alarmEmails,
  alarms: z.strictObject({
    /** Serverless v2 pinned at its ceiling (seed test10: "flatlining exactly at the maximum"). */
    serverlessAtCeiling: sustained({ percentOfMax: percent }),
    /** Either cluster's writer CPU. */
    cpuHigh: sustained({ percent }),
  }),
});

export const temporalObservabilitySchema = z.strictObject({
  ...names.shape,
  alarmEmails,
  alarms: z.strictObject({
    /** Any Temporal or benchmark service's CPU, as a share of what its tasks reserve. */
    cpuHigh: sustained({ percent }),
    /** Transactions DSQL aborted on optimistic-concurrency conflicts. */
    occConflicts: sustained({ perMinute }),
    /** A service running fewer tasks than it wants (crash loops, no capacity). */
    tasksBelowDesired: sustained({}),
    /** The connection rate limiter's table refusing writes. */
    limiterThrottles: sustained({ perMinute }),
  }),
});

export type FolioObservability = z.output<typeof folioObservabilitySchema>;
export type TemporalObservability = z.output<typeof temporalObservabilitySchema>;
