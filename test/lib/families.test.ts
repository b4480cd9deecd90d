import { ConfigError, resolveScenario } from '../../config';
import { familyNames, familyOf, stacksOf } from '../../lib/families';

/*
 * The registry: a family is one entry, found by the `family` its scenarios carry. A third family
 * added as docs/families.md writes it (its folder, its config, its stack and one line in each
 * registry) is synthesized, costed, planned and reported in test/integration/docs/new-family.test.ts.
 */

test('every scenario resolves to a registered family; a family not registered is refused, naming those that are', () => {
  expect(familyNames()).toEqual(['folio', 'temporal']);
  expect(familyOf(resolveScenario({ scenario: 'test12' })).name).toBe('folio');
  expect(familyOf(resolveScenario({ scenario: 'temporal-150wps' })).name).toBe('temporal');
  expect(() => familyOf({ family: 'bogus' })).toThrow(new ConfigError('no family "bogus" (valid: folio, temporal)'));
  expect(() => stacksOf({ family: 'bogus' } as never)).toThrow(new ConfigError('no family "bogus" (valid: folio, temporal)'));
});

test("a command's family carries its identity and every command's part; the app's, its stacks and none of the commands'", () => {
  const scenario = resolveScenario({ scenario: 'temporal-150wps' });
  const family = familyOf(scenario);
  expect(family).toMatchObject({ name: 'temporal', kind: 'Temporal preset', noun: 'preset' });
  expect(typeof family.cost).toBe('function');
  expect(typeof family.environment).toBe('function');
  expect(familyOf(scenario)).toBe(family);
  const app = stacksOf(scenario);
  expect(typeof app.addDataStack).toBe('function');
  expect(app).not.toHaveProperty('cost');
});
