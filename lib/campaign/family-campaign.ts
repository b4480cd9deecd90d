import type { Scenario } from '../../config';
import type { CampaignLoad } from '../../config/campaign-schema';
import type { CostEstimate } from '../commands/shared/cost-model';
import type { BenchRun } from '../commands/shared/run-record';

/** A step's row in the campaign report, by column, in order; and the figures its charts draw, by chart title with its unit. */
export interface CampaignRow {
  readonly cells: Readonly<Record<string, string>>;
  readonly figures: Readonly<Record<string, number | null>>;
  /** Figures also drawn against another, a point per step: `ys` (by figure title) against `x`. */
  readonly against?: { readonly x: string; readonly ys: readonly string[] };
}

/** `campaign`: what it asks of a family. `R`: the family's report. */
export interface FamilyCampaign<S extends Scenario, R> {
  /** `campaign plan`: how long one of the family's own loads (bench's run or ladder) runs at most, in hours; undefined for a load it does not run. */
  loadHours?(load: CampaignLoad, scenario: S): number | undefined;
  /** What a step's `ready` stage does after the wake, before the load: `bench up` starts the benchmark fleet; nothing more when absent. */
  readonly readiness?: 'bench up';
  /** One step's row of the campaign report (its columns after the step and the scenario). */
  campaignRow(report: R, scenario: S, estimate: CostEstimate, run?: BenchRun): CampaignRow;
}
