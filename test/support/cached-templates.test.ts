import type * as ScenarioAppModule from '../../lib/assembly/scenario-app';
import { scenarioTemplates } from '../../lib/assembly/scenario-app';
import { resolveScenario } from '../../lib/families';
import { cachedTemplates, keptTemplates } from './cached-templates';
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

describe('what the cache lacks is synthesized once per source state and kept', () => {
  const edited = editedCatalog((c) => {
    c.folio.phases.find((p: any) => p.name === 'test12').offload = { serverless: { min: 1, max: 24 } };
  });
  const scenario = resolveScenario({ scenario: 'test12' }, edited);
  const calls: string[] = [];
  const counting: typeof actual.scenarioTemplates = (s, context) => {
    calls.push(s.name);
    return actual.scenarioTemplates(s, context);
  };

  test('kept, the templates are the ones synthesized in process, and a second ask synthesizes nothing', () => {
    const first = keptTemplates(scenario, { scenario: 'test12' }, counting);
    const again = keptTemplates(scenario, { scenario: 'test12' }, counting);
    expect(calls.length).toBeLessThanOrEqual(1);
    const synthesized = actual.scenarioTemplates(scenario, { scenario: 'test12' });
    expect([...first!.keys()]).toEqual([...synthesized.keys()]);
    expect(first).toEqual(synthesized);
    expect(again).toEqual(synthesized);
  });

  test("another scenario or context is kept apart: its own templates, not the first one's", () => {
    const other = editedCatalog((c) => {
      c.folio.phases.find((p: any) => p.name === 'test12').offload = { serverless: { min: 1, max: 16 } };
    });
    const theirs = keptTemplates(resolveScenario({ scenario: 'test12' }, other), { scenario: 'test12' }, counting);
    const renamed = keptTemplates(resolveScenario({ scenario: 'test12', envName: 'perf3' }, edited), { scenario: 'test12', envName: 'perf3' }, counting);
    const mine = keptTemplates(scenario, { scenario: 'test12' }, counting);
    expect(theirs).not.toEqual(mine);
    expect([...renamed!.keys()]).toEqual(['perf3-FolioHybridAurora', 'perf3-FolioHybridAuroraObservability']);
  });

  test("a test's own family is never kept: the cache's key does not cover its code", () => {
    expect(keptTemplates({ ...scenario, family: 'toy' } as never, { scenario: 'test12' }, counting)).toBeUndefined();
  });
});
