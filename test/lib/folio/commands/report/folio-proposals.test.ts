import { CATALOG, resolveScenario, type FolioScenario } from '../../../../../config';
import type { FolioPhaseInput } from '../../../../../config/folio-schema';
import type { Points } from '../../../../../lib/commands/report/fetch';
import { type FolioReport, summarizeFolio } from '../../../../../lib/folio/commands/report/folio-summary';
import { proposeNext } from '../../../../../lib/folio/commands/report/folio-proposals';
import { waitEventsFrom, type WaitReading } from '../../../../../lib/folio/commands/report/wait-events';
import { catalogFor } from '../../../../../lib/families';
import { editedCatalog } from '../../../../support/synth';

/*
 * "What to try next" through the report's own arithmetic: minute-by-minute windows shaped like
 * what PTF saw in each phase of seed 002, summarized as the report summarizes CloudWatch's
 * answers, and the proposal it makes. In order, they propose what PTF decided.
 */

const START = Date.parse('2026-01-21T10:00:00Z');

interface Shape {
  readonly minutes?: number;
  /** Each writer's CPU, % (the peak: one minute at it, the rest at 60% of it). */
  readonly primaryCpu: number;
  readonly offloadCpu: number;
  /** Serverless v2: the peak ACU, and how many minutes at it (the rest climbs from the floor). */
  readonly acuPeak?: number;
  readonly minutesAtPeak?: number;
  /** Minutes without any point for these series. */
  readonly missing?: readonly string[];
  readonly waits?: WaitReading;
}

/** The window a phase's report would see, summarized; its proposal is the one the report prints. */
function reportOf(name: string, s: Shape, catalogInput = editedCatalog(() => undefined)): FolioReport {
  const scenario = resolveScenario({ scenario: name }, catalogInput) as FolioScenario;
  const catalog = catalogFor(scenario);
  const minutes = s.minutes ?? 60;
  const t = Array.from({ length: minutes }, (_, i) => START + i * 60_000);
  const range = scenario.phase.offload.serverless;
  const series = (v: (i: number) => number): Points => ({ t, v: t.map((_, i) => v(i)) });
  const atPeak = s.minutesAtPeak ?? 1;
  const values: Record<string, Points> = {
    cpuPrimary: series((i) => (i === minutes - 1 ? s.primaryCpu : s.primaryCpu * 0.6)),
    cpuOffload: series((i) => (i === minutes - 1 ? s.offloadCpu : s.offloadCpu * 0.6)),
    connectionsPrimary: series(() => 400),
    connectionsOffload: series(() => 300),
    freeableMemoryPrimary: series(() => 20e9),
    freeableMemoryOffload: series(() => 10e9),
    dbLoadPrimary: series(() => 4),
    dbLoadOffload: series(() => 3),
    ...(range ? { acu: series((i) => (i >= minutes - atPeak ? s.acuPeak! : Math.max(range.min, (s.acuPeak! * i) / (2 * minutes)))) } : {}),
  };
  for (const id of s.missing ?? []) values[id] = { t: [], v: [] };
  const points = new Map(catalog.series.filter((x) => x.kind === 'metric').map((x) => [x.id, values[x.id] ?? { t: [], v: [] }]));
  const window = { start: new Date(START), end: new Date(START + minutes * 60_000), periodSeconds: 60 };
  return summarizeFolio(scenario, catalog, points, window, undefined, s.waits ?? { offload: null, unread: 'not read in this test' });
}

const cpuOnly = { offload: waitEventsFrom([{ Dimensions: { 'db.wait_event.name': 'CPU', 'db.wait_event.type': 'CPU' }, Total: 9 }]), unread: null };
const readsFromStorage = {
  offload: waitEventsFrom([
    { Dimensions: { 'db.wait_event.name': 'IO:DataFileRead', 'db.wait_event.type': 'IO' }, Total: 6 },
    { Dimensions: { 'db.wait_event.name': 'CPU', 'db.wait_event.type': 'CPU' }, Total: 3 },
  ]),
  unread: null,
};

describe("seed 002, phase by phase: each window shaped like PTF's observation proposes what PTF decided", () => {
  test.each<[string, Shape, string, string[]]>([
    // Test 1: "the 4xlarge used only ~35% of its CPU; 100% CPU on the Serverless cluster" -> 2xlarge.
    ['test1', { primaryCpu: 35, offloadCpu: 100, acuPeak: 4 }, 'writer-oversized', ['primaryInstanceClass: "db.r7g.4xlarge" -> "db.r7g.2xlarge"']],
    // Test 2: "peaked at 100% CPU: a maximum of 4 ACUs is insufficient" -> 6 (test3's ceiling).
    ['test2', { primaryCpu: 65, offloadCpu: 100, acuPeak: 4 }, 'ceiling-touched', ['offload.serverless.max: 4 -> 6']],
    // Test 3: "still peaked at 100% CPU ... suggests further capacity scaling".
    ['test3', { primaryCpu: 65, offloadCpu: 100, acuPeak: 6 }, 'ceiling-touched', ['offload.serverless.max: 6 -> 9']],
    // Test 5: 6 ACU "too restrictive" for three modules, HTTP 5xx -> raise the ceiling (PTF: 128).
    ['test5', { primaryCpu: 60, offloadCpu: 100, acuPeak: 6, minutesAtPeak: 40 }, 'ceiling-flat', ['offload.serverless.max: 6 -> 12']],
    // Test 6: "scaled to a maximum of approximately 30 ACUs ... reduce the ceiling to 32" (test7's).
    ['test6', { primaryCpu: 60, offloadCpu: 70, acuPeak: 30 }, 'ceiling-unused', ['offload.serverless.max: 128 -> 32']],
    // Test 9: "the 32 ACU ceiling is over-saturated ... the ACU limit must be raised".
    ['test9', { primaryCpu: 60, offloadCpu: 85, acuPeak: 32, minutesAtPeak: 25 }, 'ceiling-flat', ['offload.serverless.max: 32 -> 64']],
    // Test 10: "flatlining exactly at the maximum 32 ACU ... double it to 0.5-64" (test11's).
    ['test10', { primaryCpu: 60, offloadCpu: 80, acuPeak: 32, minutesAtPeak: 35 }, 'ceiling-flat', ['offload.serverless.max: 32 -> 64']],
    // Test 11: "only scaled to a peak of ~30 ACUs" of 64, tails slow -> minimum 0.5 -> 5 (test12's).
    ['test11', { primaryCpu: 60, offloadCpu: 70, acuPeak: 30 }, 'cold-start', ['offload.serverless.min: 0.5 -> 5']],
  ])('%s', (name, shape, rule, diff) => {
    const { proposal } = reportOf(name, { ...shape, waits: cpuOnly });
    expect({ status: proposal.status, rule: proposal.rule, diff: proposal.next?.diff }).toEqual({ status: 'proposed', rule, diff });
  });

  test('test7: "the 0.5-32 ACU configuration represents the optimal sweet spot": nothing to change', () => {
    const { proposal } = reportOf('test7', { primaryCpu: 60, offloadCpu: 70, acuPeak: 30, waits: cpuOnly });
    expect(proposal.status).toBe('unchanged');
  });

  test("PTF's next report: the load waited on IO:DataFileRead, not CPU: more ACU will not help, and nothing is proposed to deploy", () => {
    const { proposal } = reportOf('test12', { primaryCpu: 60, offloadCpu: 55, acuPeak: 64, minutesAtPeak: 30, waits: readsFromStorage });
    expect(proposal).toMatchObject({
      status: 'proposed',
      rule: 'io-bound',
      evidence: ['offloadIoWaitShare 0.667 (above 0.5)', 'offloadCpuPeakPercent 55 (below 70)'],
    });
    expect(proposal.next).toBeUndefined();
  });
});

describe('each rule holds on a window that should trigger it, and not on one that should not', () => {
  test.each<[string, string, Shape, Shape]>([
    [
      'io-bound',
      'test12',
      { primaryCpu: 60, offloadCpu: 50, acuPeak: 20, waits: readsFromStorage },
      { primaryCpu: 60, offloadCpu: 90, acuPeak: 20, waits: readsFromStorage },
    ],
    ['writer-oversized', 'test1', { primaryCpu: 30, offloadCpu: 50, acuPeak: 2 }, { primaryCpu: 45, offloadCpu: 50, acuPeak: 2 }],
    [
      'ceiling-flat',
      'test10',
      { primaryCpu: 60, offloadCpu: 80, acuPeak: 32, minutesAtPeak: 20 },
      { primaryCpu: 60, offloadCpu: 80, acuPeak: 32, minutesAtPeak: 10 },
    ],
    ['ceiling-touched', 'test2', { primaryCpu: 65, offloadCpu: 99, acuPeak: 4 }, { primaryCpu: 65, offloadCpu: 90, acuPeak: 4 }],
    ['ceiling-unused', 'test6', { primaryCpu: 60, offloadCpu: 60, acuPeak: 40 }, { primaryCpu: 60, offloadCpu: 60, acuPeak: 50 }],
    ['cold-start', 'test11', { primaryCpu: 60, offloadCpu: 60, acuPeak: 30 }, { primaryCpu: 60, offloadCpu: 60, acuPeak: 40 }],
    ['offload-more', 'test7', { primaryCpu: 85, offloadCpu: 50, acuPeak: 15 }, { primaryCpu: 75, offloadCpu: 50, acuPeak: 15 }],
  ])('%s', (rule, name, should, shouldNot) => {
    expect(reportOf(name, { waits: cpuOnly, ...should }).proposal.rule).toBe(rule);
    expect(reportOf(name, { waits: cpuOnly, ...shouldNot }).proposal.rule).not.toBe(rule);
  });

  test("offload-more after test4 routes mod-inventory-storage (test5's move), the reads it splits acknowledged as test5 acknowledges them", () => {
    const { proposal } = reportOf('test4', { primaryCpu: 85, offloadCpu: 50, acuPeak: 2, waits: cpuOnly });
    expect(proposal).toMatchObject({ status: 'proposed', rule: 'offload-more' });
    // The modules that accepted split reads in test4, for its reason, accept the new ones: what config's own chain derives for test5.
    const test5 = CATALOG.folio.phases.find((p) => p.name === 'test5')!;
    const next = proposal.next!.phase as FolioPhaseInput;
    expect({ routed: next.routedToOffload, acks: next.crossSchemaAcks }).toEqual({ routed: test5.routedToOffload, acks: test5.crossSchemaAcks });
  });
});

test('offload-more after test9 routes mod-lists (test10 moved it, with mod-fqm-manager): a phase config accepts', () => {
  const { proposal } = reportOf('test9', { primaryCpu: 85, offloadCpu: 50, acuPeak: 12, waits: cpuOnly });
  expect({ status: proposal.status, rule: proposal.rule }).toEqual({ status: 'proposed', rule: 'offload-more' });
  expect(proposal.next!.diff).toEqual([expect.stringMatching(/^routedToOffload: \[.*"mod-data-export"\] -> \[.*"mod-data-export","mod-lists"\]$/)]);
});

test('with every routable module moved, offload-more is blocked and says so', () => {
  // Routable exactly what test10 routes, whatever config/folio-modules.ts marks routable today.
  const catalog = editedCatalog((c) => {
    const routed: string[] = c.folio.phases.find((p: any) => p.name === 'test10').routedToOffload;
    for (const m of c.folio.modules) m.routable = routed.includes(m.name);
  });
  const report = reportOf('test10', { primaryCpu: 85, offloadCpu: 50, acuPeak: 12, waits: cpuOnly }, catalog);
  const proposal = proposeNext(report, resolveScenario({ scenario: 'test10' }, catalog) as FolioScenario, catalog);
  expect(proposal).toMatchObject({
    status: 'blocked',
    rule: 'offload-more',
    says: expect.stringMatching(/every routable module is on the offload cluster already$/),
  });
});

test('with mod-oai-pmh made routable, offload-more after test10 routes it, its acknowledgements derived from the new routing', () => {
  const catalog = editedCatalog((c) => (c.folio.modules.find((m: any) => m.name === 'mod-oai-pmh').routable = true));
  const ran = catalog.folio.phases.find((p: any) => p.name === 'test10')!;
  // Before the move mod-oai-pmh, on the primary cluster, reads schemas on the offload one, acknowledged.
  expect(ran.crossSchemaAcks!.map((a) => a.module)).toContain('mod-oai-pmh');
  const report = reportOf('test10', { primaryCpu: 85, offloadCpu: 50, acuPeak: 12, waits: cpuOnly }, catalog);
  // The report proposes from the catalog the user's config makes: here, the edited one.
  const proposal = proposeNext(report, resolveScenario({ scenario: 'test10' }, catalog) as FolioScenario, catalog);
  expect({ status: proposal.status, rule: proposal.rule }).toEqual({ status: 'proposed', rule: 'offload-more' });
  const next = proposal.next!.phase as any;
  expect(next.routedToOffload).toEqual([...ran.routedToOffload, 'mod-oai-pmh']);
  // Its reads now on its own cluster: the acknowledgement is gone, the others' kept with their reasons.
  expect(next.crossSchemaAcks).toEqual(ran.crossSchemaAcks!.filter((a) => a.module !== 'mod-oai-pmh'));
});

describe('never more certain than the data', () => {
  test('a window too short proposes nothing, and says so', () => {
    const { proposal } = reportOf('test10', { minutes: 10, primaryCpu: 60, offloadCpu: 80, acuPeak: 32, minutesAtPeak: 8, waits: cpuOnly });
    expect(proposal).toMatchObject({
      status: 'unjudged',
      says: 'the window is 10 minutes long, shorter than the 20 a phase is judged on: it proposes nothing',
    });
  });

  test('a series missing proposes nothing, naming the figures it could not compute', () => {
    const { proposal } = reportOf('test10', { primaryCpu: 60, offloadCpu: 80, acuPeak: 32, minutesAtPeak: 35, missing: ['acu'], waits: cpuOnly });
    expect(proposal).toMatchObject({ status: 'unjudged' });
    expect(proposal.says).toMatch(/^acu has fewer than 80% of the window's points|^no data for acuPeakShareOfMax/);
  });

  test("a window of another configuration than the phase's now proposes nothing", () => {
    const report = reportOf('test10', { primaryCpu: 60, offloadCpu: 80, acuPeak: 32, minutesAtPeak: 35, waits: cpuOnly });
    const changed = editedCatalog((c) => (c.folio.phases.find((p: any) => p.name === 'test10').offload.serverless.max = 48));
    const now = resolveScenario({ scenario: 'test10' }, changed) as FolioScenario;
    const { proposeNext } =
      require('../../../../../lib/folio/commands/report/folio-proposals') as typeof import('../../../../../lib/folio/commands/report/folio-proposals');
    expect(proposeNext(report, now, changed)).toMatchObject({
      status: 'unjudged',
      says: expect.stringMatching(/^the window ran another configuration than test10 has now/),
    });
  });

  test('a window of part3 before its provisioned offload cluster changed class proposes nothing for part3 as it is now', () => {
    const report = reportOf('part3', { primaryCpu: 30, offloadCpu: 50, waits: cpuOnly });
    expect(report.proposal.rule).toBe('writer-oversized');
    const changed = editedCatalog((c) => (c.folio.phases.find((p: any) => p.name === 'part3').offload.provisioned.instanceClass = 'db.r8g.4xlarge'));
    const now = resolveScenario({ scenario: 'part3' }, changed) as FolioScenario;
    const { proposeNext } =
      require('../../../../../lib/folio/commands/report/folio-proposals') as typeof import('../../../../../lib/folio/commands/report/folio-proposals');
    expect(proposeNext(report, now, changed)).toMatchObject({
      status: 'unjudged',
      says: expect.stringMatching(/^the window ran another configuration than part3 has now/),
    });
  });

  test('Performance Insights not read: the proposal stands, with the caveat that I/O was not ruled out', () => {
    const { proposal } = reportOf('test10', { primaryCpu: 60, offloadCpu: 80, acuPeak: 32, minutesAtPeak: 35 });
    expect(proposal.status).toBe('proposed');
    expect(proposal.caveats).toEqual(['I/O waits not judged (not read in this test): an I/O bottleneck is not ruled out']);
  });

  test('a change config would refuse is not proposed as a phase: config says why', () => {
    const { proposal } = reportOf(
      'test10',
      { primaryCpu: 60, offloadCpu: 80, acuPeak: 32, minutesAtPeak: 35, waits: cpuOnly },
      editedCatalog((c) => {
        const rule = c.folio.environment.observability.proposals.rules.find((r: any) => r.id === 'ceiling-flat');
        rule.propose = { kind: 'acu-max-times', factor: 10 };
      }),
    );
    expect(proposal.status).toBe('blocked');
    expect(proposal.says).toMatch(/config refuses that change as it stands: .*320/);
  });
});
