import { z } from './zod';
import { type AwsNameKind, moduleRouteNames, readerInstanceIdentifier, resolvedNameProblem, writerInstanceIdentifier } from './aws-names';
import {
  ConfigError,
  describeIssues,
  FAMILY_NAME,
  type Family,
  fleetOnFolio,
  noScenario,
  notValid,
  rawNames,
  rowsOf,
  scopeOf,
  TABLE,
  unknownName,
  wrongFamily,
} from './errors';
import { FOLIO_ENVIRONMENT } from './folio-environment';
import { FOLIO_MODULES } from './folio-modules';
import { FOLIO_PHASES } from './folio-phases';
import { catalogSchema, familyCatalogSchemas, type Catalog, type CatalogInput } from './catalog-schema';
import type { AuroraStorageType, ImageRef } from './fields';
import type { ClusterRole, FolioEnvironment, FolioModule, FolioPhase } from './folio-schema';
import type { FleetState, TemporalEnvironment, TemporalPreset, TemporalRole } from './temporal-schema';
import { TEMPORAL_ENVIRONMENT } from './temporal-environment';
import { TEMPORAL_SCENARIOS } from './temporal-scenarios';
import { FLEET_STATES } from './temporal-schema';

export { ConfigError, exitOnConfigError, FAMILY_NAME } from './errors';
export { describeOffload } from './folio-schema';
export type { ClusterRole, FleetState, FolioEnvironment, FolioPhase, ImageRef, TemporalEnvironment, TemporalPreset, TemporalRole };
export { TEMPORAL_ROLES, TEMPORAL_STOP_ORDER } from './temporal-roles';

/** Everything in config/, as written. */
export const CATALOG: CatalogInput = {
  folio: { environment: FOLIO_ENVIRONMENT, modules: FOLIO_MODULES, phases: FOLIO_PHASES },
  temporal: { environment: TEMPORAL_ENVIRONMENT, scenarios: TEMPORAL_SCENARIOS },
};

/** Where one FOLIO module connects in a phase. */
export interface ModuleRoute {
  readonly module: string;
  readonly cluster: ClusterRole;
  readonly secretName: string;
}

/** A FOLIO phase resolved against its environment: all a stack needs, nothing it must derive. */
export interface FolioScenario {
  readonly family: 'folio';
  readonly name: string;
  readonly envName?: string;
  /** false only while tearing down (`-c unprotect=true`). */
  readonly protect: boolean;
  readonly stackName: string;
  readonly env: { readonly account?: string; readonly region: string };
  /** The environment, with physical names already prefixed by envName. */
  readonly environment: FolioEnvironment;
  readonly modules: readonly FolioModule[];
  readonly phase: FolioPhase;
  readonly routes: readonly ModuleRoute[];
  /** Each cluster's storage: the phase's, else the environment's. */
  readonly storage: Readonly<Record<ClusterRole, AuroraStorageType>>;
}

/** A Temporal preset resolved against its environment. */
export interface TemporalScenario {
  readonly family: 'temporal';
  readonly name: string;
  readonly envName?: string;
  /** false only while tearing down (`-c unprotect=true`). */
  readonly protect: boolean;
  readonly stackName: string;
  readonly env: { readonly account?: string; readonly region: string };
  /** The environment, with physical names already prefixed by envName. */
  readonly environment: TemporalEnvironment;
  readonly preset: TemporalPreset;
  /** The preset's fleet state, or `-c fleet=` when given. */
  readonly fleet: FleetState;
}

export type Scenario = FolioScenario | TemporalScenario;

/** Context keys this app reads (`-c key=value`); keys with ':' or '@' belong to CDK. */
const contextSchema = z.object({
  scenario: z.string({ error: (iss) => notValid('scenario', JSON.stringify(iss.input), 'a scenario name, e.g. -c scenario=test12') }).optional(),
  envName: z
    .string({ error: (iss) => notValid('envName', JSON.stringify(iss.input), '1-16 of a-z, 0-9 and single inner hyphens, starting with a letter') })
    // A prefix of cluster identifiers and DNS labels: neither may end in a hyphen or hold two in a row.
    .regex(/^(?=.{1,16}$)[a-z](-?[a-z0-9])*$/, {
      error: (iss) => notValid('envName', iss.input, '1-16 of a-z, 0-9 and single inner hyphens, starting with a letter'),
    })
    .optional(),
  unprotect: z.union([z.boolean(), z.enum(['true', 'false'])], { error: (iss) => notValid('unprotect', iss.input, 'true, false') }).optional(),
  fleet: z.enum(FLEET_STATES, { error: (iss) => notValid('fleet', iss.input, FLEET_STATES.join(', ')) }).optional(),
  validate: z.union([z.boolean(), z.enum(['true', 'false'])], { error: (iss) => notValid('validate', iss.input, 'true, false') }).optional(),
});
/** The context keys the app reads (`-c key=value`). */
export const CONTEXT_KEYS = Object.keys(contextSchema.shape);
/** Context keys the CDK CLI itself writes without a ':' in them. */
const CDK_OWN_CONTEXT_KEYS = ['cli-telemetry', 'acknowledged-issue-numbers'];

/** Validates the whole catalog; every problem is listed in one ConfigError line. */
export function loadCatalog(input: CatalogInput = CATALOG): Catalog {
  const parsed = parseCatalog(input);
  if (parsed.success) return deepFreeze(parsed.data);
  throw new ConfigError(describeIssues(parsed.error.issues, input, catalogSchema));
}

/** One family's scenario names, as config writes them (for a command that takes only that family's). */
export function familyScenarioNames(family: Family, input: CatalogInput = CATALOG): string[] {
  return rowsOf(input, family).map((r) => String(r?.name));
}

export function scenarioNames(catalog: Catalog): string[] {
  return [...catalog.folio.phases.map((p) => p.name), ...catalog.temporal.scenarios.map((s) => s.name)];
}

/**
 * Whether synth runs CDK's built-in CloudFormation validation (`-c validate=true`). Off by
 * default: it costs about 2.5 s per synth and repeats what the tests run on every scenario
 * (cfn-lint, checkov, cdk-nag); config is validated in full either way.
 */
export function validatesTemplates(context: Record<string, unknown>): boolean {
  const v = context.validate;
  return v === true || v === 'true';
}

/**
 * The one path from CDK context to a scenario: validates context and config, then resolves.
 * `option` is the command-line option the name came from, for a command's messages (the app's say `-c scenario=`).
 */
export function resolveScenario(context: Record<string, unknown>, input: CatalogInput = CATALOG, option?: string): Scenario {
  const unknown = Object.keys(context).filter((k) => !/[:@/]/.test(k) && !CONTEXT_KEYS.includes(k) && !CDK_OWN_CONTEXT_KEYS.includes(k));
  if (unknown.length) throw new ConfigError(unknownName('context key', unknown[0], CONTEXT_KEYS));
  const ctx = contextSchema.safeParse(context);
  if (!ctx.success) throw new ConfigError(ctx.error.issues[0].message);

  const name = ctx.data.scenario;
  const catalog = catalogForScenario(name, input);
  const names = catalog ? scenarioNames(catalog) : rawNames(input);
  if (name === undefined || name === '') throw new ConfigError(noScenario(option, names));
  if (!catalog) throw new ConfigError(unknownName('scenario', name, names));
  const envName = ctx.data.envName;
  const protect = !(ctx.data.unprotect === true || ctx.data.unprotect === 'true');
  const phase = catalog.folio.phases.find((p) => p.name === name);
  if (phase) {
    if (ctx.data.fleet !== undefined)
      throw new ConfigError(
        fleetOnFolio(
          name,
          catalog.temporal.scenarios.map((s) => s.name),
        ),
      );
    return deepFreeze(resolveFolio(catalog, phase, envName, protect));
  }
  const preset = catalog.temporal.scenarios.find((s) => s.name === name);
  if (preset) return deepFreeze(resolveTemporal(catalog, preset, envName, protect, ctx.data.fleet));
  throw new ConfigError(unknownName('scenario', name, names));
}

/** The scenarios of one family. */
export type ScenarioOf<F extends Scenario['family']> = Extract<Scenario, { family: F }>;

/**
 * A scenario for a command that works on one family: one of the other family is a ConfigError
 * naming the option, the value, what the command takes and that family's names (from config).
 */
export function resolveScenarioOf<F extends Scenario['family']>(
  family: F,
  context: Record<string, unknown>,
  use: { readonly option: string; readonly command: string },
  input: CatalogInput = CATALOG,
): ScenarioOf<F> {
  // No name: the valid ones are the command's family's, not every scenario.
  if (context.scenario === undefined || context.scenario === '')
    throw new ConfigError(`${noScenario(use.option, familyScenarioNames(family, input))} (${use.command} takes a ${FAMILY_NAME[family]})`);
  const scenario = resolveScenario(context, input, use.option);
  if (scenario.family !== family) {
    throw new ConfigError(
      wrongFamily(
        use,
        scenario.name,
        scenario.family,
        family,
        rowsOf(input, family).map((r) => String(r?.name)),
      ),
    );
  }
  return scenario as ScenarioOf<F>;
}

function resolveTemporal(
  catalog: Catalog,
  preset: TemporalPreset,
  envName: string | undefined,
  protect: boolean,
  fleet: FleetState | undefined,
): TemporalScenario {
  const { environment } = catalog.temporal;
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
    ...scenarioBase(preset.name, environment, envName, protect),
    environment: { ...environment, names, observability: prefixObservability(environment.observability, envName) },
    preset,
    fleet: fleet ?? preset.benchmark.fleet,
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

/** Refuses the first physical name AWS would refuse, once envName has prefixed them all. */
function checkNames(envName: string | undefined, names: readonly (readonly [AwsNameKind, string])[]): void {
  const problem = resolvedNameProblem(names, envName);
  if (problem) throw new ConfigError(problem);
}

/** `<envName><sep><name>`, or the name alone when there is no envName. */
function prefixer(envName: string | undefined, sep: string): (name: string) => string {
  return (name) => (envName ? `${envName}${sep}${name}` : name);
}

/** The observability stack, dashboard and topic of a second copy carry its envName too. */
function prefixObservability<T extends { stackName: string; dashboard: string; alarmTopic: string }>(o: T, envName: string | undefined): T {
  const dash = prefixer(envName, '-');
  return { ...o, stackName: dash(o.stackName), dashboard: dash(o.dashboard), alarmTopic: dash(o.alarmTopic) };
}

/** What every family's scenario carries: its name, protection, stack name and target. */
function scenarioBase(name: string, environment: { stackName: string; account?: string; region: string }, envName: string | undefined, protect: boolean) {
  return {
    name,
    envName,
    protect,
    stackName: prefixer(envName, '-')(environment.stackName),
    env: { account: environment.account, region: environment.region },
  };
}

function resolveFolio(catalog: Catalog, phase: FolioPhase, envName: string | undefined, protect: boolean): FolioScenario {
  const { environment, modules } = catalog.folio;
  const n = environment.names;
  const dash = prefixer(envName, '-');
  const slash = prefixer(envName, '/');
  const names: FolioEnvironment['names'] = {
    primaryCluster: dash(n.primaryCluster),
    offloadCluster: dash(n.offloadCluster),
    adminSecret: slash(n.adminSecret),
    moduleSecretPrefix: slash(n.moduleSecretPrefix),
    routingParameter: envName ? `/${envName}${n.routingParameter}` : n.routingParameter,
    moduleZone: envName ? `${envName}.${n.moduleZone}` : n.moduleZone,
  };
  const routed = new Set(phase.routedToOffload);
  const readers = (cluster: string, n: number) =>
    Array.from({ length: n }, (_, i) => ['dbInstanceIdentifier', readerInstanceIdentifier(cluster, i + 1)] as const);
  const o = prefixObservability(environment.observability, envName);
  checkNames(envName, [
    ['stackName', prefixer(envName, '-')(environment.stackName)],
    ['stackName', o.stackName],
    ['dashboard', o.dashboard],
    ['snsTopic', o.alarmTopic],
    ['dbClusterIdentifier', names.primaryCluster],
    ['dbInstanceIdentifier', writerInstanceIdentifier(names.primaryCluster)],
    ...readers(names.primaryCluster, environment.database.primaryReaders),
    ['dbClusterIdentifier', names.offloadCluster],
    ['dbInstanceIdentifier', writerInstanceIdentifier(names.offloadCluster)],
    ...readers(names.offloadCluster, phase.offload?.provisioned?.readers ?? 0),
    ['secretName', names.adminSecret],
    ['ssmParameterName', names.routingParameter],
    ['dnsName', names.moduleZone],
    ...modules.flatMap((m) => [
      ['secretName', `${names.moduleSecretPrefix}/${m.name}`] as const,
      ['dnsName', moduleRouteNames(names.moduleZone, m.name).writer] as const,
      ['dnsName', moduleRouteNames(names.moduleZone, m.name).reader] as const,
    ]),
  ]);
  return {
    family: 'folio',
    ...scenarioBase(phase.name, environment, envName, protect),
    environment: { ...environment, names, observability: o },
    modules,
    phase,
    routes: modules.map((m) => ({
      module: m.name,
      cluster: routed.has(m.name) ? 'offload' : 'primary',
      secretName: `${names.moduleSecretPrefix}/${m.name}`,
    })),
    storage: {
      primary: phase.storage?.primary ?? environment.database.storageType,
      offload: phase.storage?.offload ?? environment.database.storageType,
    },
  };
}

/**
 * The catalog a scenario is resolved from. When config has problems, only those the scenario
 * depends on stop it (its own row, its family's shared sections); other broken scenarios are
 * left out and the scenario resolves. Undefined: no scenario of that name.
 */
function catalogForScenario(name: string | undefined, input: CatalogInput): Catalog | undefined {
  const parsed = parseCatalog(input);
  if (parsed.success) return deepFreeze(parsed.data);
  const issues = parsed.error.issues;
  const family = (['folio', 'temporal'] as const).find((f) => rowsOf(input, f).some((r) => r?.name === name));
  // No scenario, or none of that name: that is what to say first.
  if (!family) return undefined;
  const relevant = issues.filter((i) => {
    const s = scopeOf(i, input);
    return s.family === undefined || (s.family === family && (s.scenario === undefined || s.scenario === name));
  });
  if (relevant.length) throw new ConfigError(describeIssues(relevant, input, catalogSchema, { family, name: name! }));
  const broken = new Set(
    issues
      .map((i) => scopeOf(i, input))
      .filter((s) => s.family === family && s.scenario !== undefined)
      .map((s) => s.scenario),
  );
  const section = (input as unknown as Record<Family, Record<string, unknown>>)[family];
  const pruned = { ...input, [family]: { ...section, [TABLE[family]]: rowsOf(input, family).filter((r) => !broken.has(String(r?.name))) } };
  const again = familyCatalogSchemas[family].safeParse(pruned);
  if (!again.success) throw new ConfigError(describeIssues(again.error.issues, pruned, catalogSchema, { family, name: name! }));
  // The other family is not checked and is never read for this scenario.
  return deepFreeze(again.data) as unknown as Catalog;
}

const parsedCatalogs = new WeakMap<CatalogInput, ReturnType<typeof catalogSchema.safeParse>>();

/**
 * The catalog schema's verdict on an input, once per input object: a command or a test
 * resolves many scenarios from one catalog, and the whole check (packing included) costs
 * milliseconds each time. The input is frozen on first sight, so the verdict cannot go stale.
 */
function parseCatalog(input: CatalogInput): ReturnType<typeof catalogSchema.safeParse> {
  let parsed = parsedCatalogs.get(input);
  if (!parsed) {
    parsed = catalogSchema.safeParse(deepFreeze(input));
    parsedCatalogs.set(input, parsed);
  }
  return parsed;
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}
