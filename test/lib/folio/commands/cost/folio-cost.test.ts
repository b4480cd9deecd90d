import { resolveScenario, type FolioScenario } from '../../../../../config';
import { loadPrices } from '../../../../../config/prices';
import { costOf } from '../../../../../lib/families';
import { folioCost } from '../../../../../lib/folio/commands/cost/folio-cost';
import { editedCatalog } from '../../../../../harness/catalog';

/* A FOLIO phase's daily cost: both clusters, the offload cluster's ACU range, the mover. */

const us = loadPrices('us-east-1');

describe('FOLIO phases', () => {
  const test10 = resolveScenario({ scenario: 'test10' }) as FolioScenario;

  test('the writer, and Serverless v2 at its floor and its ceiling', () => {
    const e = folioCost(test10, us);
    expect(e.sections[0].lines[0].cells).toEqual(['Writer', '1', 'db.r7g.2xlarge', '$1.106/hr', '$26.54']);
    const [floor, ceiling] = e.sections[1].lines;
    expect(floor.cells).toEqual(['At the floor (min ACU all day)', '0.5 ACU', '12 ACU-h', '$0.12/ACU-hr', '$1.44']);
    expect(ceiling.cells).toEqual(['At the ceiling (max ACU all day)', '32 ACU', '768 ACU-h', '$0.12/ACU-hr', '$92.16']);
    expect(e.sections[1].subtotal).toBeCloseTo(1.44, 6);
    expect(e.variants).toEqual([
      expect.objectContaining({ label: 'Serverless at the ceiling', delta: expect.closeTo(92.16 - 1.44, 6) }),
      // Stopped: no instance or ACU hours; what is left is the other section (secrets, the dashboard, endpoints).
      expect.objectContaining({ label: 'Stopped (hibernated)', total: e.sections[2].subtotal }),
    ]);
  });

  test('a cluster that pauses at 0 ACU is priced at nothing while paused, and the notes say when it pauses', () => {
    const catalog = editedCatalog((c) => (c.folio.phases.find((p: any) => p.name === 'test10').offload.serverless = { min: 0, max: 32, autoPause: '10m' }));
    const e = folioCost(resolveScenario({ scenario: 'test10' }, catalog) as FolioScenario, us);
    expect(e.sections[1].lines[0].cells).toEqual(['Paused (0 ACU after 10m without a connection)', '0 ACU', '0 ACU-h', '$0.12/ACU-hr', '$0.00']);
    expect(e.sections[1].subtotal).toBe(0);
    expect(e.notes).toContainEqual(
      expect.stringMatching(/^The Serverless v2 cluster pauses at 0 ACU after 10m without a connection and bills no capacity while paused/),
    );
  });

  test('an observed average from a run prices the Serverless line', () => {
    const e = folioCost(test10, us, { observedAverageAcu: 12.5, observedFrom: 'test10, 10:00 to 12:00' });
    expect(e.sections[1].lines[2].cells).toEqual(['Observed average (test10, 10:00 to 12:00)', '12.5 ACU', '300 ACU-h', '$0.12/ACU-hr', '$36.00']);
    expect(e.sections[1].subtotal).toBeCloseTo(36, 6);
    expect(e.variants.map((v) => v.label)).toEqual(['Serverless at the floor', 'Serverless at the ceiling', 'Stopped (hibernated)']);
  });

  test('part3 prices its provisioned offload cluster by the hour, with no Serverless variants', () => {
    const e = folioCost(resolveScenario({ scenario: 'part3' }) as FolioScenario, us);
    expect(e.sections.map((x) => x.title)).toEqual([
      'Primary Aurora PostgreSQL (Standard storage)',
      'Offload cluster, provisioned (Standard storage)',
      'Other AWS Services',
    ]);
    expect(e.sections[1].lines[0].cells).toEqual(['Writer', '1', 'db.r8g.2xlarge', '$1.106/hr', '$26.54']);
    expect(e.variants.map((v) => [v.label, v.total])).toEqual([['Stopped (hibernated)', e.sections[2].subtotal]]);
    expect(e.notes).toContain('The offload cluster is provisioned: it costs the same whatever the load.');
    expect(e.notes).toContainEqual(expect.stringMatching(/^60 tenants: nothing above grows with them/));
  });

  test("I/O-Optimized storage, per cluster, prices that cluster's compute at its own rate; readers count", () => {
    const catalog = editedCatalog((c) => {
      const p = c.folio.phases.find((x: any) => x.name === 'part3');
      p.storage = { offload: 'aurora-iopt1' };
      p.offload = { provisioned: { instanceClass: 'db.r8g.2xlarge', readers: 1 } };
    });
    const e = folioCost(resolveScenario({ scenario: 'part3' }, catalog) as FolioScenario, us);
    expect(e.sections[0].title).toBe('Primary Aurora PostgreSQL (Standard storage)');
    expect(e.sections[1].title).toBe('Offload cluster, provisioned (I/O-Optimized storage)');
    expect(e.sections[1].lines[0].cells).toEqual(['Writer and 1 reader', '2', 'db.r8g.2xlarge', '$1.4378/hr', '$69.01']);
    const serverless = editedCatalog((c) => (c.folio.phases.find((x: any) => x.name === 'test10').storage = { offload: 'aurora-iopt1' }));
    expect(folioCost(resolveScenario({ scenario: 'test10' }, serverless) as FolioScenario, us).sections[1].lines[0].cells[3]).toBe('$0.156/ACU-hr');
  });

  test('test1 prices its 4xlarge writer', () => {
    const e = costOf(resolveScenario({ scenario: 'test1' }), us);
    expect(e.sections[0].lines[0].cells.slice(2)).toEqual(['db.r7g.4xlarge', '$2.212/hr', '$53.09']);
  });
});
