import type { Scenario } from '../config';
import type { FamilyCampaign } from './campaign/family-campaign';
import type { FamilyCost } from './commands/cost/family-cost';
import type { FamilyEnvironment } from './commands/environment/family-environment';
import type { FamilyPlan } from './commands/plan/family-plan';
import type { FamilyPreflight } from './commands/preflight/family-preflight';
import type { FamilyReport } from './commands/report/family-report';
import type { ReportBase } from './commands/report/summarize';
import type { FamilyCore } from './platform/family';

/**
 * One family whole: its identity and stacks (lib/platform/family.ts) and each command's part,
 * written beside the command that calls it. Methods, not function-valued fields: a family of
 * `FolioScenario` is a family of `Scenario` to the registry, which only ever hands it its own.
 */
export interface Family<S extends Scenario = Scenario, R extends ReportBase = ReportBase>
  extends FamilyCore<S>, FamilyCost<S, R>, FamilyReport<S, R>, FamilyPlan<S>, FamilyPreflight<S>, FamilyCampaign<S, R>, FamilyEnvironment<S> {}
