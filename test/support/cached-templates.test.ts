import type * as ScenarioAppModule from '../../lib/assembly/scenario-app';
import { scenarioTemplates } from '../../lib/assembly/scenario-app';
import { resolveScenario } from '../../lib/families';
import { cachedTemplates } from './cached-templates';
import { editedCatalog } from './synth';

/* The unit suite's reuse of the synth cache for in-process synthesis (./cached-templates.ts) gives what synthesis would. */

const actual = jest.requireActual<typeof ScenarioAppModule>('../../lib/assembly/scenario-app');

test.each<Record<string, string>>([{ scenario: 'test12', envName: 'perf2' }, { scenario: 'temporal-150wps' }])(
  '%j: the cached templates are the ones synthesized in process, stack by stack in order',
  (context) => {
    const scenario = resolveScenario(context);
    const cached = cachedTemplates(scenario, context);
    expect(cached).toBeDefined();
    const synthesized = actual.scenarioTemplates(scenario, context);
    expect([...cached!.keys()]).toEqual([...synthesized.keys()]);
    expect(cached).toEqual(synthesized);
  },
);

test("the suite's scenarioTemplates answers from the cache (the setup file replaced it)", () => {
  expect(scenarioTemplates).not.toBe(actual.scenarioTemplates);
  const context = { scenario: 'test1' };
  expect(scenarioTemplates(resolveScenario(context), context)).toEqual(cachedTemplates(resolveScenario(context), context));
});

test('a scenario of an edited catalog, or a context the cache lacks, is not answered from the cache', () => {
  const edited = editedCatalog((c) => {
    c.folio.phases.find((p: any) => p.name === 'test12').offload = { serverless: { min: 1, max: 32 } };
  });
  expect(cachedTemplates(resolveScenario({ scenario: 'test12' }, edited), { scenario: 'test12' })).toBeUndefined();
  expect(cachedTemplates(resolveScenario({ scenario: 'test12', envName: 'perf3' }), { scenario: 'test12', envName: 'perf3' })).toBeUndefined();
});
