import { z } from './zod';
import { writerInstanceIdentifier } from './aws-names';
import { notValid } from './errors';
import type { FamilyCatalog, Resolving, ScenarioBase } from './family-catalog';
import { checkNames, prefixer, prefixObservability, scenarioBase } from './scenario-base';
import { checkTemporal } from './temporal-checks';
import { TEMPORAL_ENVIRONMENT } from './temporal-environment';
import { TEMPORAL_IDENTITY } from './temporal-identity';
import {
  FLEET_STATES,
  type FleetState,
  type TemporalEnvironment,
  type TemporalPreset,
  temporalEnvironmentSchema,
  temporalScenarioSchema,
} from './temporal-schema';
import { TEMPORAL_SCENARIOS } from './temporal-scenarios';

/* Temporal's part of config: its section (the environment and the presets) and how a preset resolves. */

/** A Temporal preset resolved against its environment. */
export interface TemporalScenario extends ScenarioBase {
  readonly family: 'temporal';
  /** The environment, with physical names already prefixed by envName. */
  readonly environment: TemporalEnvironment;
  readonly preset: TemporalPreset;
  /** The preset's fleet state, or `-c fleet=` when given. */
  readonly fleet: FleetState;
}

const section = z.strictObject({
  environment: temporalEnvironmentSchema,
  scenarios: z.array(temporalScenarioSchema).min(1).readonly(),
});
type TemporalSection = z.output<typeof section>;

export const TEMPORAL_CATALOG = {
  identity: TEMPORAL_IDENTITY,
  section,
  written: { environment: TEMPORAL_ENVIRONMENT, scenarios: TEMPORAL_SCENARIOS },
  check: checkTemporal,
  contextKeys: { fleet: z.enum(FLEET_STATES, { error: (iss) => notValid('fleet', iss.input, FLEET_STATES.join(', ')) }) },
  resolve: resolveTemporal,
} satisfies FamilyCatalog<typeof section, TemporalScenario>;

function resolveTemporal(section: TemporalSection, r: Resolving): TemporalScenario | undefined {
  const preset = section.scenarios.find((s) => s.name === r.name);
  if (!preset) return undefined;
  const { envName } = r;
  const { environment } = section;
  const dash = prefixer(envName, '-');
  const n = environment.names;
  const names: TemporalEnvironment['names'] = {
    cluster: dash(n.cluster),
    rateLimiterTable: dash(n.rateLimiterTable),
    connectionLeaseTable: dash(n.connectionLeaseTable),
    visibilityDomain: dash(n.visibilityDomain),
    prometheusWorkspace: dash(n.prometheusWorkspace),
    serviceNamespace: prefixer(envName, '.')(n.serviceNamespace),
    auroraCluster: dash(n.auroraCluster),
    auroraSecret: prefixer(envName, '/')(n.auroraSecret),
  };
  const scenario: TemporalScenario = {
    family: 'temporal',
    ...scenarioBase(r, environment),
    environment: { ...environment, names, observability: prefixObservability(environment.observability, envName) },
    preset,
    fleet: (r.own.fleet as FleetState | undefined) ?? preset.benchmark.fleet,
  };
  const o = scenario.environment.observability;
  checkNames(envName, [
    ['stackName', scenario.stackName],
    ['stackName', o.stackName],
    ['dashboard', o.dashboard],
    ['snsTopic', o.alarmTopic],
    ['ecsCluster', names.cluster],
    ['dynamoDbTable', names.rateLimiterTable],
    ['dynamoDbTable', names.connectionLeaseTable],
    ['openSearchDomain', names.visibilityDomain],
    ['prometheusAlias', names.prometheusWorkspace],
    ['dnsName', names.serviceNamespace],
    ['dbClusterIdentifier', names.auroraCluster],
    ['dbInstanceIdentifier', writerInstanceIdentifier(names.auroraCluster)],
    ['secretName', names.auroraSecret],
  ]);
  return scenario;
}
