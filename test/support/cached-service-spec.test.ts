import { fullDiff, ResourceImpact } from '@aws-cdk/cloudformation-diff';
import { cachedSpec } from './cached-service-spec';
import { ALL_SCENARIO_NAMES, synthObservability, synthScenario } from './synth';
import { resourceModels, SERVICE_SPEC } from './synth-cache';

/* The unit suite's resource models (./cached-service-spec.ts) are the specification's, and cover every cached template. */

type Spec = Parameters<typeof cachedSpec>[0];
const actual = jest.requireActual<Spec>(SERVICE_SPEC);
const models = resourceModels()!;
/** The whole specification, loaded once for this file (a second each time). */
let loaded: ReturnType<Spec['loadAwsServiceSpecSync']> | undefined;
const whole = () => (loaded ??= actual.loadAwsServiceSpecSync());

test("each model is the specification's own, and every resource type of every scenario's templates has one", () => {
  const types = new Set(
    ALL_SCENARIO_NAMES.flatMap((scenario) =>
      [synthScenario({ scenario }), synthObservability({ scenario })].flatMap((s) =>
        Object.values(s.json.Resources as Record<string, { Type: string }>).map((r) => r.Type),
      ),
    ),
  );
  expect(types.size).toBeGreaterThan(40);
  expect([...types].filter((t) => !Object.hasOwn(models, t))).toEqual([]);
  for (const [type, model] of Object.entries(models))
    expect({ type, model }).toEqual({ type, model: whole().lookup('resource', 'cloudFormationType', 'equals', type)[0] ?? null });
  // Custom resources have no model: kept as none, so that a diff of them does not load the whole specification.
  expect(Object.keys(models).filter((t) => models[t] === null)).toEqual(expect.arrayContaining(['Custom::TemporalSchema']));
});

test('a type the models hold is answered without the specification; another loads it once, and gets its answer', () => {
  const load = jest.fn(whole);
  const spec = cachedSpec({ loadAwsServiceSpecSync: load }, models);
  expect(spec.lookup('resource', 'cloudFormationType', 'equals', 'AWS::RDS::DBCluster')).toEqual([models['AWS::RDS::DBCluster']]);
  expect(spec.lookup('resource', 'cloudFormationType', 'equals', 'Custom::TemporalSchema')).toEqual([]);
  expect(load).not.toHaveBeenCalled();
  const [fleet] = spec.lookup('resource', 'cloudFormationType', 'equals', 'AWS::GameLift::Fleet') as { cloudFormationType: string }[];
  expect(fleet.cloudFormationType).toBe('AWS::GameLift::Fleet');
  spec.lookup('resource', 'cloudFormationType', 'equals', 'AWS::GameLift::Alias');
  expect(load).toHaveBeenCalledTimes(1);
});

test("plan's diff reads the models: a property whose update replaces the resource replaces it, for a type they hold and one they lack", () => {
  const replacing = (model: any) => Object.keys(model.properties).find((p) => model.properties[p].causesReplacement === 'yes')!;
  const spec = cachedSpec({ loadAwsServiceSpecSync: whole }, models);
  const changed = (type: string) => {
    const property = replacing(spec.lookup('resource', 'cloudFormationType', 'equals', type)[0]);
    const template = (value: string) => ({ Resources: { R: { Type: type, Properties: { [property]: value } } } });
    return fullDiff(template('a'), template('b')).resources.get('R').changeImpact;
  };
  expect(changed('AWS::RDS::DBCluster')).toBe(ResourceImpact.WILL_REPLACE);
  expect(changed('AWS::GameLift::Fleet')).toBe(ResourceImpact.WILL_REPLACE);
});
