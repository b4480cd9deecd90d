import { ResourceImpact } from '@aws-cdk/cloudformation-diff';
import { resolveScenario } from '../../../../config';
import { scenarioTemplates } from '../../../../lib/assembly/scenario-app';
import { comparePlans, planTransition, renderPlan } from '../../../../lib/commands/plan/transition-plan';
import { resourceChanges } from '../../../../lib/commands/plan/resource-changes';
import { editedCatalog } from '../../../support/synth';

/* The plan command's logic on real synthesized scenario pairs (no account, no change set). */

/** A plan (or a scenario's templates) of the stock catalog synthesized once for this file: each takes a second or two. */
const memo = <T>(make: (key: string) => T) => {
  const made = new Map<string, T>();
  return (key: string) => made.get(key) ?? made.set(key, make(key)).get(key)!;
};
const planOf = memo((pair) => planTransition(pair.split(' ')[0], pair.split(' ')[1]));
const templatesOf = memo((name) => scenarioTemplates(resolveScenario({ scenario: name }), { scenario: name }));

describe('test11 -> test12 (the Serverless floor rises from 0.5 to 5 ACU)', () => {
  const plan = planOf('test11 test12');

  test('the data stack changes one property of one resource, in place', () => {
    const data = plan.stacks.find((s) => s.stackName === 'FolioHybridAurora')!;
    expect(data.changes).toEqual([
      expect.objectContaining({
        type: 'AWS::RDS::DBCluster',
        logicalId: expect.stringMatching(/^AuroraServerless/),
        impact: ResourceImpact.WILL_UPDATE,
        properties: [
          {
            name: 'ServerlessV2ScalingConfiguration',
            impact: ResourceImpact.WILL_UPDATE,
            from: { MinCapacity: 0.5, MaxCapacity: 64 },
            to: { MinCapacity: 5, MaxCapacity: 64 },
          },
        ],
      }),
    ]);
    expect(plan.unsafe).toEqual([]);
  });

  test('covers both stacks and prints the change with its values and impact', () => {
    expect(plan.stacks.map((s) => s.stackName)).toEqual(['FolioHybridAurora', 'FolioHybridAuroraObservability']);
    const md = renderPlan(plan);
    expect(md).toContain('# Plan: test11 -> test12');
    expect(md).toMatch(
      /\| update in place \| `AuroraServerless\w+` \| AWS::RDS::DBCluster \| ServerlessV2ScalingConfiguration: \{"MaxCapacity":64,"MinCapacity":0.5\} -> \{"MaxCapacity":64,"MinCapacity":5\} \(update in place\) \|/,
    );
    expect(md).toMatch(/Safe: no stateful resource is replaced, destroyed or orphaned\.\n$/);
  });
});

describe('test1 -> test2 (the writer goes from r7g.4xlarge to r7g.2xlarge)', () => {
  const plan = planOf('test1 test2');
  const writer = plan.stacks[0].changes.find((c) => c.type === 'AWS::RDS::DBInstance')!;

  test('the writer class change is in place but names its interruption, in the plan and in --json', () => {
    expect(writer).toMatchObject({ impact: ResourceImpact.WILL_UPDATE, unsafe: false, path: expect.stringContaining('/Aurora/Provisioned/Writer/') });
    expect(writer.properties).toEqual([
      expect.objectContaining({
        name: 'DBInstanceClass',
        from: 'db.r7g.4xlarge',
        to: 'db.r7g.2xlarge',
        interruption: expect.stringMatching(/^the instance restarts on the new class: a few minutes without it \(for a writer, no writes to its cluster/),
      }),
    ]);
    expect(writer.interruptions).toEqual([expect.stringMatching(/^DBInstanceClass: the instance restarts/)]);
    const md = renderPlan(plan);
    expect(md).toContain('DBInstanceClass: "db.r7g.4xlarge" -> "db.r7g.2xlarge" (update in place, WITH INTERRUPTION)');
    expect(md).toMatch(
      /\nINTERRUPTION: AuroraProvisionedWriter\w+ \(Aurora\/Provisioned\/Writer\): DBInstanceClass: the instance restarts on the new class: a few minutes without it .*Plan the switch between test runs\.\n/,
    );
    expect(JSON.parse(JSON.stringify(plan.stacks[0].changes))).toContainEqual(expect.objectContaining({ interruptions: writer.interruptions }));
  });

  test('an ACU change is in place without interruption', () => {
    const serverless = planOf('test11 test12').stacks[0].changes[0];
    expect(serverless.interruptions).toEqual([]);
  });
});

test('every modified property shows its values, or says why it cannot', () => {
  const plan = planOf('temporal-100wps temporal-150wps');
  const md = renderPlan(plan);
  const cells = md
    .split('\n')
    .filter((l) => l.startsWith('| update in place') || l.startsWith('| new revision'))
    .flatMap((l) => l.split(' | ')[3].split('<br>'));
  expect(cells.length).toBeGreaterThan(0);
  for (const cell of cells)
    expect(cell).toMatch(
      /^\w+: (.+ -> .+|changed \(\d+ characters of values; `npx cdk diff` shows them\)|a secret reference, resolved at deploy time \(its value is not in the template\)) \(/,
    );
});

test('temporal-100wps -> temporal-150wps: new task-definition revisions are shown as such, and are not unsafe', () => {
  const plan = planOf('temporal-100wps temporal-150wps');
  const data = plan.stacks.find((s) => s.stackName === 'TemporalDsql')!;
  const replaced = data.changes.filter((c) => c.impact === ResourceImpact.WILL_REPLACE);
  expect(replaced.length).toBeGreaterThan(0);
  expect(replaced.every((c) => c.type === 'AWS::ECS::TaskDefinition')).toBe(true);
  expect(plan.unsafe).toEqual([]);
  expect(renderPlan(plan)).toMatch(/\| new revision \| `HistoryTask\w+` \| AWS::ECS::TaskDefinition \| Cpu: "2048" -> "4096" \(REPLACE\) \|/);
});

test('a stateful replacement is reported as unsafe, by resource', () => {
  // The same synthesized stacks, with the Serverless cluster renamed: a replacement-only property.
  const before = templatesOf('test11');
  const after = new Map([...before].map(([name, t]) => [name, structuredClone(t)]));
  const data = after.get('FolioHybridAurora')!;
  const id = Object.keys(data.Resources).find((k) => k.startsWith('AuroraServerless') && data.Resources[k].Type === 'AWS::RDS::DBCluster')!;
  data.Resources[id].Properties.DBClusterIdentifier = 'folio-hybrid-serverless-2';
  const s = resolveScenario({ scenario: 'test11' });
  const plan = comparePlans(s, s, before, after);
  // The cluster is replaced, and so is its writer instance, which names the cluster.
  expect(plan.unsafe.map((c) => [c.type, c.impact])).toEqual([
    ['AWS::RDS::DBCluster', ResourceImpact.WILL_REPLACE],
    ['AWS::RDS::DBInstance', ResourceImpact.WILL_REPLACE],
  ]);
  expect(plan.unsafe[0].logicalId).toBe(id);
  expect(renderPlan(plan)).toMatch(
    new RegExp(
      `UNSAFE: 2 stateful resources would be replaced or destroyed: ${id} \\(AWS::RDS::DBCluster, REPLACE\\); \\w+ \\(AWS::RDS::DBInstance, REPLACE\\)\\. Do not deploy this switch as is\\.`,
    ),
  );
});

test.each([
  ['test11', 'temporal-150wps', '"test11" is a FOLIO phase and "temporal-150wps" a Temporal preset: a plan compares two scenarios of one family'],
  ['test11', 'test11', '--from and --to are both "test11": name two different scenarios'],
  ['test11', 'tset12', /^unknown scenario "tset12" \(did you mean "test12"\?\); valid: /],
])('%s -> %s is refused before anything is synthesized', (from, to, message) => {
  expect(() => planTransition(from, to)).toThrow(message);
});

describe('test13 -> part3 (the offload cluster goes from Serverless v2 to a provisioned r8g.2xlarge)', () => {
  const plan = planOf('test13 part3');
  const md = renderPlan(plan);

  test('one cluster, in place: its writer changes class with an interruption, nothing is created or replaced', () => {
    const data = plan.stacks.find((s) => s.stackName === 'FolioHybridAurora')!;
    const writer = data.changes.find((c) => c.type === 'AWS::RDS::DBInstance')!;
    expect(writer).toMatchObject({ logicalId: expect.stringMatching(/^AuroraServerlessWriter/), impact: ResourceImpact.WILL_UPDATE });
    expect(writer.properties).toEqual([expect.objectContaining({ name: 'DBInstanceClass', from: 'db.serverless', to: 'db.r8g.2xlarge' })]);
    expect(writer.interruptions).toHaveLength(1);
    expect(data.changes.every((c) => c.impact === ResourceImpact.WILL_UPDATE)).toBe(true);
    expect(plan.unsafe).toEqual([]);
  });

  test('says what the kind change does, what the unused range means, and what a day costs on each side', () => {
    expect(md).toContain('## Offload cluster: Serverless v2 5-64 ACU -> provisioned db.r8g.2xlarge');
    expect(md).toContain('ServerlessV2ScalingConfiguration: no Serverless v2 instance is left in the cluster');
    expect(md).toMatch(/Daily cost \(on-demand, `npm run cost`\): test13 \$\d+\.\d\d -> part3 \$\d+\.\d\d \(\+\$\d+\.\d\d a day\)\./);
  });

  test('and back: the range returns, and the ceiling alarm with it', () => {
    const back = planOf('part3 test13');
    expect(back.unsafe).toEqual([]);
    const obs = back.stacks.find((s) => s.stackName === 'FolioHybridAuroraObservability')!;
    expect(obs.changes.filter((c) => c.impact === ResourceImpact.WILL_CREATE).map((c) => c.logicalId)).toEqual([
      expect.stringMatching(/^AlarmsServerlessAtCeiling/),
    ]);
  });
});

describe('readers on a provisioned offload cluster come and go without touching data', () => {
  // A new object: the Part 3 phases share theirs.
  const withReader = editedCatalog(
    (c) => (c.folio.phases.find((p: any) => p.name === 'part3-3x').offload = { provisioned: { instanceClass: 'db.r8g.2xlarge', readers: 1 } }),
  );

  test('adding one is a new instance, removing it a removal: neither is unsafe, each says why', () => {
    for (const [from, to, impact] of [
      ['part3', 'part3-3x', ResourceImpact.WILL_CREATE],
      ['part3-3x', 'part3', ResourceImpact.WILL_DESTROY],
    ] as const) {
      const plan = planTransition(from, to, { catalog: withReader });
      const reader = plan.stacks[0].changes.find((c) => c.logicalId.startsWith('AuroraServerlessReader1'))!;
      expect(reader).toMatchObject({ impact, stateful: false, unsafe: false });
      expect(reader.notes[0]).toMatch(/the data (the cluster already holds|stays in the cluster volume)/);
      expect(plan.unsafe).toEqual([]);
    }
  });

  test('the routed modules get the reader endpoint while there is one', () => {
    const json = scenarioTemplates(resolveScenario({ scenario: 'part3-3x' }, withReader), { scenario: 'part3-3x' }).get('FolioHybridAurora')!;
    const lists = Object.entries(json.Resources as Record<string, any>).find(
      ([id, r]) => id.startsWith('Routingmodlists') && r.Type === 'AWS::SecretsManager::Secret',
    )![1];
    expect(JSON.stringify(lists.Properties.SecretString)).toContain('DB_HOST_READER');
  });
});

test('a destroyed Aurora cluster is still unsafe (only its instances are capacity)', () => {
  const json = templatesOf('part3').get('FolioHybridAurora')!;
  const after = structuredClone(json);
  const cluster = Object.keys(after.Resources).find((id) => id.startsWith('AuroraServerless') && after.Resources[id].Type === 'AWS::RDS::DBCluster')!;
  delete after.Resources[cluster];
  expect(resourceChanges(json, after).find((c) => c.logicalId === cluster)).toMatchObject({ impact: ResourceImpact.WILL_DESTROY, unsafe: true });
});

test('turning on logical replication is in place, and the plan says it waits for a reboot', () => {
  const json = templatesOf('part3').get('FolioHybridAurora')!;
  const group = Object.keys(json.Resources).find((id) => json.Resources[id].Type === 'AWS::RDS::DBClusterParameterGroup')!;
  expect(json.Resources[group].Properties.Parameters).toEqual({ 'rds.force_ssl': '1', 'rds.logical_replication': '1' });
  const before = structuredClone(json);
  delete before.Resources[group].Properties.Parameters['rds.logical_replication'];
  const change = resourceChanges(before, json).find((c) => c.logicalId === group)!;
  expect(change).toMatchObject({ impact: ResourceImpact.WILL_UPDATE, unsafe: false });
  expect(change.notes).toEqual([
    expect.stringMatching(/^Parameters: rds\.logical_replication is static: the clusters take the new value only when their writer reboots/),
  ]);
});

test('a writer instance that leaves its cluster is still unsafe (only readers are capacity)', () => {
  const json = templatesOf('part3').get('FolioHybridAurora')!;
  const after = structuredClone(json);
  const writer = Object.keys(after.Resources).find((id) => id.startsWith('AuroraServerlessWriter'))!;
  delete after.Resources[writer];
  expect(resourceChanges(json, after).find((c) => c.logicalId === writer)).toMatchObject({
    impact: ResourceImpact.WILL_DESTROY,
    stateful: true,
    unsafe: true,
    notes: [],
  });
});
