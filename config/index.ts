import { z } from './zod';
import { ConfigError, noScenario, notValid, unknownName } from './errors';
import { describeIssues, keyOfAnotherFamily, rawNames, rowsOf, scopeOf, TABLE, wrongFamily, FAMILY_NAME } from './catalog-issues';
import { catalogSchema, familyCatalogSchemas } from './catalog-schema';
import { FAMILY_CATALOGS, type Catalog, type CatalogInput, type Family, type Scenario } from './family-registry';
import type { Resolving } from './family-catalog';
import type { ImageRef } from './fields';
import type { ClusterRole, FolioEnvironment, FolioPhase } from './folio-schema';
import type { FleetState, TemporalEnvironment, TemporalPreset, TemporalRole } from './temporal-schema';

export { ConfigError, exitOnConfigError } from './errors';
export { FAMILY_NAME } from './catalog-issues';
export { describeOffload } from './folio-schema';
export type { ClusterRole, FleetState, FolioEnvironment, FolioPhase, ImageRef, Scenario, TemporalEnvironment, TemporalPreset, TemporalRole };
export type { FolioScenario, ModuleRoute } from './folio-catalog';
export type { TemporalScenario } from './temporal-catalog';
export { TEMPORAL_ROLES, TEMPORAL_STOP_ORDER } from './temporal-roles';

/** Everything in config/, as written. */
export const CATALOG = Object.fromEntries(FAMILY_CATALOGS.map((c) => [c.identity.name, c.written])) as Record<Family, CatalogInput[Family]> as CatalogInput;

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
  ...Object.fromEntries(FAMILY_CATALOGS.flatMap((c) => Object.entries(c.contextKeys).map(([k, schema]) => [k, schema.optional()]))),
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
  return FAMILY_CATALOGS.flatMap((c) => rowsOf(catalog, c.identity.name).map((r) => String(r.name)));
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
  const given: Readonly<Record<string, unknown>> = ctx.data;
  for (const c of FAMILY_CATALOGS) {
    const section = (catalog as Readonly<Record<Family, unknown>>)[c.identity.name];
    const own = Object.fromEntries(Object.keys(c.contextKeys).map((k) => [k, given[k]]));
    const scenario = section !== undefined ? (c.resolve as Resolve)(section, { name, envName, protect, own }) : undefined;
    if (!scenario) continue;
    checkOwnKeys(given, scenario, catalog);
    return deepFreeze(scenario);
  }
  throw new ConfigError(unknownName('scenario', name, names));
}

type Resolve = (section: unknown, r: Resolving) => Scenario | undefined;

/** A context key another family reads (`-c fleet=` on a FOLIO phase), refused naming that family's scenarios. */
function checkOwnKeys(given: Readonly<Record<string, unknown>>, scenario: Scenario, catalog: Catalog): void {
  for (const c of FAMILY_CATALOGS) {
    if (c.identity.name === scenario.family) continue;
    const key = Object.keys(c.contextKeys).find((k) => given[k] !== undefined);
    if (key)
      throw new ConfigError(
        keyOfAnotherFamily(
          key,
          scenario.name,
          scenario.family,
          c.identity.name,
          rowsOf(catalog, c.identity.name).map((r) => String(r.name)),
        ),
      );
  }
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

/**
 * The catalog a scenario is resolved from. When config has problems, only those the scenario
 * depends on stop it (its own row, its family's shared sections); other broken scenarios are
 * left out and the scenario resolves. Undefined: no scenario of that name.
 */
function catalogForScenario(name: string | undefined, input: CatalogInput): Catalog | undefined {
  const parsed = parseCatalog(input);
  if (parsed.success) return deepFreeze(parsed.data);
  const issues = parsed.error.issues;
  const family = FAMILY_CATALOGS.map((c) => c.identity.name).find((f) => rowsOf(input, f).some((r) => r?.name === name));
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
