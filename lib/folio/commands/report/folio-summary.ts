import { type ClusterRole, describeOffload, type FolioScenario } from '../../../../config';
import type { MetricCatalog } from '../../../platform/contract/metrics';
import type { PeakAverage, Points } from '../../../commands/report/fetch';
import type { Proposal } from '../../../commands/report/proposals';
import { type ReportBase, SeriesContext, reportBase } from '../../../commands/report/summarize';
import type { ReportWindow } from '../../../commands/report/window';
import type { Resume, ResumeReading } from './resumes';
import type { WaitReading } from './wait-events';
import { proposeNext } from './folio-proposals';

/* The FOLIO report's figures: both writers, and the offload cluster's capacity, pauses and waits. */

/**
 * A FOLIO phase's window: both writers, the offload cluster's capacity against its ceiling;
 * `resumes`: its resumes from 0 ACU, where it may pause; `waits`: where its writer's load waited.
 */
export function summarizeFolio(
  scenario: FolioScenario,
  catalog: MetricCatalog,
  points: ReadonlyMap<string, Points>,
  window: ReportWindow,
  resumes?: ResumeReading,
  waits: WaitReading = { offload: null, unread: 'Performance Insights was not asked for this report' },
): FolioReport {
  const ctx = new SeriesContext(catalog, points, window);
  const { phase, routes } = scenario;
  const { percentOfMax } = scenario.environment.observability.alarms.serverlessAtCeiling;
  const range = phase.offload.serverless;
  const both = <T>(f: (key: 'Primary' | 'Offload') => T) => ({ primary: f('Primary'), offload: f('Offload') });
  const metrics: FolioReport['metrics'] = {
    acu: range ? acuFigures(ctx, range.max, percentOfMax, range.min === 0 ? (resumes ?? { unread: 'not read' }) : undefined) : null,
    cpu: both((k) => ctx.gauge(`cpu${k}`)),
    connections: both((k) => ctx.gauge(`connections${k}`)),
    freeableMemoryLowestBytes: both((k) => ctx.lowest(`freeableMemory${k}`)),
    dbLoad: both((k) => ctx.gauge(`dbLoad${k}`)),
  };
  const report: Omit<FolioReport, 'proposal'> = {
    family: 'folio',
    ...reportBase(scenario, ctx),
    configured: {
      primaryInstanceClass: phase.primaryInstanceClass,
      offload: describeOffload(phase.offload),
      acu: range ? { min: range.min, max: range.max, ceilingPercentOfMax: percentOfMax } : null,
      routedToOffload: routes.filter((r) => r.cluster === 'offload').map((r) => r.module),
    },
    metrics,
    waits,
    coverage: ctx.coverage,
    missing: ctx.missing(),
  };
  return { ...report, proposal: proposeNext(report, scenario) };
}

/** A Serverless v2 offload cluster's capacity over the window, against its ceiling. */
function acuFigures(ctx: SeriesContext, max: number, percentOfMax: number, pauses: ResumeReading | undefined): NonNullable<FolioReport['metrics']['acu']> {
  const acu = ctx.points('acu');
  const ceiling = (max * percentOfMax) / 100;
  const minutesAtCeiling = (acu.v.filter((x) => x >= ceiling).length * ctx.window.periodSeconds) / 60;
  const gauge = ctx.gauge('acu');
  const none = acu.v.length === 0;
  return {
    ...gauge,
    lowest: ctx.lowest('acu'),
    peakShareOfMax: gauge.peak === null ? null : gauge.peak / max,
    minutesAtCeiling: none ? null : minutesAtCeiling,
    shareOfWindowAtCeiling: none ? null : minutesAtCeiling / ctx.minutes,
    acuHours: none ? null : acu.v.reduce((a, b) => a + b, 0) * (ctx.window.periodSeconds / 3600),
    utilization: ctx.gauge('acuUtilization'),
    paused: pauses
      ? {
          ...pausedStretches(acu, ctx.window.periodSeconds),
          resumes: pauses.resumes ?? null,
          resumesUnread: pauses.unread ?? null,
          resumesSince: pauses.since ?? null,
        }
      : null,
  };
}

/**
 * Where a cluster that may pause sat at 0 ACU: consecutive points at 0, each stretch from its
 * first point to the end of its last. A gap in the data ends a stretch (unknown is not paused).
 */
export function pausedStretches(
  acu: Points,
  periodSeconds: number,
): Pick<NonNullable<NonNullable<FolioReport['metrics']['acu']>['paused']>, 'minutes' | 'stretches'> {
  const step = periodSeconds * 1000;
  const stretches: { from: string; to: string; minutes: number }[] = [];
  let start: number | undefined;
  let last = 0;
  const close = () => {
    if (start === undefined) return;
    stretches.push({ from: new Date(start).toISOString(), to: new Date(last + step).toISOString(), minutes: (last + step - start) / 60_000 });
    start = undefined;
  };
  acu.t.forEach((t, i) => {
    if (start !== undefined && t - last > step) close();
    if (acu.v[i] === 0) {
      start ??= t;
      last = t;
    } else close();
  });
  close();
  return { minutes: stretches.reduce((n, x) => n + x.minutes, 0), stretches };
}

export interface FolioReport extends ReportBase {
  readonly family: 'folio';
  readonly configured: {
    readonly primaryInstanceClass: string;
    /** The offload cluster in words (describeOffload). */
    readonly offload: string;
    /** The Serverless v2 range; null when the offload cluster is provisioned. */
    readonly acu: { readonly min: number; readonly max: number; readonly ceilingPercentOfMax: number } | null;
    readonly routedToOffload: readonly string[];
  };
  readonly metrics: {
    /** Serverless v2 capacity; null when the offload cluster is provisioned. */
    readonly acu:
      | (PeakAverage & {
          readonly lowest: number | null;
          readonly peakShareOfMax: number | null;
          readonly minutesAtCeiling: number | null;
          readonly shareOfWindowAtCeiling: number | null;
          readonly acuHours: number | null;
          readonly utilization: PeakAverage;
          /** A range that pauses at 0 ACU: the stretches of points at 0 (start of the first, end of the last point); null otherwise. */
          readonly paused: {
            readonly minutes: number;
            readonly stretches: readonly { readonly from: string; readonly to: string; readonly minutes: number }[];
            /** Each resume of the offload writer in the window, from its RDS events: what the first connection waited. Null when they were not read (`resumesUnread` says why). */
            readonly resumes: readonly Resume[] | null;
            readonly resumesUnread: string | null;
            /** Set when RDS no longer kept the window's start: the resumes are from then on. */
            readonly resumesSince: string | null;
          } | null;
        })
      | null;
    readonly cpu: Readonly<Record<ClusterRole, PeakAverage>>;
    readonly connections: Readonly<Record<ClusterRole, PeakAverage>>;
    readonly freeableMemoryLowestBytes: Readonly<Record<ClusterRole, number | null>>;
    readonly dbLoad: Readonly<Record<ClusterRole, PeakAverage>>;
  };
  /** Where the offload writer's load waited (Performance Insights), or why that was not read. */
  readonly waits: WaitReading;
  /** What to try next, from the rules in config (folio-proposals.ts). */
  readonly proposal: Proposal;
}
