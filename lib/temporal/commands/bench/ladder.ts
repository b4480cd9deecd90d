import { durationSeconds } from '../../../../config/fields';
import type { LadderConfig } from '../../../../config/observability-schema';
import { type StepJudgement, judgeStep, ladderOutcome } from '../../../commands/shared/ladder-judgement';
import type { Ladder, LadderStep } from '../../../commands/shared/run-record';

/*
 * The load ladder: rising rates offered one step at a time, each step judged held or not by
 * the rules in config (observability.ladder.held), stopping at the first step that does not
 * hold. `bench ladder` runs each step as a generator task on ECS, `bench:local` as a local
 * process; both climb with `climbLadder` and judge with `judgeStep` (shared/ladder-judgement.ts,
 * which the report judges the record again with), so a ladder means the same thing everywhere.
 */

/** What one step's run gives back, however it was run. */
export type StepRun = Omit<LadderStep, keyof StepJudgement | 'rate'>;

/**
 * Offers each rate in turn and judges it, until a step does not hold: `onStep` sees the ladder
 * after every step (bench ladder writes its record then, so an interrupted ladder keeps its steps).
 */
export async function climbLadder(
  rates: readonly number[],
  rules: Pick<LadderConfig, 'step' | 'held'>,
  run: (rate: number, index: number) => Promise<StepRun>,
  onStep: (ladder: Ladder) => void = () => undefined,
): Promise<Ladder> {
  const steps: LadderStep[] = [];
  const stepSeconds = durationSeconds(rules.step);
  const ladder = (): Ladder => ({ step: rules.step, held: { ...rules.held }, rates: [...rates], steps: [...steps], ...ladderOutcome(steps) });
  for (const [i, rate] of rates.entries()) {
    const r = await run(rate, i);
    const step = { rate, ...r, ...judgeStep(rate, stepSeconds, r.result, rules.held) };
    steps.push(step);
    onStep(ladder());
    if (!step.held) break;
  }
  return ladder();
}
