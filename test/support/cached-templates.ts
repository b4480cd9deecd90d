import { isDeepStrictEqual } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Scenario } from '../../config';
import type * as ScenarioAppModule from '../../lib/assembly/scenario-app';
import type * as FamiliesModule from '../../lib/families';
import { cachedAssembly, cachedStacks, kept } from './synth-cache';

/*
 * A setup file of the unit suite (jest.config.js): the app's in-process synthesis
 * (scenarioTemplates, which plan and campaigns call) answered from the run's synth cache when
 * the cache holds that very scenario: the same context, resolved to the same scenario from the
 * stock catalog, synthesized by the same code (the cache's key covers it). A scenario of an
 * edited catalog or a context the cache lacks is synthesized in process once per source state
 * and kept (keptTemplates). Saves a second or two a scenario; test/support/cached-templates.test.ts
 * proves each gives the templates synthesis would.
 */

type ScenarioApp = typeof ScenarioAppModule;

/** The cached templates of `scenario`, by stack name in synth's order, if the cache holds exactly it. */
export function cachedTemplates(scenario: Scenario, context: Record<string, string>): Map<string, Record<string, any>> | undefined {
  const outdir = cachedAssembly(context);
  if (!outdir) return undefined;
  const { resolveScenario } = jest.requireActual<typeof FamiliesModule>('../../lib/families');
  if (!isDeepStrictEqual(scenario, resolveScenario(context))) return undefined;
  const { data, observability } = cachedStacks(outdir);
  return new Map([data, observability].map((s) => [s.stackName, JSON.parse(readFileSync(s.templateFile, 'utf8'))]));
}

/** The families whose code is lib's, which the synth cache's key covers (a test's own family's is not). */
const IN_LIB = new Set(['folio', 'temporal']);

/**
 * The templates of a scenario the cache does not hold (a proposed phase, an edited catalog's),
 * synthesized once per source state and kept (synth-cache.ts: kept); undefined for a test's own family.
 */
export function keptTemplates(
  scenario: Scenario,
  context: Record<string, string>,
  synth: ScenarioApp['scenarioTemplates'],
): Map<string, Record<string, any>> | undefined {
  if (!IN_LIB.has(scenario.family)) return undefined;
  const file = kept({ scenario, context }, (path) => writeFileSync(path, JSON.stringify([...synth(scenario, context)])));
  return file ? new Map(JSON.parse(readFileSync(file, 'utf8'))) : undefined;
}

jest.mock('../../lib/assembly/scenario-app', () => {
  const actual = jest.requireActual<ScenarioApp>('../../lib/assembly/scenario-app');
  const scenarioTemplates: ScenarioApp['scenarioTemplates'] = (scenario, context) =>
    cachedTemplates(scenario, context) ?? keptTemplates(scenario, context, actual.scenarioTemplates) ?? actual.scenarioTemplates(scenario, context);
  return { ...actual, scenarioTemplates };
});
