import { resolveScenario, type FolioScenario, type TemporalScenario } from '../../config';
import { editedCatalog, TEMPORAL_SCENARIO_NAMES } from '../../harness/catalog';

// Bad input of every kind: test/bad-input.test.ts.

describe('resolving a good scenario', () => {
  const s = resolveScenario({ scenario: 'test12' }) as FolioScenario;

  test('routes every module in config, seven of them to Serverless', () => {
    expect(s.routes).toHaveLength(s.modules.length);
    expect(
      s.routes
        .filter((r) => r.cluster === 'offload')
        .map((r) => r.module)
        .sort(),
    ).toEqual([...s.phase.routedToOffload].sort());
  });

  test('physical names do not depend on the scenario', () => {
    const other = resolveScenario({ scenario: 'baseline' }) as FolioScenario;
    expect(other.stackName).toBe(s.stackName);
    expect(other.environment.names).toEqual(s.environment.names);
    expect(other.routes.map((r) => r.secretName)).toEqual(s.routes.map((r) => r.secretName));
  });

  test('every Temporal preset, on either store, deploys as the one stack TemporalDsql (a new name would be a second stack)', () => {
    const presets = TEMPORAL_SCENARIO_NAMES.map((scenario) => resolveScenario({ scenario }) as TemporalScenario);
    expect(new Set(presets.map((p) => p.preset.store.engine))).toEqual(new Set(['dsql', 'aurora-postgresql']));
    expect([...new Set(presets.map((p) => p.stackName))]).toEqual(['TemporalDsql']);
  });

  test('envName prefixes every physical name and the stack', () => {
    const p = resolveScenario({ scenario: 'test12', envName: 'perf2' }) as FolioScenario;
    expect(p.stackName).toBe('perf2-FolioHybridAurora');
    expect(p.environment.names).toEqual({
      primaryCluster: 'perf2-folio-hybrid-provisioned',
      offloadCluster: 'perf2-folio-hybrid-serverless',
      adminSecret: 'perf2/folio/db/admin',
      moduleSecretPrefix: 'perf2/folio/db/modules',
      routingParameter: '/perf2/folio/db/routing',
      moduleZone: 'perf2.folio-db.internal',
    });
    expect(p.routes[0].secretName).toMatch(/^perf2\/folio\/db\/modules\/mod-/);
  });

  test('protection is on unless unprotect=true is passed', () => {
    expect(s.protect).toBe(true);
    expect(resolveScenario({ scenario: 'test12', unprotect: 'false' }).protect).toBe(true);
    expect(resolveScenario({ scenario: 'test12', unprotect: 'true' }).protect).toBe(false);
  });

  test('CDK feature flags and CLI keys in context are not mistaken for typos', () => {
    expect(() =>
      resolveScenario({ scenario: 'test1', '@aws-cdk/core:checkSecretUsage': true, 'cli-telemetry': false, 'aws:cdk:enable-path-metadata': true }),
    ).not.toThrow();
  });

  test('the result is frozen', () => {
    expect(Object.isFrozen(s.phase.offload)).toBe(true);
    expect(Object.isFrozen(s.routes)).toBe(true);
  });
});

describe('errors name the right scenario', () => {
  const broken = editedCatalog((c) => {
    const p = c.folio.phases.find((x: any) => x.name === 'test7');
    p.offload.serverless.max = 32.3;
    c.temporal.environment.ports.matching.grpc = 7234;
  });

  test('a broken scenario does not block another that shares nothing broken, in either family', () => {
    expect((resolveScenario({ scenario: 'test12' }, broken) as FolioScenario).phase.name).toBe('test12');
  });

  test('the broken scenario itself names its own problem, and a shared value says it is shared', () => {
    expect(() => resolveScenario({ scenario: 'test7' }, broken)).toThrow(
      /^config error in scenario "test7" \(offload.serverless.max\): 32.3 ACU is off the 0.5 grid/,
    );
    expect(() => resolveScenario({ scenario: 'temporal-25wps' }, broken)).toThrow(
      /^config error in temporal.environment.ports: port 7234 is used twice; every role needs its own gRPC and membership ports \(shared by every Temporal preset, temporal-25wps among them\)$/,
    );
  });

  test('every problem is listed, none as "+N more"', () => {
    const twice = editedCatalog((c) => {
      const p = c.folio.phases.find((x: any) => x.name === 'test7');
      p.offload.serverless.max = 32.3;
      p.primaryInstanceClass = 'db.r7g.2xlarg';
    });
    const message = (() => {
      try {
        resolveScenario({ scenario: 'test7' }, twice);
        return '';
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(message).toMatch(/offload.serverless.max\): 32.3 ACU is off the 0.5 grid/);
    expect(message).toMatch(/primaryInstanceClass\): Aurora PostgreSQL does not offer "db.r7g.2xlarg"/);
    expect(message).not.toMatch(/more\)/);
    expect(message).not.toContain('\n');
  });

  test('did-you-mean prefers the name that differs only in punctuation', () => {
    expect(() => resolveScenario({ scenario: 'temporal150wps' })).toThrow(/did you mean "temporal-150wps"\?/);
    expect(() => resolveScenario({ scenario: 'Test12' })).toThrow(/did you mean "test12"\?/);
  });
});
