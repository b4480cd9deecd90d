import { resourceModels, SERVICE_SPEC } from './synth-cache';

/*
 * A setup file of the unit suite (jest.config.js): the CloudFormation service specification that
 * plan's diff (@aws-cdk/cloudformation-diff) loads whole in every test file that diffs, about a
 * second each time, answered instead from the resource models the synth cache wrote for the
 * types its templates hold (the same objects, read from the same specification). Any other
 * question, or a type they lack, loads the whole specification, as before.
 * test/support/cached-service-spec.test.ts proves the models are the specification's.
 */

type Spec = { loadAwsServiceSpecSync(): { lookup(...args: unknown[]): unknown[] } };

/** The specification, its resource lookups by type answered from `models` until a question they cannot answer. */
export function cachedSpec(actual: Spec, models: Readonly<Record<string, unknown>>): ReturnType<Spec['loadAwsServiceSpecSync']> {
  let whole: ReturnType<Spec['loadAwsServiceSpecSync']> | undefined;
  const full = () => (whole ??= actual.loadAwsServiceSpecSync());
  const lookup = (...args: unknown[]) => {
    const [entity, index, op, value] = args;
    if (entity === 'resource' && index === 'cloudFormationType' && op === 'equals' && typeof value === 'string' && Object.hasOwn(models, value))
      return models[value] === null ? [] : [models[value]];
    return full().lookup(...args);
  };
  return new Proxy({} as ReturnType<Spec['loadAwsServiceSpecSync']>, {
    get: (_, prop) => {
      if (prop === 'lookup') return lookup;
      const v = Reflect.get(full(), prop);
      return typeof v === 'function' ? v.bind(full()) : v;
    },
  });
}

// Read when a file first loads the specification, not in every file.
jest.doMock(SERVICE_SPEC, () => {
  const actual = jest.requireActual<Spec>(SERVICE_SPEC);
  const models = resourceModels();
  return models ? { ...actual, loadAwsServiceSpecSync: () => cachedSpec(actual, models) } : actual;
});
