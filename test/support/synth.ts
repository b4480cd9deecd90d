import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Stack } from 'aws-cdk-lib/core';
import { Template } from 'aws-cdk-lib/assertions';
import { CATALOG } from '../../config';
import type { CatalogInput } from '../../config/catalog-schema';
import { scenarioApp } from '../../lib/assembly/scenario-app';
import { ALL_SCENARIO_NAMES } from '../../harness/catalog';
import { type CachedStack, cachedAssembly, cachedStacks, kept } from './synth-cache';

export { ALL_SCENARIO_NAMES, editedCatalog, FOLIO_PHASE_NAMES, TEMPORAL_SCENARIO_NAMES } from '../../harness/catalog';

/**
 * The contexts Jest's globalSetup synthesizes once per source state (test/support/synth-cache.ts)
 * and test/lint lints: every scenario, and each family's data stack renamed (envName),
 * unprotected, and with the fleet in each state it can be pinned to.
 */
export const CACHED_VARIANTS: ReadonlyArray<Readonly<Record<string, string>>> = [
  ...ALL_SCENARIO_NAMES.map((scenario) => ({ scenario })),
  { scenario: 'test12', envName: 'perf2' },
  { scenario: 'test12', unprotect: 'true' },
  { scenario: 'temporal-150wps', envName: 'perf2', fleet: 'parked' },
  { scenario: 'temporal-150wps', unprotect: 'true', fleet: 'running' },
  // The states an environment moves between (the transition check): running and parked; hibernated is a parameter of either.
  { scenario: 'temporal-150wps', fleet: 'running' },
  { scenario: 'temporal-150wps', fleet: 'parked' },
];

/** What a test reads of a stack besides its template (from the cloud assembly's manifest). */
type StackArtifact = Omit<CachedStack, 'templateFile'>;

export interface Synthesized {
  readonly artifact: StackArtifact;
  readonly template: Template;
  /** The template as CloudFormation sees it. */
  readonly json: Record<string, any>;
}

const cache = new Map<string, { data: Synthesized; observability: Synthesized }>();

/**
 * CDK records where each resource was created (a stack trace, into the assembly's metadata,
 * never the template); a test that synthesizes in process reads only templates.
 */
const NO_CREATION_STACKS = { 'aws:cdk:disable-creation-stack-traces': 'true' };

/** An app as the CDK CLI would build it for `-c` context, with the scenario's stacks added. */
export function buildApp(context: Record<string, string>, catalog: CatalogInput = CATALOG, outdir?: string) {
  const { app, data: stack, observability } = scenarioApp({ ...NO_CREATION_STACKS, ...context }, catalog, outdir);
  return { app, stack, observability };
}

/** `fn` with a fresh assembly directory, removed after it returns: an app synthesized in a test leaves nothing in the temp dir. */
export function inTempOutdir<T>(fn: (outdir: string) => T): T {
  const outdir = mkdtempSync(join(tmpdir(), 'synth-'));
  try {
    return fn(outdir);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

function synthesized(stack: Stack): Synthesized {
  const template = Template.fromStack(stack);
  const artifact = {
    path: stack.node.path,
    stackName: stack.stackName,
    terminationProtection: stack.terminationProtection,
    dependencies: stack.dependencies.map((s) => s.stackName),
  };
  return { artifact, template, json: template.toJSON() };
}

function fromCache({ templateFile, ...artifact }: CachedStack): Synthesized {
  const json = JSON.parse(readFileSync(templateFile, 'utf8'));
  return { artifact, template: Template.fromJSON(json), json };
}

function synthBoth(context: Record<string, string>, catalog: CatalogInput) {
  const key = catalog === CATALOG ? JSON.stringify(context) : undefined;
  const hit = key && cache.get(key);
  if (hit) return hit;
  const outdir = key ? cachedAssembly(context) : undefined;
  let result: { data: Synthesized; observability: Synthesized };
  if (outdir) {
    const stacks = cachedStacks(outdir);
    result = { data: fromCache(stacks.data), observability: fromCache(stacks.observability) };
  } else {
    // Synthesized once per source state: an edited catalog, or a context the cache lacks.
    const assembly = kept({ context: { ...NO_CREATION_STACKS, ...context }, catalog }, (dir) => buildApp(context, catalog, dir).app.synth());
    if (assembly) {
      const stacks = cachedStacks(assembly);
      result = { data: fromCache(stacks.data), observability: fromCache(stacks.observability) };
    } else
      result = inTempOutdir((dir) => {
        const { stack, observability } = buildApp(context, catalog, dir);
        return { data: synthesized(stack), observability: synthesized(observability) };
      });
  }
  if (key) cache.set(key, result);
  return result;
}

/**
 * A scenario through the same path as bin/app.ts (context -> config -> stacks): from the
 * run's synth cache when the context is a cached one and the catalog the real one, else
 * synthesized in process once per source state and kept (test/support/synth.test.ts).
 */
export function synthScenario(context: Record<string, string>, catalog: CatalogInput = CATALOG): Synthesized {
  return synthBoth(context, catalog).data;
}

/** The observability stack of the same synthesis. */
export function synthObservability(context: Record<string, string>, catalog: CatalogInput = CATALOG): Synthesized {
  return synthBoth(context, catalog).observability;
}

export const synthPhase = (name: string): Synthesized => synthScenario({ scenario: name });

/** The logical ID of the one resource of `type` whose construct path ends with `pathSuffix`. */
/** A template's resources of one type, in template order. */
export const resourcesOfType = (json: Record<string, any>, type: string): any[] =>
  Object.values(json.Resources as Record<string, any>).filter((r) => r.Type === type);

export function logicalId(json: Record<string, any>, type: string, pathSuffix: string): string {
  const ids = Object.entries(json.Resources as Record<string, any>)
    .filter(([, r]) => r.Type === type && String(r.Metadata?.['aws:cdk:path'] ?? '').endsWith(pathSuffix))
    .map(([id]) => id);
  if (ids.length !== 1) throw new Error(`expected one ${type} at */${pathSuffix}, found ${ids.length}`);
  return ids[0];
}

/** A count the Hibernated parameter holds at zero: `awake` while it is false. */
export const hibernatable = (awake: number | string) => ({ 'Fn::If': ['IsHibernated', typeof awake === 'string' ? '0' : 0, awake] });

/** A template as CloudFormation applies it with the Hibernated parameter at a value: every Fn::If on it resolved. */
export function withHibernated<T>(json: T, hibernated: boolean): T {
  const resolve = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(resolve);
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const cond = o['Fn::If'] as unknown[] | undefined;
      if (Array.isArray(cond) && cond[0] === 'IsHibernated' && Object.keys(o).length === 1) return resolve(hibernated ? cond[1] : cond[2]);
      return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, resolve(x)]));
    }
    return v;
  };
  return resolve(json) as T;
}
