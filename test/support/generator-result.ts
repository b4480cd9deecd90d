import type { GeneratorResult } from '../../lib/commands/shared/run-record';

/**
 * A generator result for `rate` offered over `seconds` from `start`, against a cluster that
 * completes at most `capacity` a second, a second after the start (what it cannot complete
 * stays open): the shape the benchmark program prints, series included.
 */
export function generatorResult(
  rate: number,
  seconds: number,
  o: { capacity?: number; p99?: number; series?: boolean; offered?: number; start?: string } = {},
): GeneratorResult {
  const start = o.start ?? '2026-11-26T10:00:00Z';
  const started = Array.from({ length: seconds }, () => rate);
  const completed: number[] = [0];
  let open = 0;
  for (let i = 0; i < seconds - 1; i++) {
    open += started[i];
    const done = Math.min(open, o.capacity ?? Number.POSITIVE_INFINITY);
    completed.push(done);
    open -= done;
  }
  const total = completed.reduce((a, b) => a + b, 0);
  return {
    results: {
      workflowsOffered: o.offered ?? rate * seconds,
      workflowsStarted: rate * seconds,
      // Without a capacity the last second's starts complete while the generator waits.
      workflowsCompleted: total + (o.capacity === undefined ? rate : 0),
      workflowsFailed: 0,
      actualRate: rate,
      latency: { p50: 100, p95: 150, p99: o.p99 ?? 200, max: Math.max(400, o.p99 ?? 200) },
    },
    window: { start, lastStart: new Date(Date.parse(start) + seconds * 1000).toISOString() },
    ...(o.series !== false && { series: { intervalSeconds: 1, started, startErrors: started.map(() => 0), completed, latencyP99Ms: started.map(() => 200) } }),
  };
}
