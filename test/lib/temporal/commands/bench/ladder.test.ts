import { ConfigError } from '../../../../../config';
import { climbLadder } from '../../../../../lib/temporal/commands/bench/ladder';
import { ladderRates } from '../../../../../config/bench-load';
import { generatorResult } from '../../../../support/generator-result';

/*
 * The ladder's arithmetic: the rates it offers, and the climb that stops at the first step that
 * does not hold (each rule that judges a step: test/lib/commands/shared/ladder-judgement.test.ts).
 */

const RULES = { completedShareMin: 0.99, p99MaxMs: 1000, openGrowthShareMax: 0.05 };
const START = '2026-11-26T10:00:00Z';

const step = generatorResult;

describe('ladderRates', () => {
  test('the rates given, when they rise', () => {
    expect(ladderRates({ rates: [100, 200, 400], maxSteps: 8 })).toEqual([100, 200, 400]);
  });

  test.each([
    [{ rates: [100, 100], maxSteps: 8 }, '--rates 100,100: 100 does not rise above 100 (valid: rising rates, e.g. 100,200,400)'],
    [{ rates: [1, 2, 3], maxSteps: 2 }, "--rates 1,2,3: 3 steps, more than the ladder's 2 (valid: at most 2 rates; observability.ladder.maxSteps)"],
    [{ from: 400, upTo: 200, maxSteps: 8 }, '--up-to 200 is below --from 400 (valid: a cap at or above the first rate)'],
  ])('refuses %j', (o, message) => {
    expect(() => ladderRates(o)).toThrow(new ConfigError(message));
  });

  test('doubling from a start, up to the cap or the most steps', () => {
    expect(ladderRates({ from: 150, upTo: 1200, maxSteps: 8 })).toEqual([150, 300, 600, 1200]);
    expect(ladderRates({ from: 150, upTo: 1199, maxSteps: 8 })).toEqual([150, 300, 600]);
    expect(ladderRates({ from: 10, maxSteps: 3 })).toEqual([10, 20, 40]);
  });
});

describe('climbLadder', () => {
  const run = (capacity: number) => async (rate: number) => ({
    start: START,
    end: START,
    exitCode: 0,
    result: step(rate, 30, rate > capacity ? { capacity } : {}),
  });

  test('climbs until a step does not hold, and records every step offered', async () => {
    const seen: number[] = [];
    const ladder = await climbLadder([10, 20, 40, 80], { step: '30s', held: RULES }, run(30), (l) => seen.push(l.steps.length));
    expect(ladder.steps.map((s) => [s.rate, s.held])).toEqual([
      [10, true],
      [20, true],
      [40, false],
    ]);
    expect(ladder).toMatchObject({ highestHeld: 20, firstFailed: 40, rates: [10, 20, 40, 80], step: '30s' });
    expect(seen).toEqual([1, 2, 3]);
  });

  test('a first step that fails holds nothing; a ladder that holds to its cap fails nothing', async () => {
    expect(await climbLadder([10, 20], { step: '30s', held: RULES }, run(5))).toMatchObject({ highestHeld: null, firstFailed: 10 });
    expect(await climbLadder([10, 20], { step: '30s', held: RULES }, run(100))).toMatchObject({ highestHeld: 20, firstFailed: null });
  });
});
