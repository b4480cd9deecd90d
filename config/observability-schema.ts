import { z } from './zod';
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

const threshold = z.number().nonnegative({ error: (iss) => `${String(iss.input)} is not a threshold (valid: a number at or above 0)` });

/** A condition that must hold for `minutes` consecutive one-minute periods. */
const sustained = <T extends z.ZodRawShape>(shape: T) => z.strictObject({ ...shape, minutes });

const names = z.strictObject({
  stackName,
  dashboard: awsName('dashboard'),
  alarmTopic: awsName('snsTopic'),
});
const alarmEmails = z.array(z.email({ error: (iss) => `"${String(iss.input)}" is not an email address (valid: name@domain)` })).readonly();

/**
 * The figures a FOLIO report proposes its next phase from (lib/folio/commands/report/folio-proposals.ts),
 * each from the window's CloudWatch metrics or Performance Insights.
 */
const FOLIO_FIGURES = [
  /** The provisioned writer's peak CPU, %. */
  'primaryCpuPeakPercent',
  /** The offload writer's peak CPU, %. */
  'offloadCpuPeakPercent',
  /** Serverless v2: the peak ACU as a share of the configured maximum. */
  'acuPeakShareOfMax',
  /** Serverless v2: the share of the window spent at the ceiling. */
  'acuShareOfWindowAtCeiling',
  /** Serverless v2: the peak ACU over the configured minimum (how far it had to climb). */
  'acuPeakOverMin',
  /** The offload writer's database load in I/O wait events, as a share of all its load (Performance Insights). */
  'offloadIoWaitShare',
] as const;
export type FolioFigure = (typeof FOLIO_FIGURES)[number];

const folioFigure = z.enum(FOLIO_FIGURES, {
  error: (iss) => `"${String(iss.input)}" is not a figure the report computes (valid: ${FOLIO_FIGURES.join(', ')})`,
});
const folioCondition = z
  .strictObject({ figure: folioFigure, above: threshold.optional(), below: threshold.optional() })
  .refine((c) => (c.above === undefined) !== (c.below === undefined), { error: (iss) => `${JSON.stringify(iss.input)} needs exactly one of above or below` });

/** What a proposal changes of the phase the window ran. */
const change = z.discriminatedUnion(
  'kind',
  [
    /** The provisioned writer `steps` sizes up (positive) or down (negative) in its family. */
    z.strictObject({
      kind: z.literal('writer-size'),
      steps: z
        .number()
        .int()
        .refine((n) => n !== 0, { error: 'steps: not 0' }),
    }),
    /** Serverless v2's maximum times `factor`, rounded up to a whole ACU. */
    z.strictObject({
      kind: z.literal('acu-max-times'),
      factor: z.number().gt(1, { error: (iss) => `factor ${String(iss.input)} is not a raise (valid: above 1)` }),
    }),
    /** Serverless v2's maximum cut to the power of two at or above the peak times `headroom`. */
    z.strictObject({ kind: z.literal('acu-max-to-peak'), headroom: z.number().min(1) }),
    /** Serverless v2's minimum raised to `share` of the peak (whole ACUs): the cluster starts warm. */
    z.strictObject({ kind: z.literal('acu-min-share-of-peak'), share: z.number().gt(0).lt(1) }),
    /** The next routable module not yet on the offload cluster, moved there. */
    z.strictObject({ kind: z.literal('route-next-module') }),
    /** Nothing to change in the phase: the rule's words say where to look instead. */
    z.strictObject({ kind: z.literal('none') }),
  ],
  {
    error: (iss) =>
      `proposal kind ${JSON.stringify((iss.input as { kind?: unknown })?.kind)} is not valid (valid: writer-size, acu-max-times, acu-max-to-peak, acu-min-share-of-peak, route-next-module, none)`,
  },
);
const proposalRule = z.strictObject({
  /** The rule's name, in the proposal and its tests. */
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, { error: (iss) => `"${String(iss.input)}" is not a rule id (valid: lowercase words joined by hyphens)` }),
  /** Every condition must hold. */
  when: z.array(folioCondition).min(1).readonly(),
  propose: change,
  /** Why, in the report's words; the figures are cited beside it. */
  says: z.string().min(1),
});
export type FolioProposalRule = z.output<typeof proposalRule>;

export const folioObservabilitySchema = z.strictObject({
  ...names.shape,
  alarmEmails,
  /**
   * What the report proposes next: the first rule whose conditions hold (one change at a time,
   * as PTF's phases went), and only from a window long and whole enough to judge.
   */
  proposals: z.strictObject({
    minimumMinutes: z
      .number()
      .int()
      .min(5, { error: (iss) => `${String(iss.input)} minutes is too short to judge a phase (valid: at least 5)` }),
    /** Every series a figure comes from must have at least this share of its expected points. */
    minimumCoverage: z.number().gt(0).max(1),
    rules: z.array(proposalRule).min(1).readonly(),
  }),
  alarms: z.strictObject({
    /** Serverless v2 pinned at its ceiling (seed test10: "flatlining exactly at the maximum"). */
    serverlessAtCeiling: sustained({ percentOfMax: percent }),
    /** Either cluster's writer CPU. */
    cpuHigh: sustained({ percent }),
  }),
});

/**
 * The figures the report computes for "Where the bottleneck was" (lib/temporal/commands/report/bottlenecks.ts),
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

/** What a Temporal report proposes for the component that held a run back most (lib/temporal/commands/report/temporal-proposals.ts). */
const factor = z.number().gt(1, { error: (iss) => `factor ${String(iss.input)} is not a raise (valid: above 1)` });
const remedy = z.discriminatedUnion(
  'kind',
  [
    /** A service's replicas (a Temporal role's, or the benchmark workers') times `factor`, rounded up. */
    z.strictObject({ kind: z.literal('replicas'), service: z.enum(['history', 'matching', 'frontend', 'worker', 'benchmark-workers']), factor }),
    /** Numeric dynamic-config keys times `factor` (task-queue partitions, rate limits). */
    z.strictObject({ kind: z.literal('dynamic-config'), keys: z.array(z.string().min(1)).min(1).readonly(), factor }),
    /** Every role's connection pool (maxConns and maxIdleConns) times `factor`. */
    z.strictObject({ kind: z.literal('pools'), factor }),
    /** The load generator's vCPU and memory times `factor`. */
    z.strictObject({ kind: z.literal('generator'), factor }),
  ],
  { error: (iss) => `remedy kind ${JSON.stringify((iss.input as { kind?: unknown })?.kind)} is not valid (valid: replicas, dynamic-config, pools, generator)` },
);
export type TemporalRemedy = z.output<typeof remedy>;

export const temporalObservabilitySchema = z.strictObject({
  ...names.shape,
  alarmEmails,
  /**
   * What the report proposes next: the remedy for the component the bottleneck rules rank first,
   * applied to the preset and checked by config (packing and headroom), from a window long enough.
   */
  proposals: z.strictObject({
    minimumMinutes: z.number().min(1, { error: (iss) => `${String(iss.input)} minutes is too short to judge a run (valid: at least 1)` }),
    remedies: z.strictObject(
      Object.fromEntries(BOTTLENECK_COMPONENTS.map((c) => [c, remedy])) as Record<(typeof BOTTLENECK_COMPONENTS)[number], typeof remedy>,
    ),
  }),
  /**
   * `bench ladder`: how long each rate is offered, at most how many rates, and when a step held
   * (lib/temporal/commands/bench/ladder.ts judges each step by these, and says which failed).
   */
  ladder: z.strictObject({
    step: goDuration.refine((d) => durationSeconds(d) >= 10, {
      error: (iss) => `"${String(iss.input)}" is too short a step (valid: at least 10s, e.g. 5m)`,
    }),
    maxSteps: z.number().int().min(2).max(20),
    held: z.strictObject({
      /** Workflows completed over workflows offered (start errors count as not completed). */
      completedShareMin: z.number().gt(0).max(1),
      /** The step's start-to-close P99. */
      p99MaxMs: z.number().positive(),
      /** Open workflows' growth over the step's second half, as a share of the starts in it: a backlog building. */
      openGrowthShareMax: z.number().min(0).lt(1),
    }),
  }),
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
/** How `bench ladder` steps and judges (lib/temporal/commands/bench/ladder.ts). */
export type LadderConfig = z.output<typeof temporalObservabilitySchema>['ladder'];
