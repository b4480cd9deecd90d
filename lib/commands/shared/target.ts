import { resolveScenarioOf, type Scenario, type ScenarioOf } from '../../../config';
import { resolveScenario } from '../../families';
import type { CatalogInput } from '../../../config/catalog-schema';
import type { AwsTarget } from '../aws/clients';

/*
 * What the shared options (--scenario, --env-name, --endpoint-url; cli.ts's sharedOption)
 * mean, resolved once for every command: the scenario through config and its family, and
 * where the command's AWS calls go.
 */

/** The shared options as a command receives them. */
export interface TargetOptions {
  readonly scenario?: string;
  readonly envName?: string;
  readonly endpointUrl?: string;
  /** The catalog the scenario is in: config's, unless a campaign follows a proposal that is not. */
  readonly catalog?: CatalogInput;
}

/** A command's target: the deployed environment's scenario, and where its AWS calls go. */
export interface Target<S extends Scenario = Scenario> {
  readonly scenario: S;
  readonly aws: AwsTarget;
}

const context = (name: string | undefined, o: TargetOptions) => ({ scenario: name, ...(o.envName ? { envName: o.envName } : {}) });
const where = (scenario: Scenario, o: TargetOptions): AwsTarget => ({ region: scenario.env.region, endpoint: o.endpointUrl });

/** The target of a command of every family; `name`: the scenario when it comes from elsewhere than --scenario (a run record). */
export function resolveTarget(o: TargetOptions, name = o.scenario): Target {
  const scenario = resolveScenario(context(name, o), o.catalog, '--scenario');
  return { scenario, aws: where(scenario, o) };
}

/** The target of a command only one family has: a scenario of the other is refused, naming the family's scenarios. */
export function resolveTargetOf<F extends Scenario['family']>(
  family: F,
  command: string,
  o: TargetOptions,
  option = '--scenario',
  name = o.scenario,
): Target<ScenarioOf<F>> {
  const scenario = resolveScenarioOf(family, context(name, o), { option, command }, o.catalog);
  return { scenario, aws: where(scenario, o) };
}
