import { type FolioScenario, resolveScenario } from '../../../../../config';
import { moverEnvironment, planModuleMove, planPhaseSwitch, waves, withoutReferences } from '../../../../../lib/folio/commands/move/move-plan';
import { editedCatalog } from '../../../../../harness/catalog';
import { schemasOf, TEST_TENANTS as TENANTS } from '../../../../support/folio-tenants';

/*
 * Which schemas a phase switch moves, in which order, and what the mover task is told: derived
 * from the two phases and the tenants. The mover itself runs against real servers in
 * test/integration/schema-mover.test.ts.
 */

const catalog = editedCatalog((c) => (c.folio.environment.tenants = TENANTS));
const phase = (name: string) => resolveScenario({ scenario: name }, catalog) as FolioScenario;

describe('the plan is derived from the two phases and the tenants', () => {
  test('test4 -> test5 moves mod-inventory-storage to Serverless in every tenant, and restarts it', () => {
    const plan = planPhaseSwitch(phase('test4'), phase('test5'));
    expect(plan.moves).toEqual([
      {
        module: 'mod-inventory-storage',
        reference: false,
        framework: 'rmb',
        from: 'primary',
        to: 'offload',
        suffix: '_mod_inventory_storage',
        schemas: schemasOf('mod-inventory-storage'),
        wave: 1,
        routes: { writer: 'mod-inventory-storage.folio-db.internal', reader: 'mod-inventory-storage-reader.folio-db.internal' },
      },
    ]);
    expect(plan.restart).toEqual(['mod-inventory-storage']);
  });

  test('test10 -> baseline brings seven modules back, each after the schemas its views read', () => {
    const order = planPhaseSwitch(phase('test10'), phase('baseline')).moves.map((m) => m.module);
    expect(order.sort()).toEqual(
      [
        'mod-data-export',
        'mod-fqm-manager',
        'mod-inventory-storage',
        'mod-lists',
        'mod-orders-storage',
        'mod-source-record-manager',
        'mod-source-record-storage',
      ].sort(),
    );
    const at = (m: string) => planPhaseSwitch(phase('test10'), phase('baseline')).moves.findIndex((x) => x.module === m);
    for (const reader of ['mod-data-export', 'mod-fqm-manager']) {
      expect(at(reader)).toBeGreaterThan(at('mod-inventory-storage'));
      expect(at(reader)).toBeGreaterThan(at('mod-source-record-storage'));
    }
    expect(at('mod-fqm-manager')).toBeGreaterThan(at('mod-orders-storage'));
  });

  test('test9 -> test10: FQM moves, with reference copies of every schema it reads across the split, first', () => {
    const plan = planPhaseSwitch(phase('test9'), phase('test10'));
    const references = plan.moves.filter((m) => m.reference);
    expect(references.map((m) => m.module).sort()).toEqual([
      'mod-agreements',
      'mod-circulation-storage',
      'mod-finance-storage',
      'mod-invoice-storage',
      'mod-linked-data',
      'mod-oa',
      'mod-organizations-storage',
      'mod-settings',
      'mod-tags',
      'mod-users',
    ]);
    for (const r of references) expect(r).toMatchObject({ from: 'primary', to: 'offload' });
    const fqm = plan.moves.findIndex((m) => m.module === 'mod-fqm-manager');
    expect(plan.moves.slice(0, fqm).filter((m) => m.reference)).toHaveLength(references.length);
    expect(plan.restart).toEqual(['mod-lists', 'mod-fqm-manager']);
    expect(moverEnvironment(references[0]).MOVE_KEEP_EXISTING).toBe('true');
  });

  test('phases with the same routing move nothing', () => {
    expect(planPhaseSwitch(phase('test11'), phase('test12')).moves).toEqual([]);
  });

  test('one module moved by hand is refused when it would split reads the phase does not acknowledge, in the synth-time words', () => {
    expect(() => planModuleMove(phase('test4'), 'mod-data-export', 'offload')).toThrow(
      /moving mod-data-export to offload is refused: mod-data-export \(on offload\) reads schemas that are on the other cluster: mod-inventory-storage, mod-users; route them together or add \{module: 'mod-data-export', readsFrom: \[\.\.\.\], reason\} to crossSchemaAcks/,
    );
    expect(planModuleMove(phase('test4'), 'mod-lists', 'offload').moves.map((m) => m.module)).toEqual(['mod-lists']);
  });

  test('modules that can move together share one mover task (a wave): same clusters, same kind, none reading another of the wave', () => {
    const together = waves(planPhaseSwitch(phase('baseline'), phase('test1')));
    expect(together.map((w) => w.map((m) => m.module))).toEqual([['mod-source-record-manager', 'mod-source-record-storage']]);
    expect(moverEnvironment(together[0], { replace: true })).toMatchObject({
      MOVE_SCHEMAS: [...schemasOf('mod-source-record-manager'), ...schemasOf('mod-source-record-storage')].join(' '),
      MOVE_SUFFIX: '_mod_source_record_manager _mod_source_record_storage',
      MOVE_REPLACE: 'true',
      MOVE_KEEP_EXISTING: 'false',
    });
    for (const [from, to] of [
      ['baseline', 'test10'],
      ['test10', 'baseline'],
      ['test9', 'test10'],
      ['test4', 'test9'],
    ]) {
      const s = phase(to);
      const plan = planPhaseSwitch(phase(from), s);
      const all = waves(plan);
      expect(all.flat()).toEqual(plan.moves);
      for (const wave of all) {
        expect(new Set(wave.map((m) => `${m.from}>${m.to}:${m.reference}`)).size).toBe(1);
        // Whatever a module reads that this plan moves or copies is done in an earlier wave.
        for (const m of wave)
          for (const read of s.modules.find((x) => x.name === m.module)!.readsSchemasOf)
            for (const other of plan.moves.filter((x) => x.module === read && x.to === m.to)) expect(other.wave).toBeLessThan(m.wave);
      }
    }
    // References and moves never share a task: a reference copy keeps an existing copy, a move does not.
    expect(waves(planPhaseSwitch(phase('test9'), phase('test10'))).map((w) => w.map((m) => m.reference))).toEqual([[false], Array(10).fill(true), [false]]);
    expect(waves(withoutReferences(planPhaseSwitch(phase('test9'), phase('test10')))).map((w) => w.map((m) => m.module))).toEqual([
      ['mod-lists'],
      ['mod-fqm-manager'],
    ]);
  });
});

describe('online moves', () => {
  test('--online makes every module move online; a reference copy stays a fenced snapshot', () => {
    const plan = planPhaseSwitch(phase('test9'), phase('test10'));
    const envs = plan.moves.map((m) => [m.module, m.reference, moverEnvironment(m, { online: true }).MOVE_MODE]);
    expect(envs.filter(([, reference]) => reference).every(([, , mode]) => mode === 'fenced')).toBe(true);
    expect(envs.filter(([, reference]) => !reference).map(([module, , mode]) => [module, mode])).toEqual([
      ['mod-lists', 'online'],
      ['mod-fqm-manager', 'online'],
    ]);
    expect(moverEnvironment(plan.moves[0]).MOVE_MODE).toBe('fenced');
  });

  test("an online wave waits on its modules' routes, writer and reader, in the zone the environment names; a fenced one on none", () => {
    const [wave] = waves(planPhaseSwitch(phase('test4'), phase('test5')));
    expect(moverEnvironment(wave, { online: true }).MOVE_ROUTES).toBe('mod-inventory-storage.folio-db.internal mod-inventory-storage-reader.folio-db.internal');
    expect(moverEnvironment(wave).MOVE_ROUTES).toBeUndefined();
    const references = planPhaseSwitch(phase('test9'), phase('test10')).moves.filter((m) => m.reference);
    expect(moverEnvironment(references[0], { online: true }).MOVE_ROUTES).toBeUndefined();
    const perf2 = resolveScenario({ scenario: 'test5', envName: 'perf2' }, catalog) as FolioScenario;
    const other = resolveScenario({ scenario: 'test4', envName: 'perf2' }, catalog) as FolioScenario;
    expect(planPhaseSwitch(other, perf2).moves[0].routes.writer).toBe('mod-inventory-storage.perf2.folio-db.internal');
  });
});
