import type { LadderConfig } from '../../../config/observability-schema';
import { ConfigError } from '../../../config';
import { durationSeconds } from '../../../config/fields';
import { round } from '../shared/figure';
import { judgeStep, ladderOutcome } from '../shared/ladder-judgement';
import type { BenchRun, GeneratorResult, Ladder } from '../shared/run-record';

/*
 * A run or ladder record judged from its own data before the report shows a figure of it: its
 * figures possible (nothing negative, percentiles in order, no more completed than started or
 * offered), its window holding its steps, its rates rising and borne out by what each step
 * offered, and every verdict recomputed from its results by config's rules, not the record's.
 * The first disagreement is one ConfigError naming the field.
 */

type HeldRules = LadderConfig['held'];

const VALID = 'valid: a record bench run or bench ladder wrote, unedited; run it again';

/** Offered against the rate claimed, and a step's offered time against its length: the generator's schedule is exact to a start, so 10% is an edit, not jitter. */
const RATE_TOLERANCE = 0.1;
const STEP_TOLERANCE_SECONDS = (stepSeconds: number) => Math.max(2, stepSeconds * 0.05);

/** The parts of a generator result a record may carry (a run record keeps fewer of them). */
interface ResultFigures {
  readonly results: {
    readonly workflowsOffered?: number;
    readonly workflowsStarted?: number;
    readonly workflowsCompleted?: number;
    readonly workflowsFailed?: number;
    readonly actualRate?: number;
    readonly latency: Readonly<Record<string, number | undefined>>;
  };
  readonly window?: { readonly start: string; readonly lastStart?: string; readonly durationSeconds?: number };
}

const PERCENTILES = ['p50', 'p90', 'p95', 'p99', 'max'] as const;

/** A result's own figures: none negative, the percentiles rising, the counts nested (completed ≤ started ≤ offered). */
function checkResult(r: ResultFigures, field: string, refuse: (text: string) => never): void {
  const x = r.results;
  const numbers = {
    ...x.latency,
    workflowsOffered: x.workflowsOffered,
    workflowsStarted: x.workflowsStarted,
    workflowsCompleted: x.workflowsCompleted,
    actualRate: x.actualRate,
  };
  for (const [k, v] of Object.entries(numbers))
    if (v !== undefined && !(v >= 0)) refuse(`${field}.results.${k in x.latency ? `latency.${k}` : k} ${v} is negative (valid: a figure of 0 or more)`);
  const given = PERCENTILES.filter((p) => x.latency[p] !== undefined);
  for (let i = 1; i < given.length; i++) {
    const [lo, hi] = [given[i - 1], given[i]];
    if (x.latency[lo]! > x.latency[hi]!)
      refuse(`${field}.results.latency.${lo} ${x.latency[lo]} ms is above ${hi} ${x.latency[hi]} ms (valid: p50 ≤ p90 ≤ p95 ≤ p99 ≤ max)`);
  }
  const nested: [string, number | undefined, string, number | undefined][] = [
    ['workflowsCompleted', (x.workflowsCompleted ?? 0) + (x.workflowsFailed ?? 0), 'workflowsStarted', x.workflowsStarted],
    ['workflowsStarted', x.workflowsStarted, 'workflowsOffered', x.workflowsOffered],
  ];
  for (const [a, av, b, bv] of nested)
    if (av !== undefined && bv !== undefined && av > bv)
      refuse(
        `${field}.results.${a} ${av}${a === 'workflowsCompleted' && x.workflowsFailed ? ' (with the failed)' : ''} is more than ${b} ${bv} (valid: completed ≤ started ≤ offered)`,
      );
  const w = r.window;
  if (w?.lastStart && Date.parse(w.lastStart) < Date.parse(w.start))
    refuse(`${field}.window.lastStart ${w.lastStart} is before its start ${w.start} (valid: the last start at or after the first)`);
}

const seconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;

/** A ladder's steps against its rates, its step length and its window, then every verdict by config's rules. */
function checkLadder(run: BenchRun, ladder: Ladder, rules: HeldRules, refuse: (text: string) => never): void {
  for (const k of Object.keys(rules) as (keyof HeldRules)[])
    if (ladder.held[k] !== rules[k])
      refuse(
        `ladder.held.${k} ${ladder.held[k]} is not config's ${rules[k]} (observability.ladder.held.${k}): a record is judged by config's rules (valid: a ladder run under this config; run it again)`,
      );
  const falling = ladder.rates.findIndex((r, i) => i > 0 && r <= ladder.rates[i - 1]);
  if (falling > 0)
    refuse(`ladder.rates ${ladder.rates.join(',')}: ${ladder.rates[falling]} does not rise above ${ladder.rates[falling - 1]} (valid: rising rates)`);
  if (ladder.steps.length === 0) refuse(`ladder.steps is empty (valid: at least the first step)`);
  if (ladder.steps.length > ladder.rates.length)
    refuse(`ladder.steps holds ${ladder.steps.length} steps for ${ladder.rates.length} rates (valid: at most one step per rate)`);
  const stepSeconds = durationSeconds(ladder.step);
  if (!(stepSeconds > 0)) refuse(`ladder.step "${ladder.step}" is not a duration (valid: a whole number with s, m or h, e.g. 5m)`);

  ladder.steps.forEach((s, i) => {
    const at = `ladder.steps[${i}]`;
    if (s.rate !== ladder.rates[i]) refuse(`${at}.rate ${s.rate} is not ladder.rates[${i}] ${ladder.rates[i]} (valid: each step at its planned rate)`);
    // The last start is due a tick before the step's end, and a fast cluster completes it at once: the window may fall short of the step by that much.
    const length = seconds(s.start, s.end);
    if (length < stepSeconds - STEP_TOLERANCE_SECONDS(stepSeconds))
      refuse(`${at} lasts ${round(length)} s (${s.start} to ${s.end}), shorter than ladder.step ${ladder.step} (valid: a step's window holds its whole step)`);
    if (i > 0 && Date.parse(s.start) < Date.parse(ladder.steps[i - 1].end))
      refuse(`${at}.start ${s.start} is before the previous step's end ${ladder.steps[i - 1].end} (valid: steps one after another)`);
    if (!s.result) return;
    checkResult(s.result, `${at}.result`, refuse);
    const w = s.result.window;
    for (const [field, t] of [
      ['start', w?.start],
      ['lastStart', w?.lastStart],
    ] as const)
      if (t !== undefined && (Date.parse(t) < Date.parse(s.start) || Date.parse(t) > Date.parse(s.end)))
        refuse(`${at}.result.window.${field} ${t} is outside the step's ${s.start} to ${s.end} (valid: the result of the step's own run)`);
    const offeredSeconds = w?.lastStart ? seconds(w.start, w.lastStart) : undefined;
    if (offeredSeconds !== undefined && Math.abs(offeredSeconds - stepSeconds) > STEP_TOLERANCE_SECONDS(stepSeconds))
      refuse(
        `ladder.step ${ladder.step} disagrees with ${at}, whose result offered starts for ${round(offeredSeconds)} s (valid: the step length the ladder ran with)`,
      );
    const offered = s.result.results.workflowsOffered;
    const over = offeredSeconds && offeredSeconds > 0 ? offeredSeconds : stepSeconds;
    if (offered !== undefined && Math.abs(offered / over - s.rate) > s.rate * RATE_TOLERANCE)
      refuse(
        `${at}.rate ${s.rate}/s disagrees with its result, which offered ${offered} starts over ${round(over)} s (${round(offered / over)}/s) (valid: the rate the step offered)`,
      );
    checkFigures(s, stepSeconds, rules, at, refuse);
  });

  const outcome = ladderOutcome(ladder.steps);
  if (outcome.highestHeld !== ladder.highestHeld || outcome.firstFailed !== ladder.firstFailed)
    refuse(
      `ladder.highestHeld ${ladder.highestHeld ?? 'none'} and ladder.firstFailed ${ladder.firstFailed ?? 'none'} are not what its steps give: ${
        outcome.highestHeld ?? 'none'
      } and ${outcome.firstFailed ?? 'none'} (${VALID})`,
    );
  const failing = ladder.steps.findIndex((s) => !s.held);
  if (failing >= 0 && failing < ladder.steps.length - 1)
    refuse(`ladder.steps[${failing + 1}] follows a step that did not hold (valid: a ladder stops at its first step that does not hold)`);
  if (Date.parse(run.start) !== Date.parse(ladder.steps[0].start) || Date.parse(run.end) !== Date.parse(ladder.steps.at(-1)!.end))
    refuse(`start ${run.start} and end ${run.end} are not the steps' span, ${ladder.steps[0].start} to ${ladder.steps.at(-1)!.end} (${VALID})`);
  const completed = ladder.steps.reduce((n, s) => n + (s.result?.results.workflowsCompleted ?? 0), 0);
  if (run.workflowsCompleted !== undefined && run.workflowsCompleted !== completed)
    refuse(`workflowsCompleted ${run.workflowsCompleted} is not the steps' ${completed} (${VALID})`);
}

/** A step's figures and verdict recomputed from its result by config's rules. */
function checkFigures(s: Ladder['steps'][number], stepSeconds: number, rules: HeldRules, at: string, refuse: (text: string) => never): void {
  const j = judgeStep(s.rate, stepSeconds, s.result as GeneratorResult | null, rules);
  for (const k of Object.keys(j.figures) as (keyof typeof j.figures)[])
    if (j.figures[k] !== s.figures[k]) refuse(`${at}.figures.${k} ${s.figures[k]} is not what its result gives, ${j.figures[k]} (${VALID})`);
  // Thousands separators aside (records written before the reasons had them say the same thing).
  const said = (failed: readonly string[]) => failed.join('; ').replace(/(\d),(?=\d{3}\b)/g, '$1');
  if (j.held !== s.held || said(j.failed) !== said(s.failed))
    refuse(
      `${at} at ${s.rate}/s says ${s.held ? 'held' : `not held (${s.failed.join('; ')})`}, but its own result gives ${
        j.held ? 'held' : `not held (${j.failed.join('; ')})`
      } by config's rules (observability.ladder.held) (${VALID})`,
    );
}

/**
 * Refuses a record (`report --run`) whose figures, window or verdicts its own data do not bear
 * out. `rules` are config's ladder rules for the scenario; a family without ladders gives none,
 * and a ladder record for it is refused.
 */
export function checkRunRecord(run: BenchRun, source: string, rules: HeldRules | undefined): void {
  const refuse = (text: string): never => {
    throw new ConfigError(`${source}: ${text}`);
  };
  if (run.result) {
    checkResult(run.result, 'result', refuse);
    const x = run.result.results;
    if (run.workflowsCompleted !== undefined && x.workflowsCompleted !== undefined && run.workflowsCompleted !== x.workflowsCompleted)
      refuse(`workflowsCompleted ${run.workflowsCompleted} is not its result's ${x.workflowsCompleted} (${VALID})`);
    const w = run.result.window;
    if (w && (Date.parse(w.start) < Date.parse(run.start) || Date.parse(w.start) > Date.parse(run.end)))
      refuse(`result.window.start ${w.start} is outside the run's ${run.start} to ${run.end} (valid: the result of the run's own generator)`);
  }
  if (run.storeRoundTrip && !(run.storeRoundTrip.medianMs >= 0 && run.storeRoundTrip.medianMs <= run.storeRoundTrip.p99Ms))
    refuse(`storeRoundTrip: median ${run.storeRoundTrip.medianMs} ms and P99 ${run.storeRoundTrip.p99Ms} ms are not 0 ≤ median ≤ P99 (${VALID})`);
  if (!run.ladder) return;
  if (!rules) refuse(`a ladder record, but ${run.scenario}'s family runs no ladder (valid: a run record of its own)`);
  checkLadder(run, run.ladder, rules!, refuse);
}
