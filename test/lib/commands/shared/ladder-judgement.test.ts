import { judgeStep, openGrowthShare } from '../../../../lib/commands/shared/ladder-judgement';
import { generatorResult } from '../../../support/generator-result';

/*
 * When a step holds: each rule met by a step that should break it and one that should not (the
 * report's judgement of a whole record is test/lib/commands/report/record-checks.test.ts).
 */

const RULES = { completedShareMin: 0.99, p99MaxMs: 1000, openGrowthShareMax: 0.05 };
const step = generatorResult;

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
    expect(judgeStep(20, 60, step(20, 60, { p99: 1001 }), RULES).failed).toEqual(['P99 1,001 ms (above 1,000 ms)']);
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
