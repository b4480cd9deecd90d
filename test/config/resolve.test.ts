import { resolveScenario, type FolioScenario } from '../../config';

// Bad input of every kind: test/bad-input.test.ts.

describe('resolving a good scenario', () => {
  const s = resolveScenario({ scenario: 'test12' }) as FolioScenario;

  test('routes every module in config, seven of them to Serverless', () => {
    expect(s.routes).toHaveLength(s.modules.length);
    expect(s.routes.filter((r) => r.cluster === 'serverless').map((r) => r.module).sort()).toEqual(
      [...s.phase.routedToServerless].sort(),
    );
  });

  test('physical names do not depend on the scenario', () => {
    const other = resolveScenario({ scenario: 'baseline' }) as FolioScenario;
    expect(other.stackName).toBe(s.stackName);
    expect(other.environment.names).toEqual(s.environment.names);
    expect(other.routes.map((r) => r.secretName)).toEqual(s.routes.map((r) => r.secretName));
  });

  test('envName prefixes every physical name and the stack', () => {
    const p = resolveScenario({ scenario: 'test12', envName: 'perf2' }) as FolioScenario;
    expect(p.stackName).toBe('perf2-FolioHybridAurora');
    expect(p.environment.names).toEqual({
      provisionedCluster: 'perf2-folio-hybrid-provisioned',
      serverlessCluster: 'perf2-folio-hybrid-serverless',
      adminSecret: 'perf2/folio/db/admin',
      moduleSecretPrefix: 'perf2/folio/db/modules',
      routingParameter: '/perf2/folio/db/routing',
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
    expect(Object.isFrozen(s.phase.serverlessAcu)).toBe(true);
    expect(Object.isFrozen(s.routes)).toBe(true);
  });
});
