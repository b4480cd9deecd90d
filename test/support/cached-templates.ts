import { isDeepStrictEqual } from 'node:util';
import { readFileSync } from 'node:fs';
import type { Scenario } from '../../config';
import type * as ScenarioAppModule from '../../lib/assembly/scenario-app';
import type * as FamiliesModule from '../../lib/families';
import { cachedAssembly, cachedStacks } from './synth-cache';

/*
 * A setup file of the unit suite (jest.config.js): the app's in-process synthesis
 * (scenarioTemplates, which plan and campaigns call) answered from the run's synth cache when
 * the cache holds that very scenario: the same context, resolved to the same scenario from the
 * stock catalog, synthesized by the same code (the cache's key covers it). An edited catalog or
 * a context the cache lacks is synthesized in process, as before. Saves a second or two a
 * scenario; test/support/cached-templates.test.ts proves the two give the same templates.
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

jest.mock('../../lib/assembly/scenario-app', () => {
  const actual = jest.requireActual<ScenarioApp>('../../lib/assembly/scenario-app');
  const scenarioTemplates: ScenarioApp['scenarioTemplates'] = (scenario, context) =>
    cachedTemplates(scenario, context) ?? actual.scenarioTemplates(scenario, context);
  return { ...actual, scenarioTemplates };
});
