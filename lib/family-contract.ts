import type { Scenario } from '../config';
import type { FamilyCampaign } from './campaign/family-campaign';
import type { FamilyCost } from './commands/cost/family-cost';
import type { FamilyEnvironment } from './commands/environment/family-environment';
import type { FamilyPlan } from './commands/plan/family-plan';
import type { FamilyPreflight } from './commands/preflight/family-preflight';
import type { FamilyReport } from './commands/report/family-report';
import type { ReportBase } from './commands/report/summarize';
import type { FamilyScenarios } from './commands/scenarios/family-scenarios';
import type { FamilyCore, FamilyStacks } from './platform/family';

/**
 * Each command's part of a family, written beside the command that calls it and put together
 * in the family's `<family>-commands.ts`. Methods, not function-valued fields: a family of
 * `FolioScenario` is a family of `Scenario` to the registry, which only ever hands it its own.
 */
export interface FamilyCommands<S extends Scenario = Scenario, R extends ReportBase = ReportBase>
  extends FamilyCost<S, R>, FamilyReport<S, R>, FamilyPlan<S>, FamilyPreflight<S>, FamilyCampaign<S, R>, FamilyEnvironment<S>, FamilyScenarios {}

/** A family as a command sees it: its identity and catalog (lib/platform/family.ts) and every command's part. */
export interface Family<S extends Scenario = Scenario, R extends ReportBase = ReportBase> extends FamilyCore<S>, FamilyCommands<S, R> {}

/**
 * What a family's `<family>-family.ts` gives the registry: its identity and catalog, and where
 * its stacks and its commands' parts are, each loaded only by what uses it (synth loads no
 * command, a command no construct).
 */
export interface FamilyEntry<S extends Scenario = Scenario, R extends ReportBase = ReportBase> extends FamilyCore<S> {
  stacks(): FamilyStacks<S>;
  commands(): FamilyCommands<S, R>;
}
