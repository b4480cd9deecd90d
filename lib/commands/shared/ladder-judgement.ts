import type { LadderConfig } from '../../../config/observability-schema';
import { round } from './figure';
import type { GeneratorResult, Ladder, LadderStep } from './run-record';

/*
 * When a ladder's step holds: the rules in config (observability.ladder.held) applied to the
 * generator's result for the step. `bench ladder` and `bench:local` judge each step with it as
 * they climb; the report judges a record's steps again by config's rules
 * (lib/commands/report/record-checks.ts), so a record whose verdicts its own results do not
 * bear out is refused, not reported.
 */

type HeldRules = LadderConfig['held'];

export type StepJudgement = Pick<LadderStep, 'held' | 'figures' | 'failed'>;

/**
 * Open workflows (started less completed, from the generator's series) over the offered part
 * of the step: the mean of its last quarter less the mean of its second, over the starts in
 * its second half. A step the cluster keeps up with holds its open count flat (rate x latency);
 * one it does not grows it by what it falls behind.
 */
export function openGrowthShare(series: GeneratorResult['series'], offeredSeconds: number): number | null {
  if (!series) return null;
  const n = Math.min(series.started.length, Math.max(4, Math.round(offeredSeconds / series.intervalSeconds)));
  if (n < 4) return null;
  const open: number[] = [];
  let o = 0;
  for (let i = 0; i < n; i++) open.push((o += series.started[i] - (series.completed[i] ?? 0)));
  const mean = (from: number, to: number) => open.slice(from, to).reduce((a, b) => a + b, 0) / (to - from);
  const q = Math.floor(n / 4);
  const starts = series.started.slice(Math.floor(n / 2), n).reduce((a, b) => a + b, 0);
  if (starts === 0) return null;
  return Math.max(0, mean(n - q, n) - mean(q, 2 * q)) / starts;
}

/** One step held or not, by the rules; a step without a result, or a figure a rule needs, does not hold. */
export function judgeStep(rate: number, stepSeconds: number, result: GeneratorResult | null, rules: HeldRules): StepJudgement {
  if (!result)
    return {
      held: false,
      figures: { offered: null, completed: null, completedShare: null, completedPerSecond: null, p99Ms: null, openGrowthShare: null },
      failed: ['no result from the generator'],
    };
  const x = result.results;
  const offered = x.workflowsOffered ?? Math.round(rate * stepSeconds);
  const offeredSeconds =
    result.window?.lastStart && result.window.start ? (Date.parse(result.window.lastStart) - Date.parse(result.window.start)) / 1000 : stepSeconds;
  const figures: StepJudgement['figures'] = {
    offered,
    completed: x.workflowsCompleted,
    completedShare: offered > 0 ? x.workflowsCompleted / offered : null,
    completedPerSecond: offeredSeconds > 0 ? x.workflowsCompleted / offeredSeconds : null,
    p99Ms: x.latency.p99,
    openGrowthShare: openGrowthShare(result.series, offeredSeconds),
  };
  const failed: string[] = [];
  if (figures.completedShare === null) failed.push('nothing was offered');
  else if (figures.completedShare < rules.completedShareMin)
    failed.push(`completed ${x.workflowsCompleted} of ${offered} offered (${round(figures.completedShare * 100)}%, below ${rules.completedShareMin * 100}%)`);
  if (x.workflowsCompleted > 0 && x.latency.p99 > rules.p99MaxMs)
    failed.push(`P99 ${round(x.latency.p99)} ms (above ${rules.p99MaxMs.toLocaleString('en-US')} ms)`);
  if (figures.openGrowthShare === null) failed.push('open workflows not judged: the result has no series');
  else if (figures.openGrowthShare > rules.openGrowthShareMax)
    failed.push(
      `open workflows grew by ${round(figures.openGrowthShare * 100)}% of the second half's starts (above ${rules.openGrowthShareMax * 100}%): a backlog building`,
    );
  return { held: failed.length === 0, figures, failed };
}

export function ladderOutcome(steps: readonly LadderStep[]): Pick<Ladder, 'highestHeld' | 'firstFailed'> {
  const failing = steps.findIndex((s) => !s.held);
  const heldSteps = failing < 0 ? steps : steps.slice(0, failing);
  return { highestHeld: heldSteps.at(-1)?.rate ?? null, firstFailed: failing < 0 ? null : steps[failing].rate };
}
