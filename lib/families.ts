import { ConfigError, type Scenario } from '../config';
import type { PriceFile } from '../config/prices';
import type { CostEstimate, CostInputs } from './commands/shared/cost-model';
import { FOLIO } from './folio/folio-family';
import type { MetricCatalog } from './platform/contract/metrics';
import type { Family, FamilyEntry } from './family-contract';
import type { Deployed, FamilyCore, FamilyStacks } from './platform/family';
import { TEMPORAL } from './temporal/temporal-family';

/*
 * The registry: every family by the name its scenarios carry in `family`. Everything both
 * families share (the app's stacks, cost, report, plan, preflight, hibernate) asks it for the
 * family's part; no other module asks which family a scenario is.
 */

const FAMILIES = new Map<string, FamilyEntry>([
  [FOLIO.name, FOLIO],
  [TEMPORAL.name, TEMPORAL],
]);

function entryOf(of: { readonly family: string }): FamilyEntry {
  const family = FAMILIES.get(of.family);
  if (!family) throw new ConfigError(`no family "${of.family}" (valid: ${[...FAMILIES.keys()].join(', ')})`);
  return family;
}

const withCommands = new WeakMap<FamilyEntry, Family>();

/** The family of a scenario (or of a report, which names its scenario's), as a command reads it. */
export function familyOf(of: { readonly family: string }): Family {
  const entry = entryOf(of);
  let family = withCommands.get(entry);
  if (!family) {
    family = { ...entry, ...entry.commands() };
    withCommands.set(entry, family);
  }
  return family;
}

/** The family of a scenario as the app builds it: its identity, catalog and stacks, none of its commands. */
export function stacksOf(scenario: Scenario): FamilyCore & FamilyStacks {
  const entry = entryOf(scenario);
  return { ...entry, ...entry.stacks() };
}

export const familyNames = (): string[] => [...FAMILIES.keys()];

/** The one path from CDK context (or a command's options) to a scenario: config's, for every family. */
export { resolveScenario } from '../config';

/** The scenario's metric catalog: what its dashboard draws, its alarms watch and its report reads. */
export function catalogFor(scenario: Scenario, deployed: Deployed = {}): MetricCatalog {
  return entryOf(scenario).metricCatalog(scenario, deployed);
}

/** The scenario's daily cost, line by line, at config/prices' on-demand prices. */
export function costOf(scenario: Scenario, prices: PriceFile, inputs: CostInputs = {}): CostEstimate {
  if (prices.region !== scenario.env.region) throw new ConfigError(`prices are for ${prices.region}, the scenario deploys to ${scenario.env.region}`);
  return familyOf(scenario).cost(scenario, prices, inputs);
}
