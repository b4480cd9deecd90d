import { ResourceImpact } from '@aws-cdk/cloudformation-diff';
import { ConfigError, type TemporalScenario, resolveScenario } from '../../../../config';
import { planTransition } from '../../../../lib/commands/plan/transition-plan';
import { resourceChanges } from '../../../../lib/commands/plan/resource-changes';
import {
  editedCatalog,
  FOLIO_PHASE_NAMES,
  synthObservability,
  synthPhase,
  synthScenario,
  TEMPORAL_SCENARIO_NAMES,
  withHibernated,
} from '../../../support/synth';

const templates = new Map(FOLIO_PHASE_NAMES.map((n) => [n, synthPhase(n).json]));
/*
 * Each unordered pair is diffed one way: a switch and its reverse break the same rule or none
 * (what one creates the other destroys, a property that forces a replacement forces it both
 * ways, and an update is an update back), so the other direction adds time and no finding. The
 * symmetry itself is checked below on pairs that do differ.
 */
const PAIRS = FOLIO_PHASE_NAMES.flatMap((from, i) => FOLIO_PHASE_NAMES.slice(i + 1).map((to) => [from, to]));

test('every unordered pair of phases is diffed once, one way', () => {
  const key = ([a, b]: string[]) => [a, b].sort().join(' ');
  const every = FOLIO_PHASE_NAMES.flatMap((a) => FOLIO_PHASE_NAMES.filter((b) => b !== a).map((b) => key([a, b])));
  expect(new Set(PAIRS.map(key))).toEqual(new Set(every));
  expect(PAIRS).toHaveLength(new Set(every).size);
});

test('a switch and its reverse are judged alike: the same resources change, and each is an in-place update both ways or neither', () => {
  const impacts = (a: Record<string, any>, b: Record<string, any>) =>
    new Map(resourceChanges(a, b).map((c) => [c.logicalId, c.impact === ResourceImpact.WILL_UPDATE && !c.unsafe]));
  const broken = structuredClone(templates.get('test4')!);
  const secret = Object.keys(broken.Resources).find((id) => broken.Resources[id].Type === 'AWS::SecretsManager::Secret')!;
  delete broken.Resources[secret];
  for (const [a, b] of [
    [templates.get('test1')!, templates.get('test2')!],
    [templates.get('test11')!, templates.get('test12')!],
    [templates.get('test4')!, broken],
  ]) {
    const there = impacts(a, b);
    const back = impacts(b, a);
    expect([...back.keys()].sort()).toEqual([...there.keys()].sort());
    for (const [id, inPlace] of there) expect([id, back.get(id)]).toEqual([id, inPlace]);
  }
});

test('every phase switch updates in place: nothing created, replaced or destroyed', () => {
  const problems: string[] = [];
  for (const [from, to] of PAIRS) {
    for (const c of resourceChanges(templates.get(from)!, templates.get(to)!)) {
      if (c.unsafe || c.impact !== ResourceImpact.WILL_UPDATE) {
        problems.push(`${from} -> ${to}: ${c.logicalId} (${c.type}) ${c.impact}`);
      }
    }
  }
  expect(problems).toEqual([]);
});

describe('Temporal preset switches', () => {
  const temporal = new Map(TEMPORAL_SCENARIO_NAMES.map((n) => [n, synthPhase(n).json]));
  const storeOf = (name: string) => (resolveScenario({ scenario: name }) as TemporalScenario).preset.store.engine;
  // An environment keeps its store for life: switches are between presets of one store (see 'store switches').
  // One way per pair, as for the phases above.
  const pairs = TEMPORAL_SCENARIO_NAMES.flatMap((from, i) =>
    TEMPORAL_SCENARIO_NAMES.slice(i + 1)
      .filter((to) => storeOf(to) === storeOf(from))
      .map((to) => [from, to]),
  );
  let diffs: Array<[string, string, ReturnType<typeof resourceChanges>]> | undefined;
  /** Each pair's changes, computed once for both tests. */
  const changesOfPairs = () => (diffs ??= pairs.map(([from, to]) => [from, to, resourceChanges(temporal.get(from)!, temporal.get(to)!)]));

  test('every switch updates in place; only task definitions get new revisions', () => {
    // Every unordered pair of presets of one store, once.
    const sameStore = TEMPORAL_SCENARIO_NAMES.flatMap((a) => TEMPORAL_SCENARIO_NAMES.filter((b) => b > a && storeOf(b) === storeOf(a)));
    expect(pairs).toHaveLength(sameStore.length);
    // 150 -> 400 -> 800 (and so back) are among them.
    for (const pair of [
      ['temporal-150wps', 'temporal-400wps'],
      ['temporal-400wps', 'temporal-800wps'],
    ])
      expect(pairs).toContainEqual(pair);
    const problems: string[] = [];
    for (const [from, to, changes] of changesOfPairs()) {
      for (const c of changes) {
        // A task definition is immutable: a new size or setting is a new revision, by design.
        const newRevision = c.type === 'AWS::ECS::TaskDefinition' && c.impact === ResourceImpact.WILL_REPLACE;
        if (c.unsafe || !(c.impact === ResourceImpact.WILL_UPDATE || newRevision)) problems.push(`${from} -> ${to}: ${c.logicalId} (${c.type}) ${c.impact}`);
      }
    }
    expect(problems).toEqual([]);
  });

  test('no stateful resource changes at all between presets', () => {
    const touched = new Set<string>();
    for (const [, , changes] of changesOfPairs()) for (const c of changes) if (c.stateful) touched.add(c.type);
    expect([...touched]).toEqual([]);
  });

  test('a switch between stores would orphan the history, so plan refuses every one of them in one line', () => {
    const cross = TEMPORAL_SCENARIO_NAMES.flatMap((from) => TEMPORAL_SCENARIO_NAMES.filter((to) => storeOf(to) !== storeOf(from)).map((to) => [from, to]));
    // Both ways, for every preset of the other store.
    expect(cross).toContainEqual(['temporal-150wps', 'temporal-aurora-150wps']);
    for (const [from, to] of cross) expect(cross).toContainEqual([to, from]);
    // What CloudFormation would do: the DSQL cluster (retained) leaves the stack with every workflow's history.
    const orphaned = resourceChanges(temporal.get('temporal-150wps')!, temporal.get('temporal-aurora-150wps')!).filter((c) => c.unsafe);
    expect(orphaned.map((c) => c.type)).toContain('AWS::DSQL::Cluster');
    for (const [from, to] of cross) {
      const refused = () => planTransition(from, to);
      expect(refused).toThrow(ConfigError);
      expect(refused).toThrow(new RegExp(`^"${from}" keeps Temporal's history in ${storeOf(from)} and "${to}" in ${storeOf(to)}: .*-c envName=<name>$`));
    }
  });
});

describe('environment states: running, fleet parked, hibernated (npm run hibernate), and back', () => {
  // Running and parked are deploys (-c fleet=); hibernated is the Hibernated parameter, as CloudFormation resolves it.
  const running = synthScenario({ scenario: 'temporal-150wps', fleet: 'running' }).json;
  const parked = synthScenario({ scenario: 'temporal-150wps', fleet: 'parked' }).json;
  const states: Record<string, Record<string, any>> = {
    running: withHibernated(running, false),
    parked: withHibernated(parked, false),
    hibernated: withHibernated(running, true),
    'parked, hibernated': withHibernated(parked, true),
  };
  const pairs = Object.keys(states).flatMap((from) =>
    Object.keys(states)
      .filter((to) => to !== from)
      .map((to) => [from, to]),
  );

  test('every pair of states, both ways, updates counts in place: nothing created, replaced or destroyed, nothing stateful touched', () => {
    expect(pairs).toHaveLength(12);
    for (const pair of [
      ['running', 'parked'],
      ['parked', 'hibernated'],
      ['hibernated', 'running'],
    ])
      expect(pairs).toContainEqual(pair);
    const problems: string[] = [];
    for (const [from, to] of pairs)
      for (const c of resourceChanges(states[from], states[to]))
        if (c.unsafe || c.stateful || c.impact !== ResourceImpact.WILL_UPDATE) problems.push(`${from} -> ${to}: ${c.logicalId} (${c.type}) ${c.impact}`);
    expect(problems).toEqual([]);
  });

  test('running -> hibernated changes exactly the counts: seven services (the four roles, the UI, Grafana, the workers) to 0 tasks and the main pool to a minimum of 0', () => {
    const changed = resourceChanges(states.running, states.hibernated).map((c) => [
      c.type,
      c.properties.map((p) => `${p.name}: ${JSON.stringify(p.from)} -> ${JSON.stringify(p.to)}`),
    ]);
    expect(changed).toEqual(
      expect.arrayContaining([
        ['AWS::AutoScaling::AutoScalingGroup', ['MinSize: "10" -> "0"']],
        ['AWS::ECS::Service', ['DesiredCount: 8 -> 0']],
        ['AWS::ECS::Service', ['DesiredCount: 6 -> 0']],
        ['AWS::ECS::Service', ['DesiredCount: 1 -> 0']],
      ]),
    );
    expect(changed).toHaveLength(8);
  });

  test('the check can fail: a hibernation that dropped the history service would be a destruction', () => {
    const broken = structuredClone(states.hibernated);
    const history = Object.keys(broken.Resources).find((id) => broken.Resources[id].Properties?.ServiceName === 'temporal-history')!;
    delete broken.Resources[history];
    expect(resourceChanges(states.running, broken).map((c) => c.impact)).toContain(ResourceImpact.WILL_DESTROY);
  });
});

// Phase switches that must change exactly one property of one resource, in place.
test.each([
  ['test11', 'test12', 'AWS::RDS::DBCluster', /^AuroraServerless/, 'ServerlessV2ScalingConfiguration'],
  ['test1', 'test2', 'AWS::RDS::DBInstance', /^AuroraProvisionedWriter/, 'DBInstanceClass'],
])('%s -> %s changes only %s %s %s', (from, to, type, logicalId, property) => {
  expect(resourceChanges(templates.get(from)!, templates.get(to)!)).toEqual([
    expect.objectContaining({
      type,
      logicalId: expect.stringMatching(logicalId),
      impact: ResourceImpact.WILL_UPDATE,
      properties: [expect.objectContaining({ name: property, impact: ResourceImpact.WILL_UPDATE })],
    }),
  ]);
});

test("test4 -> test5 repoints the moved module's two routes and rewrites the manifest, nothing else (its secret names the route, which stays)", () => {
  const changes = resourceChanges(templates.get('test4')!, templates.get('test5')!);
  expect(changes.map((c) => [c.type, c.logicalId.replace(/[0-9A-F]{8}$/, ''), c.properties.map((p) => p.name), c.impact])).toEqual([
    ['AWS::Route53::RecordSet', 'Routingmodinventorystorageroute', ['ResourceRecords'], ResourceImpact.WILL_UPDATE],
    ['AWS::Route53::RecordSet', 'Routingmodinventorystoragereaderroute', ['ResourceRecords'], ResourceImpact.WILL_UPDATE],
    ['AWS::SSM::Parameter', 'RoutingManifest', ['Value'], ResourceImpact.WILL_UPDATE],
  ]);
});

describe('the check itself can fail', () => {
  test('renaming a cluster is a replacement of stateful resources', () => {
    const renamed = synthScenario(
      { scenario: 'test12' },
      editedCatalog((c) => (c.folio.environment.names.offloadCluster = 'folio-hybrid-serverless-2')),
    ).json;
    const unsafe = resourceChanges(templates.get('test12')!, renamed).filter((c) => c.unsafe);
    expect(unsafe.map((c) => [c.type, c.impact])).toEqual(expect.arrayContaining([['AWS::RDS::DBCluster', ResourceImpact.WILL_REPLACE]]));
  });

  test('a removed module secret is a destruction', () => {
    const before = templates.get('test12')!;
    const after = structuredClone(before);
    const secret = Object.keys(after.Resources).find((id) => id.startsWith('Routingmodtags') && after.Resources[id].Type === 'AWS::SecretsManager::Secret')!;
    delete after.Resources[secret];
    expect(resourceChanges(before, after)).toEqual([
      expect.objectContaining({ logicalId: secret, impact: ResourceImpact.WILL_DESTROY, stateful: true, unsafe: true }),
    ]);
  });
});

describe('observability stack switches', () => {
  test.each([
    ['FOLIO', FOLIO_PHASE_NAMES],
    // One store's presets: a store switch is refused (above).
    ['Temporal', TEMPORAL_SCENARIO_NAMES.filter((n) => (resolveScenario({ scenario: n }) as TemporalScenario).preset.store.engine === 'dsql')],
  ])('%s: every switch rewrites dashboards and alarms in place, never replacing one', (_family, names) => {
    const obs = new Map(names.map((n) => [n, synthObservability({ scenario: n }).json]));
    // The Serverless ceiling alarm exists only while the offload cluster is Serverless v2: it comes and goes with the kind.
    const kinds = new Map(
      names.map((n) => {
        const s = resolveScenario({ scenario: n });
        return [n, s.family === 'folio' && s.phase.offload.serverless !== undefined];
      }),
    );
    const serverless = (n: string) => kinds.get(n)!;
    const problems: string[] = [];
    let updates = 0;
    let kindAlarms = 0;
    for (const from of names)
      for (const to of names.filter((n) => n !== from))
        for (const c of resourceChanges(obs.get(from)!, obs.get(to)!)) {
          const kindChange = serverless(from) !== serverless(to) && c.logicalId.startsWith('AlarmsServerlessAtCeiling');
          const expected = serverless(from) ? ResourceImpact.WILL_DESTROY : ResourceImpact.WILL_CREATE;
          if (kindChange && c.impact === expected) kindAlarms++;
          else if (c.impact !== ResourceImpact.WILL_UPDATE) problems.push(`${from} -> ${to}: ${c.logicalId} (${c.type}) ${c.impact}`);
          else updates++;
        }
    expect(problems).toEqual([]);
    const serverlessPhases = names.filter(serverless).length;
    expect(kindAlarms).toBe(2 * serverlessPhases * (names.length - serverlessPhases));
    // The switches do change something (the dashboard's header at least): the diff is real.
    expect(updates).toBeGreaterThan(0);
  });
});
