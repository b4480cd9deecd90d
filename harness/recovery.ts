/* When a run was back at its rate after a fault: the judge every fault run and the upgrade are held to. */

/** Seconds in a row the run must hold the rate, after its last bad second, to count as back. */
const RECOVERED_FOR = 5;
/** A generator's series, as far as the judge reads it. */
export interface RunSeries {
  readonly intervalSeconds: number;
  /** Completions by the interval their result arrived in. */
  readonly completed: readonly number[];
  /** P99 latency of the completions by the interval their start was due (0: none). */
  readonly latencyP99MsByStart: readonly number[];
}

/**
 * When the run was back: the end of the last second, from the fault's start to the last
 * start, whose completions (averaged with the seconds either side: at 10/s one second holds
 * 8 or 12 by chance) fell under 90% of the rate, or whose starts had a P99 above twice the
 * steady one (or 250 ms above it, for a fast steady state); 0 when no second was. null when the
 * run was not back for RECOVERED_FOR seconds before the load ended. Latency counts by start:
 * a workflow the fault stalled arrives late and would mark the second it arrives in as bad
 * although the system serves new work well by then; its latency counts in the P99 during.
 */
export function recovery(series: RunSeries, rate: number, from: number, steadyP99Ms: number, lastStart: number): number | null {
  const c = series.completed;
  const perSecond = (i: number) => (c[i - 1] ?? c[i]) / 3 + c[i] / 3 + (c[i + 1] ?? c[i]) / 3;
  const bad = (i: number) =>
    perSecond(i) / series.intervalSeconds < 0.9 * rate || (series.latencyP99MsByStart[i] ?? 0) > Math.max(2 * steadyP99Ms, steadyP99Ms + 250);
  const first = Math.floor(from / series.intervalSeconds);
  const end = Math.min(c.length, Math.floor(lastStart / series.intervalSeconds));
  let lastBad = -1;
  let held = 0;
  for (let i = first; i < end; i++) {
    if (!bad(i)) {
      held++;
      continue;
    }
    // One bad second alone, once the run has held for RECOVERED_FOR, is the busy machine's noise
    // (a scheduler or GC pause); two in a row, or one sooner after the last, count.
    const lone = held >= RECOVERED_FOR && !(i + 1 < end && bad(i + 1));
    if (!lone) lastBad = i;
    held = 0;
  }
  if (lastBad < 0) return 0;
  if (lastBad + 1 + RECOVERED_FOR > end) return null;
  return Math.round(((lastBad + 1) * series.intervalSeconds - from) * 10) / 10;
}
