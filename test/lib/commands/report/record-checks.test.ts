import { checkRunRecord } from '../../../../lib/commands/report/record-checks';
import type { BenchRun, Ladder } from '../../../../lib/commands/shared/run-record';
import { climbLadder } from '../../../../lib/temporal/commands/bench/ladder';
import { generatorResult } from '../../../support/generator-result';

/*
 * A record judged from its own data: one as bench ladder (or bench run) wrote it passes, and
 * each kind of edit the report must not take at its word is refused, naming the field.
 */

const RULES = { completedShareMin: 0.99, p99MaxMs: 1000, openGrowthShareMax: 0.05 };
const T0 = Date.parse('2026-11-26T10:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

/** A ladder of 60 s steps at 20, 40 and 80/s, the last over its P99 bound: each step's task runs 10 s before and 20 s after its load. */
async function ladderRecord(): Promise<BenchRun & { ladder: Ladder }> {
  const ladder = await climbLadder([20, 40, 80], { step: '60s', held: RULES }, async (rate, i) => ({
    start: at(i * 100),
    end: at(i * 100 + 90),
    exitCode: 0,
    result: generatorResult(rate, 60, { start: at(i * 100 + 10), ...(rate === 80 && { p99: 2500 }) }),
  }));
  return {
    scenario: 'temporal-150wps',
    start: ladder.steps[0].start,
    end: ladder.steps.at(-1)!.end,
    workflowsCompleted: ladder.steps.reduce((n, s) => n + s.result!.results.workflowsCompleted, 0),
    ladder,
  };
}

/** The record with its ladder edited. */
const edit = (r: BenchRun & { ladder: Ladder }, e: Partial<Ladder>) => ({ ...r, ladder: { ...r.ladder, ...e } });
const editStep = (r: BenchRun & { ladder: Ladder }, i: number, e: (s: Ladder['steps'][number]) => object) =>
  edit(r, { steps: r.ladder.steps.map((s, j) => (j === i ? { ...s, ...e(s) } : s)) as Ladder['steps'] });
const refusal = (r: BenchRun) => {
  try {
    checkRunRecord(r, 'run.json', RULES);
  } catch (e) {
    return (e as Error).message;
  }
  return 'accepted';
};

describe('checkRunRecord: a ladder record', () => {
  test('as bench ladder wrote it, it passes', async () => {
    const r = await ladderRecord();
    expect(r.ladder.highestHeld).toBe(40);
    expect(refusal(r)).toBe('accepted');
  });

  test('rates claimed four times over, results untouched', async () => {
    const r = await ladderRecord();
    const x4 = edit(r, {
      rates: r.ladder.rates.map((v) => v * 4),
      steps: r.ladder.steps.map((s) => ({ ...s, rate: s.rate * 4 })),
      highestHeld: 160,
      firstFailed: 320,
    });
    expect(refusal(x4)).toBe(
      'run.json: ladder.steps[0].rate 80/s disagrees with its result, which offered 1200 starts over 60 s (20/s) (valid: the rate the step offered)',
    );
  });

  test("the record's own rules loosened, every step then called held", async () => {
    const r = await ladderRecord();
    const loose = edit(r, {
      held: { completedShareMin: 0, p99MaxMs: 1e9, openGrowthShareMax: 0.99 },
      steps: r.ladder.steps.map((s) => ({ ...s, held: true, failed: [] })),
      highestHeld: 80,
      firstFailed: null,
    });
    expect(refusal(loose)).toMatch(/^run\.json: ladder\.held\.completedShareMin 0 is not config's 0\.99 \(observability\.ladder\.held\.completedShareMin\)/);
  });

  test('a verdict edited to hold that its result, by config, does not', async () => {
    const r = await ladderRecord();
    const held = edit(
      editStep(r, 2, () => ({ held: true, failed: [] })),
      { highestHeld: 80, firstFailed: null },
    );
    expect(refusal(held)).toBe(
      "run.json: ladder.steps[2] at 80/s says held, but its own result gives not held (P99 2,500 ms (above 1,000 ms)) by config's rules (observability.ladder.held) (valid: a record bench run or bench ladder wrote, unedited; run it again)",
    );
  });

  test('rates that fall', async () => {
    const r = await ladderRecord();
    expect(refusal(edit(r, { rates: [600, 300, 150] }))).toBe('run.json: ladder.rates 600,300,150: 300 does not rise above 600 (valid: rising rates)');
  });

  test('a step window a tick short of its step, as a fast cluster gives (the last start due 0.5 s before the end), passes; one seconds short does not, nor one that ends before its last start', async () => {
    const ladder = (end: number) =>
      climbLadder([2], { step: '30s', held: RULES }, async () => {
        const result = generatorResult(2, 30, { start: at(0.1) });
        return { start: at(0), end: at(end), exitCode: 0, result: { ...result, window: { start: at(0.1), lastStart: at(29.6) } } };
      });
    const record = async (end: number) => {
      const l = await ladder(end);
      return { scenario: 'temporal-150wps', start: l.steps[0].start, end: l.steps[0].end, workflowsCompleted: 60, ladder: l };
    };
    // 29.7 s: a real CI run of the local ladder's first step.
    expect(refusal(await record(29.7))).toBe('accepted');
    expect(refusal(await record(25))).toMatch(/^run\.json: ladder\.steps\[0\] lasts 25 s \(.*\), shorter than ladder\.step 30s/);
    // Within the tolerance, but ending before its own last start: not the step's result.
    expect(refusal(await record(29))).toMatch(/^run\.json: ladder\.steps\[0\]\.result\.window\.lastStart .* is outside the step's/);
  });

  test('a step at another rate than planned', async () => {
    const r = await ladderRecord();
    expect(refusal(edit(r, { rates: [20, 30, 80] }))).toMatch(/^run\.json: ladder\.steps\[1\]\.rate 40 is not ladder\.rates\[1\] 30/);
  });

  test("a step length that disagrees with the steps' times", async () => {
    const r = await ladderRecord();
    expect(refusal(edit(r, { step: '30s' }))).toBe(
      'run.json: ladder.step 30s disagrees with ladder.steps[0], whose result offered starts for 60 s (valid: the step length the ladder ran with)',
    );
    expect(refusal(edit(r, { step: '5m' }))).toMatch(/^run\.json: ladder\.steps\[0\] lasts 90 s \(.*\), shorter than ladder\.step 5m/);
  });

  test("a step's window that does not hold its result, or overlaps the one before", async () => {
    const r = await ladderRecord();
    expect(refusal(editStep(r, 1, () => ({ start: at(200), end: at(290) })))).toMatch(
      /^run\.json: ladder\.steps\[1\]\.result\.window\.start .* is outside the step's/,
    );
    expect(refusal(editStep(r, 1, () => ({ start: at(50), end: at(190) })))).toMatch(
      /^run\.json: ladder\.steps\[1\]\.start .* is before the previous step's end/,
    );
  });

  test('a figure edited, the verdict left', async () => {
    const r = await ladderRecord();
    expect(refusal(editStep(r, 0, (s) => ({ figures: { ...s.figures, completedShare: 1.5 } })))).toBe(
      'run.json: ladder.steps[0].figures.completedShare 1.5 is not what its result gives, 1 (valid: a record bench run or bench ladder wrote, unedited; run it again)',
    );
  });

  test('an outcome that is not what the steps give', async () => {
    const r = await ladderRecord();
    expect(refusal(edit(r, { highestHeld: 80 }))).toMatch(
      /^run\.json: ladder\.highestHeld 80 and ladder\.firstFailed 80 are not what its steps give: 40 and 80/,
    );
  });

  test('a window that is not the span of its steps, and a total that is not their sum', async () => {
    const r = await ladderRecord();
    expect(refusal({ ...r, end: at(200) })).toMatch(/^run\.json: start .* and end .* are not the steps' span/);
    expect(refusal({ ...r, workflowsCompleted: 1 })).toMatch(/^run\.json: workflowsCompleted 1 is not the steps' \d+/);
  });

  test("impossible figures in a step's result", async () => {
    const r = await ladderRecord();
    const result = (e: object) => editStep(r, 0, (s) => ({ result: { ...s.result!, results: { ...s.result!.results, ...e } } }));
    expect(refusal(result({ latency: { p50: -5, p95: 150, p99: 200, max: 400 } }))).toBe(
      'run.json: ladder.steps[0].result.results.latency.p50 -5 is negative (valid: a figure of 0 or more)',
    );
    expect(refusal(result({ workflowsCompleted: 1300 }))).toMatch(
      /^run\.json: ladder\.steps\[0\]\.result\.results\.workflowsCompleted 1300 is more than workflowsStarted 1200/,
    );
  });

  test('a ladder record for a family that runs no ladder', async () => {
    const r = await ladderRecord();
    expect(() => checkRunRecord(r, 'run.json', undefined)).toThrow(/^run\.json: a ladder record, but temporal-150wps's family runs no ladder/);
  });
});

describe('checkRunRecord: a run record', () => {
  const result = generatorResult(150, 300, { start: at(10) });
  const run = (e: object = {}): BenchRun => ({
    scenario: 'temporal-150wps',
    start: at(0),
    end: at(330),
    workflowsCompleted: result.results.workflowsCompleted,
    result: { ...result, results: { ...result.results, ...e } },
  });

  test('as bench run wrote it, it passes', () => expect(refusal(run())).toBe('accepted'));

  test('negative latencies, percentiles out of order, more completed than offered', () => {
    expect(refusal(run({ latency: { p50: 100, p95: 150, p99: -1, max: 400 } }))).toBe(
      'run.json: result.results.latency.p99 -1 is negative (valid: a figure of 0 or more)',
    );
    expect(refusal(run({ latency: { p50: 900, p95: 150, p99: 300, max: 400 } }))).toBe(
      'run.json: result.results.latency.p50 900 ms is above p95 150 ms (valid: p50 ≤ p90 ≤ p95 ≤ p99 ≤ max)',
    );
    expect(refusal(run({ latency: { p50: 100, p95: 150, p99: 500, max: 400 } }))).toMatch(
      /^run\.json: result\.results\.latency\.p99 500 ms is above max 400 ms/,
    );
    expect(refusal(run({ workflowsStarted: 50000 }))).toMatch(/^run\.json: result\.results\.workflowsStarted 50000 is more than workflowsOffered 45000/);
    expect(refusal(run({ actualRate: -3 }))).toMatch(/^run\.json: result\.results\.actualRate -3 is negative/);
  });

  test('a completed count that is not its result, and a result from outside the run', () => {
    expect(refusal({ ...run(), workflowsCompleted: 99 })).toMatch(/^run\.json: workflowsCompleted 99 is not its result's 45000/);
    expect(refusal({ ...run(), end: at(5) })).toMatch(/^run\.json: result\.window\.start .* is outside the run's/);
  });

  test('a store round trip whose median is above its P99', () => {
    expect(refusal({ ...run(), storeRoundTrip: { medianMs: 3, p99Ms: 1 } })).toMatch(
      /^run\.json: storeRoundTrip: median 3 ms and P99 1 ms are not 0 ≤ median ≤ P99/,
    );
  });
});
