import type { BottleneckRule } from '../../../../config/observability-schema';
import type { Ladder, LadderStep } from '../../../commands/shared/run-record';
import { type Bottlenecks, type CloudWatchFigures, bottleneckFigures, findBottlenecks } from './bottlenecks';
import type { ServerView } from './server-view';

/*
 * A ladder in the report: its steps as bench ladder judged them, the highest rate held, and
 * where the first step that did not hold was held back: the bottleneck rules applied to that
 * step's own window (the servers' metrics over it, CloudWatch's points inside it), not to the
 * whole ladder, whose held steps would dilute every figure.
 */

export interface LadderView {
  readonly step: string;
  readonly held: Ladder['held'];
  readonly rates: readonly number[];
  readonly steps: readonly Pick<LadderStep, 'rate' | 'start' | 'end' | 'held' | 'failed' | 'figures'>[];
  readonly highestHeld: number | null;
  readonly firstFailed: number | null;
  /** The first step that did not hold and the bottleneck rules on its window; null when every step held. */
  readonly atFirstFailed: {
    readonly rate: number;
    readonly start: string;
    readonly end: string;
    readonly bottlenecks: Bottlenecks;
    /** Why the servers' metrics over the step were not read, when they were not. */
    readonly unread: string | null;
  } | null;
}

/** The first step that did not hold, as a window to read the servers' metrics over. */
export function firstFailedWindow(ladder: Ladder): { start: Date; end: Date } | null {
  const step = ladder.steps.find((s) => !s.held);
  return step ? { start: new Date(step.start), end: new Date(step.end) } : null;
}

export function ladderView(ladder: Ladder, rules: readonly BottleneckRule[], failed: { server: ServerView; cloudWatch: CloudWatchFigures } | null): LadderView {
  const step = ladder.steps.find((s) => !s.held);
  return {
    step: ladder.step,
    held: ladder.held,
    rates: ladder.rates,
    steps: ladder.steps.map(({ rate, start, end, held, failed: broke, figures }) => ({ rate, start, end, held, failed: broke, figures })),
    highestHeld: ladder.highestHeld,
    firstFailed: ladder.firstFailed,
    atFirstFailed:
      step && failed
        ? {
            rate: step.rate,
            start: step.start,
            end: step.end,
            bottlenecks: findBottlenecks(rules, bottleneckFigures(failed.server, failed.cloudWatch)),
            unread: failed.server.unread ?? null,
          }
        : null,
  };
}
