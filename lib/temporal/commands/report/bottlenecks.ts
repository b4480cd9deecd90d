import type { BottleneckComponent, BottleneckCondition, BottleneckFigure, BottleneckRule } from '../../../../config/observability-schema';
import { cite, holds } from '../../../commands/shared/figure';
import type { ServerView } from './server-view';

/*
 * "Where the bottleneck was": the rules in config (observability.bottlenecks) applied to the
 * figures of one run. A rule holds when its figure and every further condition are past their
 * thresholds; a component's rank is how far its furthest rule went (figure over threshold, or
 * threshold over figure for a "below"). A figure without data holds no rule, and the section
 * says which figures it could not judge.
 */

interface Finding {
  readonly component: BottleneckComponent;
  /** How many times past its threshold the leading rule's figure went. */
  readonly severity: number;
  readonly says: string;
  readonly evidence: readonly string[];
}

export interface Bottlenecks {
  readonly figures: Readonly<Record<BottleneckFigure, number | null>>;
  /** Components that held the run back, the furthest past its threshold first. */
  readonly ranked: readonly Finding[];
  /** Figures a rule needs that had no data. */
  readonly unjudged: readonly BottleneckFigure[];
}

/** What the figures come from, besides the server view: CloudWatch's side of the report. */
export interface CloudWatchFigures {
  readonly historyCpuPeakPercent: number | null;
  readonly commitLatencyMs: number | null;
  /** What per-minute figures divide by: the run's minutes when the window is a run's, else the window's. */
  readonly minutes: number;
}

export function bottleneckFigures(server: ServerView, cw: CloudWatchFigures): Record<BottleneckFigure, number | null> {
  const r = server.run;
  const roles = Object.values(server.persistence);
  const sum = (xs: (number | null)[]) => (xs.every((x) => x === null) ? null : xs.reduce<number>((a, b) => a + (b ?? 0), 0));
  const max = (xs: (number | null)[]) => (xs.every((x) => x === null) ? null : Math.max(...xs.filter((x): x is number => x !== null)));
  const perMinute = (n: number | null) => (n === null || !(cw.minutes > 0) ? null : n / cw.minutes);
  const target = r.generator.targetRate;
  return {
    workerScheduleToStartP50Ms: max([r.scheduleToStartMs.workerWorkflow.p50, r.scheduleToStartMs.workerActivity.p50]),
    workerSlotsFreeLowestShare: r.workerSlots.freeLowestShare,
    matchingBacklogPeak: r.backlog.count.peak,
    matchingBacklogAgePeakSeconds: r.backlog.agePeakSeconds,
    historyCpuPeakPercent: cw.historyCpuPeakPercent,
    historyPersistenceP99Ms: r.historyPersistenceP99Ms,
    storePoolWaitsPerMinute: perMinute(sum(roles.map((x) => x.poolWaits))),
    storePoolInUsePeakShare: max(roles.map((x) => x.inUsePeakShare)),
    storeConflictsPerMinute: perMinute(sum(roles.map((x) => x.conflicts))),
    storeCommitLatencyMs: cw.commitLatencyMs,
    generatorPeakStartShareOfTarget: r.generator.peakStartsPerSecond === null || !(target && target > 0) ? null : r.generator.peakStartsPerSecond / target,
    generatorStartErrors: r.generator.startErrors,
  };
}

/** A threshold a figure passes: above it, or below it (bottleneck and proposal rules alike). */

const severity = (c: BottleneckCondition, v: number) =>
  c.above !== undefined ? (c.above > 0 ? v / c.above : v + 1) : v > 0 ? c.below! / v : Number.POSITIVE_INFINITY;

export function findBottlenecks(rules: readonly BottleneckRule[], figures: Readonly<Record<BottleneckFigure, number | null>>): Bottlenecks {
  const unjudged = new Set<BottleneckFigure>();
  const best = new Map<BottleneckComponent, Finding>();
  for (const rule of rules) {
    const conditions = [rule.when, ...rule.and];
    const missing = conditions.filter((c) => figures[c.figure] === null);
    missing.forEach((c) => unjudged.add(c.figure));
    if (missing.length || !conditions.every((c) => holds(c, figures[c.figure]!))) continue;
    const s = severity(rule.when, figures[rule.when.figure]!);
    const finding: Finding = { component: rule.component, severity: s, says: rule.says, evidence: conditions.map((c) => cite(c, figures[c.figure]!)) };
    const prior = best.get(rule.component);
    if (!prior || s > prior.severity) best.set(rule.component, finding);
  }
  return {
    figures,
    ranked: [...best.values()].sort((a, b) => b.severity - a.severity || a.component.localeCompare(b.component)),
    unjudged: [...unjudged].sort(),
  };
}
