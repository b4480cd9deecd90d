import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { globSync } from 'glob';
import { TEMPORAL_ROLES } from '../../config';
import { benchOutputKeys } from '../../lib/temporal/commands/bench/targets';
import { MOVE_OUTPUTS, ROUTE_OUTPUTS } from '../../lib/folio/commands/move/mover-task';
import {
  BENCHMARK_GENERATOR_FAMILY,
  BENCHMARK_WORKER_SERVICE,
  GENERATOR_CONTAINER,
  PROBE_CONTAINER,
  STORE_PROBE_FAMILY,
  temporalServiceName,
} from '../../lib/temporal/contract/temporal-names';
import { MOVER_CONTAINER } from '../../lib/folio/contract/mover';
import { FOLIO_OUTPUTS } from '../../lib/folio/contract/folio-stack-outputs';
import { TEMPORAL_OUTPUTS } from '../../lib/temporal/contract/temporal-stack-outputs';
import { resourcesOfType, synthScenario } from '../support/synth';

/*
 * The contract between the stacks and the commands, against each family's synthesized
 * templates: every output key a command reads is declared, the stacks declare nothing outside
 * the contract, and the services, families and containers the commands name exist.
 */
const ROOT = join(__dirname, '../..');
// The reference CDK publishes for the observability stack (PublishOutput...) is not the commands' business.
const outputsOf = (json: Record<string, any>) =>
  Object.keys(json.Outputs ?? {})
    .filter((k) => !k.startsWith('PublishOutput'))
    .sort();
const containersOf = (json: Record<string, any>, family: string) =>
  resourcesOfType(json, 'AWS::ECS::TaskDefinition')
    .filter((t) => t.Properties.Family === family)
    .flatMap((t) => (t.Properties.ContainerDefinitions as { Name: string }[]).map((c) => c.Name));

describe.each([
  ['temporal-150wps', 'dsql'],
  ['temporal-aurora-150wps', 'aurora-postgresql'],
] as const)('%s (%s store)', (scenario, engine) => {
  const { json } = synthScenario({ scenario });
  const other = engine === 'dsql' ? ['auroraEndpoint', 'auroraClusterId', 'auroraSecretArn'] : ['dsqlEndpoint', 'dsqlClusterId', 'rateLimiterTable'];

  test("the stack declares exactly the contract's outputs for its store", () => {
    const expected = Object.entries(TEMPORAL_OUTPUTS)
      .filter(([name]) => !other.includes(name))
      .map(([, key]) => key);
    expect(outputsOf(json)).toEqual(expected.sort());
  });

  test('every output bench and report read is there', () => {
    const { required, optional } = benchOutputKeys(engine);
    const report = [TEMPORAL_OUTPUTS.prometheusWorkspaceId, ...(engine === 'dsql' ? [TEMPORAL_OUTPUTS.dsqlClusterId] : [])];
    expect(outputsOf(json)).toEqual(expect.arrayContaining([...required, ...optional, ...report]));
  });

  test('the services, families and containers bench and report name exist', () => {
    const services = resourcesOfType(json, 'AWS::ECS::Service').map((s) => s.Properties.ServiceName);
    expect(services).toEqual(expect.arrayContaining([BENCHMARK_WORKER_SERVICE, ...TEMPORAL_ROLES.map(temporalServiceName)]));
    expect(containersOf(json, BENCHMARK_GENERATOR_FAMILY)).toContain(GENERATOR_CONTAINER);
    expect(containersOf(json, STORE_PROBE_FAMILY)).toContain(PROBE_CONTAINER);
  });
});

describe('FOLIO (baseline)', () => {
  const { json } = synthScenario({ scenario: 'baseline' });

  test("the stack declares exactly the contract's outputs, and every one move reads", () => {
    expect(outputsOf(json)).toEqual(Object.values(FOLIO_OUTPUTS).sort());
    expect(outputsOf(json)).toEqual(expect.arrayContaining([...Object.values(MOVE_OUTPUTS), ...Object.values(ROUTE_OUTPUTS)]));
  });

  test("the mover's task definition has the container move overrides", () => {
    const names = resourcesOfType(json, 'AWS::ECS::TaskDefinition').flatMap((t) =>
      (t.Properties.ContainerDefinitions as { Name: string }[]).map((c) => c.Name),
    );
    expect(names).toContain(MOVER_CONTAINER);
  });
});

test('no command, stack or test fleet spells an output key itself: each reads it from the contract', () => {
  const keys = new Set<string>([...Object.values(TEMPORAL_OUTPUTS), ...Object.values(FOLIO_OUTPUTS)]);
  const files = globSync(['bin/*.ts', 'lib/**/*.ts', 'harness/offline-fleet.ts'], {
    cwd: ROOT,
    ignore: ['lib/temporal/contract/temporal-stack-outputs.ts', 'lib/folio/contract/folio-stack-outputs.ts'],
  });
  expect(files.length).toBeGreaterThan(50);
  const spelled = files.flatMap((f) =>
    [...readFileSync(join(ROOT, f), 'utf8').matchAll(/'([A-Za-z]+)'/g)]
      .filter((m) => keys.has(m[1]) && !['Phase', 'Scenario'].includes(m[1]))
      .map((m) => `${f}: '${m[1]}'`),
  );
  expect(spelled).toEqual([]);
});
