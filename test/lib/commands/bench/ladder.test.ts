import { ConfigError } from '../../../../config';
import { climbLadder, judgeStep, ladderRates, openGrowthShare } from '../../../../lib/commands/bench/ladder';
import { generatorResult } from '../../../support/generator-result';

/*
 * The ladder's arithmetic: the rates it offers, each rule that judges a step (each met by a
 * step that should break it and one that should not), and the climb that stops at the first
 * step that does not hold.
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

describe('judgeStep: each rule, a step that breaks it and one that does not', () => {
  test('a step the cluster keeps up with holds', () => {
    const j = judgeStep(20, 60, step(20, 60), RULES);
    expect(j).toMatchObject({ held: true, failed: [] });
    expect(j.figures).toEqual({ offered: 1200, completed: 1200, completedShare: 1, completedPerSecond: 20, p99Ms: 200, openGrowthShare: 0 });
  });

  test('completed against offered: a step that completed 98% does not hold', () => {
    const r = step(20, 60);
    const j = judgeStep(20, 60, { ...r, results: { ...r.results, workflowsCompleted: 1176 } }, RULES);
    expect(j.held).toBe(false);
    expect(j.failed).toEqual(['completed 1176 of 1200 offered (98%, below 99%)']);
    // Start errors are offered but never completed: the generator's offered count is the base.
    expect(judgeStep(20, 60, step(20, 60, { offered: 1300 }), RULES).failed[0]).toMatch(/^completed 1200 of 1300 offered/);
  });

  test('P99 against its bound', () => {
    expect(judgeStep(20, 60, step(20, 60, { p99: 1000 }), RULES).held).toBe(true);
    expect(judgeStep(20, 60, step(20, 60, { p99: 1001 }), RULES).failed).toEqual(['P99 1001 ms (above 1000 ms)']);
  });

  test('open workflows growing: a cluster completing 18 of 20 a second builds a backlog', () => {
    const r = step(20, 60, { capacity: 18 });
    // Every workflow completed in the end (the generator waited), so only the growth catches it.
    const j = judgeStep(20, 60, { ...r, results: { ...r.results, workflowsCompleted: 1200 } }, RULES);
    expect(j.held).toBe(false);
    expect(j.failed).toEqual([expect.stringMatching(/^open workflows grew by \d+(\.\d+)?% of the second half's starts \(above 5%\): a backlog building$/)]);
    expect(j.figures.openGrowthShare).toBeGreaterThan(0.05);
  });

  test('a steady open count with noise holds; one rising by a few percent does not', () => {
    const flat = {
      intervalSeconds: 1,
      started: Array(40).fill(10),
      completed: [0, ...Array(39).fill(10)].map((c, i) => c + (i % 2 ? 1 : -1) * (i > 0 ? 1 : 0)),
      startErrors: [],
      latencyP99Ms: [],
    };
    expect(openGrowthShare(flat, 40)).toBeLessThan(0.05);
    const rising = { ...flat, completed: [0, ...Array(39).fill(9)] };
    expect(openGrowthShare(rising, 40)).toBeGreaterThan(0.05);
  });

  test('nothing judged is nothing held: no series, no result', () => {
    expect(judgeStep(20, 60, step(20, 60, { series: false }), RULES)).toMatchObject({
      held: false,
      failed: ['open workflows not judged: the result has no series'],
    });
    expect(judgeStep(20, 60, null, RULES)).toMatchObject({ held: false, failed: ['no result from the generator'] });
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
