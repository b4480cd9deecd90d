import { ConfigError } from '../../../../config';
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

/** The rates to offer: the ones given (rising), or doubling from `from` up to `upTo`, at most `maxSteps`. */
export function ladderRates(o: { readonly rates?: readonly number[]; readonly from?: number; readonly upTo?: number; readonly maxSteps: number }): number[] {
  if (o.rates) {
    const falling = o.rates.findIndex((r, i) => i > 0 && r <= o.rates![i - 1]);
    if (falling > 0)
      throw new ConfigError(
        `--rates ${o.rates.join(',')}: ${o.rates[falling]} does not rise above ${o.rates[falling - 1]} (valid: rising rates, e.g. 100,200,400)`,
      );
    if (o.rates.length > o.maxSteps)
      throw new ConfigError(
        `--rates ${o.rates.join(',')}: ${o.rates.length} steps, more than the ladder's ${o.maxSteps} (valid: at most ${o.maxSteps} rates; observability.ladder.maxSteps)`,
      );
    return [...o.rates];
  }
  const from = o.from!;
  if (o.upTo !== undefined && o.upTo < from) throw new ConfigError(`--up-to ${o.upTo} is below --from ${from} (valid: a cap at or above the first rate)`);
  const rates: number[] = [];
  for (let r = from; rates.length < o.maxSteps && (o.upTo === undefined || r <= o.upTo); r *= 2) rates.push(r);
  return rates;
}

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
