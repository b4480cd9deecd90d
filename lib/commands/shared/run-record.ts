import { z } from '../../../config/zod';
import { ConfigError } from '../../../config';
import { fileIssue } from '../../../config/errors';
import { readJson } from './files';

/*
 * The run record: what `bench run` writes after a run (reports/runs/<scenario>-<start>.json) and
 * what `report --run` reads back: the scenario, the run's window, and the generator's result.
 * Both commands import it from here, so the writer and the reader cannot drift apart.
 */

/** The generator's series (benchmark/internal/results/series.go), counted from its start. */
export interface GeneratorSeries extends z.infer<typeof generatorSeriesSchema> {
  readonly start: Date;
}

const counts = z.array(z.number().nonnegative());
const generatorSeriesSchema = z.object({
  intervalSeconds: z.number().int().positive(),
  started: counts,
  startErrors: counts,
  completed: counts,
  latencyP99Ms: counts,
});

/** The generator's result JSON (its results package), the fields the run record keeps. */
const generatorResultSchema = z.object({
  results: z.object({
    workflowsOffered: z.number().optional(),
    workflowsStarted: z.number(),
    workflowsCompleted: z.number(),
    workflowsFailed: z.number(),
    workflowsTimedOut: z.number().optional(),
    startErrors: z.number().optional(),
    startErrorsByCause: z.record(z.string(), z.number()).optional(),
    actualRate: z.number(),
    latency: z.object({ avg: z.number().optional(), p50: z.number(), p90: z.number().optional(), p95: z.number(), p99: z.number(), max: z.number() }),
  }),
  /** lastStart: when the last start was offered; after it the generator only waits for results (until durationSeconds from start). */
  window: z
    .object({ start: z.iso.datetime({ offset: true }), lastStart: z.iso.datetime({ offset: true }).optional(), durationSeconds: z.number().optional() })
    .optional(),
  series: generatorSeriesSchema.optional(),
  passed: z.boolean().optional(),
  failureReasons: z.array(z.string()).nullish(),
});
export type GeneratorResult = z.infer<typeof generatorResultSchema>;

const figure = z.number().nullable();
/** One step of a ladder (lib/temporal/commands/bench/ladder.ts): what was offered, what came back, and the judgement. */
const ladderStepSchema = z.object({
  rate: z.number().positive(),
  start: z.iso.datetime({ offset: true }),
  end: z.iso.datetime({ offset: true }),
  taskArn: z.string().optional(),
  exitCode: z.number().int().nullable(),
  result: generatorResultSchema.nullable(),
  held: z.boolean(),
  /** Each rule the step broke (or could not be judged on), with its figure: empty when it held. */
  failed: z.array(z.string()),
  figures: z.object({
    offered: figure,
    completed: figure,
    completedShare: figure,
    completedPerSecond: figure,
    p99Ms: figure,
    openGrowthShare: figure,
  }),
});
export type LadderStep = z.infer<typeof ladderStepSchema>;

/** `bench ladder`'s part of a run record: the rules it judged by, the rates planned, every step offered. */
const ladderSchema = z.object({
  step: z.string(),
  held: z.object({ completedShareMin: z.number(), p99MaxMs: z.number(), openGrowthShareMax: z.number() }),
  rates: z.array(z.number().positive()).min(1),
  steps: z.array(ladderStepSchema),
  /** The highest rate whose step held, below the first that did not; null when the first failed. */
  highestHeld: figure,
  /** The first rate that did not hold; null when every planned step held (the cap was reached). */
  firstFailed: figure,
});
export type Ladder = z.infer<typeof ladderSchema>;

/**
 * What `bench run` records and the report reads with `--run`: the scenario and the window
 * of one benchmark run.
 */
const benchRunSchema = z.object({
  scenario: z.string().min(1),
  start: z.iso.datetime({ offset: true }),
  end: z.iso.datetime({ offset: true }),
  workflowsCompleted: z.number().int().nonnegative().optional(),
  /** The generator's result, as bench run records it: its latency percentiles go on the latency chart. */
  result: z
    .object({
      results: z.object({
        workflowsOffered: z.number().optional(),
        workflowsStarted: z.number().optional(),
        workflowsCompleted: z.number().optional(),
        workflowsFailed: z.number().optional(),
        actualRate: z.number().optional(),
        latency: z.object({ p50: z.number(), p95: z.number(), p99: z.number(), max: z.number().optional() }),
      }),
      window: z.object({ start: z.iso.datetime({ offset: true }), lastStart: z.iso.datetime({ offset: true }).optional() }).optional(),
      series: generatorSeriesSchema.optional(),
    })
    .nullish(),
  /** The store round trip bench run measured from a server task before the load (ms). */
  storeRoundTrip: z.object({ medianMs: z.number(), p99Ms: z.number() }).nullish(),
  /** A ladder's steps (bench ladder): the window spans them all. */
  ladder: ladderSchema.optional(),
});
export type BenchRun = z.infer<typeof benchRunSchema>;

/** The benchmark program's probe result (BENCHMARK_PROBE_ONLY): SELECT 1 round trips from a server's network position. */
export const probeResultSchema = z.object({
  probe: z.object({
    host: z.string(),
    queries: z.number().int(),
    connectMs: z.number(),
    medianMs: z.number(),
    p99Ms: z.number(),
    minMs: z.number(),
    maxMs: z.number(),
  }),
});
type ProbeResult = z.infer<typeof probeResultSchema>['probe'];

/** What `bench run` writes: the fields `report` reads, and what the run was asked for and how it ended. */
export interface RunRecord extends BenchRun {
  readonly targetRate: number;
  readonly duration: string;
  readonly rampUp: string;
  readonly taskArn: string;
  readonly exitCode: number | null;
  readonly stoppedReason: string | null;
  readonly result: GeneratorResult | null;
  /** The store round trip measured just before the load (null: not measured; storeRoundTripNote says why). */
  readonly storeRoundTrip: ProbeResult | null;
  readonly storeRoundTripNote?: string;
}

/** What `bench ladder` writes: the steps' span, their completions, the probe before the first, and the ladder. */
export interface LadderRecord extends Omit<BenchRun, 'storeRoundTrip' | 'ladder'>, Pick<RunRecord, 'storeRoundTrip' | 'storeRoundTripNote'> {
  readonly ladder: Ladder;
}

/**
 * The last result JSON in the generator's output: one event holding the whole object, or
 * an indented object over several events (awslogs makes one event per line).
 */
export function findResult(lines: readonly string[]): GeneratorResult | null {
  return lastJson(lines, generatorResultSchema);
}

/** The store probe's result in its log (the probe prints one JSON object, as the generator does). */
export function findProbeResult(lines: readonly string[]): ProbeResult | null {
  return lastJson(lines, probeResultSchema)?.probe ?? null;
}

/** The last JSON object in a log that `schema` accepts. */
function lastJson<T>(lines: readonly string[], schema: z.ZodType<T>): T | null {
  const candidates: string[] = [];
  lines.forEach((line, i) => {
    const t = line.trim();
    if (t.startsWith('{') && t.endsWith('}')) candidates.push(t);
    if (t === '{') {
      const end = lines.findIndex((l, j) => j > i && l.trimEnd() === '}');
      if (end > i) candidates.push(lines.slice(i, end + 1).join('\n'));
    }
  });
  for (const text of candidates.reverse()) {
    try {
      const parsed = schema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
    } catch {
      // not JSON: a log line that happens to start with a brace
    }
  }
  return null;
}

/** A run record from a file, checked: `--run <file>` of `report`. */
export function readRunRecord(path: string): BenchRun {
  const raw = readJson('--run', path, 'the JSON file that bench run writes');
  const parsed = benchRunSchema.safeParse(raw);
  if (!parsed.success)
    throw new ConfigError(
      `${fileIssue(`--run ${path}`, parsed.error, raw, benchRunSchema)}; a run file is what bench run writes: {scenario, start, end, workflowsCompleted?}`,
    );
  return parsed.data;
}

/** The scenario a run record names: what `report --run` reports on when --scenario is not given. */
export const runScenario = (path: string): string => readRunRecord(path).scenario;
