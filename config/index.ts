import { z } from 'zod';
import { ConfigError, didYouMean } from './errors';
import { FOLIO_ENVIRONMENT } from './folio-environment';
import { FOLIO_MODULES } from './folio-modules';
import { FOLIO_PHASES } from './folio-phases';
import {
  catalogSchema,
  type Catalog,
  type CatalogInput,
  type ClusterRole,
  type FleetState,
  type FolioEnvironment,
  type FolioModule,
  type FolioPhase,
  type TemporalEnvironment,
  type TemporalPreset,
} from './schema';
import { TEMPORAL_ENVIRONMENT } from './temporal-environment';
import { TEMPORAL_SCENARIOS } from './temporal-scenarios';
import { FLEET_STATES } from './temporal-schema';

export { ConfigError, exitOnConfigError } from './errors';
export type {
  ClusterRole,
  FleetState,
  FolioEnvironment,
  FolioModule,
  FolioPhase,
  ImageRef,
  TemporalEnvironment,
  TemporalPreset,
  TemporalRole,
} from './schema';
export { TEMPORAL_ROLES } from './temporal-roles';

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
  scenario: z.string().optional(),
  envName: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,15}$/, { error: (iss) => `envName "${String(iss.input)}" is not valid (1-16 of a-z, 0-9, -, starting with a letter)` })
    .optional(),
  unprotect: z
    .union([z.boolean(), z.enum(['true', 'false'])], { error: (iss) => `unprotect "${String(iss.input)}" is not valid (valid: true, false)` })
    .optional(),
  fleet: z.enum(FLEET_STATES, { error: (iss) => `fleet "${String(iss.input)}" is not valid (valid: ${FLEET_STATES.join(', ')})` }).optional(),
});
const CONTEXT_KEYS = Object.keys(contextSchema.shape);
/** Context keys the CDK CLI itself writes without a ':' in them. */
const CDK_OWN_CONTEXT_KEYS = ['cli-telemetry', 'acknowledged-issue-numbers'];

/** Validates the whole catalog; the first problem becomes one ConfigError line. */
export function loadCatalog(input: CatalogInput = CATALOG): Catalog {
  const parsed = catalogSchema.safeParse(input);
  if (parsed.success) return deepFreeze(parsed.data);
  throw new ConfigError(describeIssues(parsed.error.issues, input));
}

export function scenarioNames(catalog: Catalog): string[] {
  return [...catalog.folio.phases.map((p) => p.name), ...catalog.temporal.scenarios.map((s) => s.name)];
}

/** The one path from CDK context to a scenario: validates context and config, then resolves. */
export function resolveScenario(context: Record<string, unknown>, input: CatalogInput = CATALOG): Scenario {
  const unknown = Object.keys(context).filter((k) => !/[:@/]/.test(k) && !CONTEXT_KEYS.includes(k) && !CDK_OWN_CONTEXT_KEYS.includes(k));
  if (unknown.length)
    throw new ConfigError(`unknown context key "${unknown[0]}"${didYouMean(unknown[0], CONTEXT_KEYS)}; valid: ${CONTEXT_KEYS.join(', ')}`);
  const ctx = contextSchema.safeParse(context);
  if (!ctx.success) throw new ConfigError(ctx.error.issues[0].message);

  const catalog = loadCatalog(input);
  const names = scenarioNames(catalog);
  const name = ctx.data.scenario;
  if (name === undefined || name === '')
    throw new ConfigError(`no scenario given: pass -c scenario=<name>; valid: ${names.join(', ')}`);
  const envName = ctx.data.envName;
  const protect = !(ctx.data.unprotect === true || ctx.data.unprotect === 'true');
  const phase = catalog.folio.phases.find((p) => p.name === name);
  if (phase) {
    if (ctx.data.fleet !== undefined) throw new ConfigError(`fleet applies to Temporal scenarios only; "${name}" is a FOLIO phase (valid: no fleet, or a Temporal preset: ${catalog.temporal.scenarios.map((s) => s.name).join(', ')})`);
    return deepFreeze(resolveFolio(catalog, phase, envName, protect));
  }
  const preset = catalog.temporal.scenarios.find((s) => s.name === name);
  if (preset) return deepFreeze(resolveTemporal(catalog, preset, envName, protect, ctx.data.fleet));
  throw new ConfigError(`unknown scenario "${name}"${didYouMean(name, names)}; valid: ${names.join(', ')}`);
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
    visibilityDomain: dash(n.visibilityDomain),
    prometheusWorkspace: dash(n.prometheusWorkspace),
    serviceNamespace: prefixer(envName, '.')(n.serviceNamespace),
  };
  if (names.visibilityDomain.length > 28)
    throw new ConfigError(
      `envName "${envName}" makes the OpenSearch domain name "${names.visibilityDomain}" longer than 28 characters; ` +
        `valid: an envName of at most ${27 - n.visibilityDomain.length} characters`,
    );
  return {
    family: 'temporal',
    ...scenarioBase(preset.name, environment, envName, protect),
    environment: { ...environment, names, observability: prefixObservability(environment.observability, envName) },
    preset,
    fleet: fleet ?? preset.benchmark.fleet,
  };
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
function scenarioBase(
  name: string,
  environment: { stackName: string; account?: string; region: string },
  envName: string | undefined,
  protect: boolean,
) {
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
    provisionedCluster: dash(n.provisionedCluster),
    serverlessCluster: dash(n.serverlessCluster),
    adminSecret: slash(n.adminSecret),
    moduleSecretPrefix: slash(n.moduleSecretPrefix),
    routingParameter: envName ? `/${envName}${n.routingParameter}` : n.routingParameter,
  };
  const routed = new Set(phase.routedToServerless);
  return {
    family: 'folio',
    ...scenarioBase(phase.name, environment, envName, protect),
    environment: { ...environment, names, observability: prefixObservability(environment.observability, envName) },
    modules,
    phase,
    routes: modules.map((m) => ({
      module: m.name,
      cluster: routed.has(m.name) ? 'serverless' : 'provisioned',
      secretName: `${names.moduleSecretPrefix}/${m.name}`,
    })),
  };
}

/** `config error in scenario "test7" (serverlessAcu.max): 32.3 ACU is off the 0.5 grid (...)`. */
function describeIssues(issues: readonly z.core.$ZodIssue[], input: unknown): string {
  // A misspelled field also shows up as a missing one; the misspelling is the one to report.
  const first = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0];
  let where = first.path.join('.');
  const [family, table, index] = first.path;
  if ((`${String(family)}.${String(table)}` === 'folio.phases' || `${String(family)}.${String(table)}` === 'temporal.scenarios') && typeof index === 'number') {
    const rows = family === 'folio' ? (input as CatalogInput).folio.phases : (input as CatalogInput).temporal.scenarios;
    const phaseName = rows[index]?.name;
    const rest = first.path.slice(3).join('.');
    where = `scenario "${String(phaseName)}"${rest ? ` (${rest})` : ''}`;
  }
  let message = first.message;
  if (first.code === 'unrecognized_keys') {
    const valid = keysAt(first.path);
    message = `unknown field "${first.keys[0]}"${didYouMean(first.keys[0], valid)}; valid: ${valid.join(', ')}`;
  } else if (first.code === 'invalid_type' && valueAt(input, first.path) === undefined) {
    message = `missing field "${String(first.path.at(-1))}" (valid: ${first.expected})`;
  } else if (first.code !== 'custom') {
    message = `${message} (got ${JSON.stringify(valueAt(input, first.path))})`;
  }
  const more = issues.length > 1 ? ` (+${issues.length - 1} more)` : '';
  return `config error in ${where}: ${message}${more}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((v, k) => (v == null ? v : (v as Record<PropertyKey, unknown>)[k]), root);
}

/** The field names the schema allows at `path` (for "valid: ..." in unknown-field errors). */
function keysAt(path: readonly PropertyKey[]): string[] {
  let s: z.ZodType = catalogSchema;
  for (const k of path) {
    s = unwrap(s);
    if (s instanceof z.ZodArray) s = s.element as z.ZodType;
    else if (s instanceof z.ZodObject) s = (s.shape as Record<string, z.ZodType>)[String(k)];
    if (!s) return [];
  }
  s = unwrap(s);
  return s instanceof z.ZodObject ? Object.keys(s.shape) : [];
}

function unwrap(s: z.ZodType): z.ZodType {
  for (;;) {
    if (s instanceof z.ZodReadonly || s instanceof z.ZodOptional) s = s.unwrap() as z.ZodType;
    else if (s instanceof z.ZodPipe) s = s.in as z.ZodType;
    else return s;
  }
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}
