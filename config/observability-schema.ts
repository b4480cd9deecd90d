import { z } from 'zod';
import { awsName } from './aws-names';
import { durationSeconds, goDuration, stackName } from './fields';

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
const percent = z
  .number()
  .gt(0, { error: (iss) => `${String(iss.input)}% is not valid (valid: above 0, at most 100)` })
  .max(100, { error: (iss) => `${String(iss.input)}% is not valid (valid: above 0, at most 100)` });
const perMinute = z
  .number()
  .int()
  .positive({ error: (iss) => `${String(iss.input)} per minute is not valid (valid: a whole number above 0)` });

/** A condition that must hold for `minutes` consecutive one-minute periods. */
const sustained = <T extends z.ZodRawShape>(shape: T) => z.strictObject({ ...shape, minutes });

const names = z.strictObject({
  stackName,
  dashboard: awsName('dashboard'),
  alarmTopic: awsName('snsTopic'),
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

/**
 * The figures the report computes for "Where the bottleneck was" (lib/commands/report/bottlenecks.ts),
 * from the servers' and workers' own metrics (Prometheus) and CloudWatch.
 */
const BOTTLENECK_FIGURES = [
  /** The benchmark workers' SDK: how long a task waited for a worker to take it (P50), workflow tasks or activities, whichever is longer. */
  'workerScheduleToStartP50Ms',
  /** The benchmark workers' lowest share of task slots free (0: every slot busy). */
  'workerSlotsFreeLowestShare',
  /** Matching: the largest backlog of the benchmark namespace's task queues. */
  'matchingBacklogPeak',
  /** Matching: the oldest task waiting in a backlog, seconds. */
  'matchingBacklogAgePeakSeconds',
  /** History: the peak CPU of its service, % of what its tasks reserve (CloudWatch). */
  'historyCpuPeakPercent',
  /** History: the P99 of its persistence calls over the window, ms. */
  'historyPersistenceP99Ms',
  /** The store: connection-pool waits per minute, all roles (the DSQL plugin counts them). */
  'storePoolWaitsPerMinute',
  /** The store: the busiest role's peak connections in use, as a share of its pool. */
  'storePoolInUsePeakShare',
  /** The store: OCC conflicts per minute, all roles (the DSQL plugin counts them). */
  'storeConflictsPerMinute',
  /** The store: commit latency, average over the window, ms (CloudWatch). */
  'storeCommitLatencyMs',
  /** The generator: its best start rate over a step as a share of the offered rate. */
  'generatorPeakStartShareOfTarget',
  /** The generator: StartWorkflowExecution calls that failed. */
  'generatorStartErrors',
] as const;
export type BottleneckFigure = (typeof BOTTLENECK_FIGURES)[number];
const BOTTLENECK_COMPONENTS = ['workers', 'matching', 'history', 'store', 'generator'] as const;
export type BottleneckComponent = (typeof BOTTLENECK_COMPONENTS)[number];

const figure = z.enum(BOTTLENECK_FIGURES, {
  error: (iss) => `"${String(iss.input)}" is not a figure the report computes (valid: ${BOTTLENECK_FIGURES.join(', ')})`,
});
const threshold = z.number().nonnegative({ error: (iss) => `${String(iss.input)} is not a threshold (valid: a number at or above 0)` });
/** `figure above x` or `figure below x`: exactly one of the two. */
const condition = z
  .strictObject({ figure, above: threshold.optional(), below: threshold.optional() })
  .refine((c) => (c.above === undefined) !== (c.below === undefined), { error: (iss) => `${JSON.stringify(iss.input)} needs exactly one of above or below` });
const bottleneckRule = z.strictObject({
  component: z.enum(BOTTLENECK_COMPONENTS, { error: (iss) => `"${String(iss.input)}" is not a component (valid: ${BOTTLENECK_COMPONENTS.join(', ')})` }),
  /** The figure that says how far over its threshold the run went: the rule's rank. */
  when: condition,
  /** Further conditions that must all hold too (they tell one cause from another). */
  and: z.array(condition).readonly().default([]),
  /** What it means, in the report's words. */
  says: z.string().min(1),
});
export type BottleneckRule = z.output<typeof bottleneckRule>;
export type BottleneckCondition = z.output<typeof condition>;

export const temporalObservabilitySchema = z.strictObject({
  ...names.shape,
  alarmEmails,
  /** How often each task's collector scrapes its task's metrics; the report's rates span four scrapes. */
  prometheus: z.strictObject({
    scrapeInterval: goDuration.refine((d) => durationSeconds(d) >= 1 && Number.isInteger(durationSeconds(d)), {
      error: (iss) => `"${String(iss.input)}" is not a scrape interval (valid: whole seconds, at least 1s, e.g. 15s)`,
    }),
  }),
  /** Where a run's bottleneck was: each rule that holds is ranked by how far its figure went past its threshold. */
  bottlenecks: z.array(bottleneckRule).min(1).readonly(),
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
