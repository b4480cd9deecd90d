import { z } from 'zod';
import { ConfigError } from '../../../config';
import { fileIssue } from '../../../config/errors';
import { readTextFile } from './files';

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
        actualRate: z.number().optional(),
        latency: z.object({ p50: z.number(), p95: z.number(), p99: z.number(), max: z.number().optional() }),
      }),
      window: z.object({ start: z.iso.datetime({ offset: true }) }).optional(),
      series: generatorSeriesSchema.optional(),
    })
    .nullish(),
  /** The store round trip bench run measured from a server task before the load (ms). */
  storeRoundTrip: z.object({ medianMs: z.number(), p99Ms: z.number() }).nullish(),
});
export type BenchRun = z.infer<typeof benchRunSchema>;

/** The generator's result JSON (its results package), the fields the run record keeps. */
const generatorResultSchema = z.object({
  results: z.object({
    workflowsStarted: z.number(),
    workflowsCompleted: z.number(),
    workflowsFailed: z.number(),
    workflowsTimedOut: z.number().optional(),
    startErrors: z.number().optional(),
    startErrorsByCause: z.record(z.string(), z.number()).optional(),
    actualRate: z.number(),
    latency: z.object({ p50: z.number(), p95: z.number(), p99: z.number(), max: z.number() }),
  }),
  window: z.object({ start: z.iso.datetime({ offset: true }) }).optional(),
  series: generatorSeriesSchema.optional(),
  passed: z.boolean().optional(),
  failureReasons: z.array(z.string()).nullish(),
});
export type GeneratorResult = z.infer<typeof generatorResultSchema>;

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
  let raw: unknown;
  const text = readTextFile('--run', path);
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`--run "${path}": not JSON (${(e as Error).message.split('\n')[0]}) (valid: the JSON file that bench run writes)`);
  }
  const parsed = benchRunSchema.safeParse(raw);
  if (!parsed.success)
    throw new ConfigError(
      `${fileIssue(`--run ${path}`, parsed.error, raw, benchRunSchema)}; a run file is what bench run writes: {scenario, start, end, workflowsCompleted?}`,
    );
  return parsed.data;
}

/** The scenario a run record names: what `report --run` reports on when --scenario is not given. */
export const runScenario = (path: string): string => readRunRecord(path).scenario;
