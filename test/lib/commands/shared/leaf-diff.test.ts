import { type LeafChange, leafChanges, leafDiff } from '../../../../lib/commands/shared/leaf-diff';
import { switchLeaves } from '../../../support/switch-snapshot';
import { ALL_SCENARIO_NAMES, synthScenario } from '../../../support/synth';

/** A copy of `base` with the changes applied. */
function applyChanges(base: unknown, changes: readonly LeafChange[]): unknown {
  const out = structuredClone(base) as Record<string | number, any>;
  for (const { path, to } of changes) {
    const parent = path.slice(0, -1).reduce((at, k) => at[k], out);
    if (to === undefined) delete parent[path[path.length - 1]];
    else parent[path[path.length - 1]] = structuredClone(to);
  }
  return out;
}

test('every leaf that differs, with its path; arrays item by item where their lengths agree', () => {
  const a = { R: { X: { P: { Min: 0.5, Max: 32, List: ['a', 'b'], Env: [{ Name: 'A', Value: '1' }] } }, Gone: { T: 1 } } };
  const b = { R: { X: { P: { Min: 0.5, Max: 64, List: ['a', 'b', 'c'], Env: [{ Name: 'A', Value: '2' }] } }, New: { T: 2 } } };
  expect(leafDiff(a, b, { arrays: 'items' })).toEqual([
    'R.X.P.Max: 32 -> 64',
    'R.X.P.List: ["a","b"] -> ["a","b","c"]',
    'R.X.P.Env.0.Value: "1" -> "2"',
    'R.Gone: {"T":1} -> (none)',
    'R.New: (none) -> {"T":2}',
  ]);
  expect(leafDiff(a, b)).toContain('R.X.P.Env: [{"Name":"A","Value":"1"}] -> [{"Name":"A","Value":"2"}]');
  expect(leafDiff(a, structuredClone(a))).toEqual([]);
});

describe("a scenario's snapshot is the switch from its predecessor, and holds every change", () => {
  const diffed = ALL_SCENARIO_NAMES.flatMap((name) => {
    const snapshot = switchLeaves(name, synthScenario({ scenario: name }).json);
    return snapshot ? [{ name, snapshot }] : [];
  });

  test('one whole template per family, every other scenario diffed', () => {
    expect(ALL_SCENARIO_NAMES.length - diffed.length).toBe(2);
  });

  test.each(diffed.map((d) => [d.name, d.snapshot] as const))('%s: the predecessor with the snapshot applied is the template', (name, snapshot) => {
    const [before, after] = [synthScenario({ scenario: snapshot.from }).json, synthScenario({ scenario: name }).json];
    const changes = leafChanges(before, after, { arrays: 'items' });
    // The snapshot's lines are these changes, one each; applied, they give the template (compared leaf by leaf: JSON key order means nothing to CloudFormation).
    expect(snapshot.leaves).toEqual(leafDiff(before, after, { arrays: 'items' }));
    expect(changes.length).toBe(snapshot.leaves.length);
    expect(changes.length).toBeGreaterThan(0);
    expect(leafDiff(applyChanges(before, changes), after, { arrays: 'items' })).toEqual([]);
  });

  test("a change planted in one scenario's template shows in its snapshot and no other's", () => {
    const planted = structuredClone(synthScenario({ scenario: 'test12' }).json);
    const id = Object.keys(planted.Resources).find((k) => planted.Resources[k].Type === 'AWS::RDS::DBCluster')!;
    planted.Resources[id].Properties.DeletionProtection = false;
    const line = `Resources.${id}.Properties.DeletionProtection: true -> false`;
    expect(switchLeaves('test12', planted)!.leaves).toContain(line);
    expect(switchLeaves('test13', synthScenario({ scenario: 'test13' }).json)!.leaves).not.toContain(line);
  });
});
