import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { CATALOG, loadCatalog, scenarioNames } from '../../config';
import type { CatalogInput } from '../../config/schema';
import { scenarioApp } from '../../lib/scenario-app';

export { CLI_CONTEXT } from '../../lib/scenario-app';

const catalog = loadCatalog();
export const FOLIO_PHASE_NAMES: readonly string[] = catalog.folio.phases.map((p) => p.name);
export const TEMPORAL_SCENARIO_NAMES: readonly string[] = catalog.temporal.scenarios.map((s) => s.name);
export const ALL_SCENARIO_NAMES: readonly string[] = scenarioNames(catalog);

export interface Synthesized {
  readonly stack: Stack;
  readonly template: Template;
  /** The template as CloudFormation sees it. */
  readonly json: Record<string, any>;
}

const cache = new Map<string, { data: Synthesized; observability: Synthesized }>();

/** An app as the CDK CLI would build it for `-c` context, with the scenario's stacks added. */
export function buildApp(context: Record<string, string>, catalog: CatalogInput = CATALOG, outdir?: string) {
  const { app, data: stack, observability } = scenarioApp(context, catalog, outdir);
  return { app, stack, observability };
}

function synthesized(stack: Stack): Synthesized {
  const template = Template.fromStack(stack);
  return { stack, template, json: template.toJSON() };
}

function synthBoth(context: Record<string, string>, catalog: CatalogInput) {
  const key = catalog === CATALOG ? JSON.stringify(context) : undefined;
  const hit = key && cache.get(key);
  if (hit) return hit;
  const { stack, observability } = buildApp(context, catalog);
  const result = { data: synthesized(stack), observability: synthesized(observability) };
  if (key) cache.set(key, result);
  return result;
}

/** Synthesizes a scenario through the same path as bin/app.ts (context -> config -> stacks). */
export function synthScenario(context: Record<string, string>, catalog: CatalogInput = CATALOG): Synthesized {
  return synthBoth(context, catalog).data;
}

/** The observability stack of the same synthesis. */
export function synthObservability(context: Record<string, string>, catalog: CatalogInput = CATALOG): Synthesized {
  return synthBoth(context, catalog).observability;
}

export const synthPhase = (name: string): Synthesized => synthScenario({ scenario: name });

/** A deep copy of the catalog, changed by `edit`: for bad-input tests. */
export function editedCatalog(edit: (c: any) => void): CatalogInput {
  const copy = structuredClone(CATALOG) as any;
  edit(copy);
  return copy;
}

/** The logical ID of the one resource of `type` whose construct path ends with `pathSuffix`. */
export function logicalId(json: Record<string, any>, type: string, pathSuffix: string): string {
  const ids = Object.entries(json.Resources as Record<string, any>)
    .filter(([, r]) => r.Type === type && String(r.Metadata?.['aws:cdk:path'] ?? '').endsWith(pathSuffix))
    .map(([id]) => id);
  if (ids.length !== 1) throw new Error(`expected one ${type} at */${pathSuffix}, found ${ids.length}`);
  return ids[0];
}
