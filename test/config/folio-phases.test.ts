import { loadCatalog } from '../../config';

/*
 * The seed's "Test Runs" table (seed 002), restated here independently of config/ so that a
 * change to a phase has to be made twice: once in config, once here on purpose.
 */
const SRM_SRS = ['mod-source-record-manager', 'mod-source-record-storage'];
const WITH_INV = [...SRM_SRS, 'mod-inventory-storage'];
const WITH_ORD = [...WITH_INV, 'mod-orders-storage'];
const WITH_DE = [...WITH_ORD, 'mod-data-export'];
const SEVEN = [...WITH_DE, 'mod-lists', 'mod-fqm-manager'];

// name: writer class, min ACU, max ACU, routed modules, Data Import ramp-up (s), sidecar cache fix
const SEED: Record<string, [string, number, number, string[], number, boolean]> = {
  baseline: ['db.r7g.4xlarge', 0.5, 1, [], 0, false],
  test1: ['db.r7g.4xlarge', 1, 4, SRM_SRS, 0, false],
  test2: ['db.r7g.2xlarge', 1, 4, SRM_SRS, 0, false],
  test3: ['db.r7g.2xlarge', 0.5, 6, SRM_SRS, 0, false],
  test4: ['db.r7g.2xlarge', 0.5, 6, SRM_SRS, 120, false],
  test5: ['db.r7g.2xlarge', 0.5, 6, WITH_INV, 120, false],
  test6: ['db.r7g.2xlarge', 0.5, 128, WITH_INV, 120, false],
  test7: ['db.r7g.2xlarge', 0.5, 32, WITH_INV, 120, false],
  test8: ['db.r7g.2xlarge', 0.5, 32, WITH_ORD, 120, false],
  test9: ['db.r7g.2xlarge', 0.5, 32, WITH_DE, 120, false],
  test10: ['db.r7g.2xlarge', 0.5, 32, SEVEN, 120, true],
  test11: ['db.r7g.2xlarge', 0.5, 64, SEVEN, 120, true],
  test12: ['db.r7g.2xlarge', 5, 64, SEVEN, 120, true],
  test13: ['db.r7g.2xlarge', 5, 64, SEVEN, 120, false],
};

const catalog = loadCatalog();

// PERF-1334 ("Part 3"), restated from the report: offload class, load, and its figures.
const PART3: Record<string, [string, number, Record<string, number>]> = {
  part3: ['db.r8g.2xlarge', 1, { dataImportMin: 18, dataExportMin: 17 }],
  'part3-3x': ['db.r8g.2xlarge', 3, { checkInSec: 2.4, checkOutSec: 3.5, dataImportMin: 57 }],
};

test('the phases begin with baseline and test1..test13, then Part 3 and the proposed next step, in order', () => {
  const seeded = [...Object.keys(SEED), ...Object.keys(PART3), 'part3-3x-4xl'];
  expect(catalog.folio.phases.map((p) => p.name).slice(0, seeded.length)).toEqual(seeded);
});

describe.each(Object.entries(PART3))('%s', (name, [offloadClass, loadFactor, recorded]) => {
  const phase = catalog.folio.phases.find((p) => p.name === name)!;
  test('matches PERF-1334: r7g.2xlarge primary, the seven modules on a provisioned r8g.2xlarge, 60 tenants', () => {
    expect(phase.primaryInstanceClass).toBe('db.r7g.2xlarge');
    expect(phase.offload).toEqual({ provisioned: { instanceClass: offloadClass, readers: 0 } });
    expect([...phase.routedToOffload].sort()).toEqual([...SEVEN].sort());
    expect({ tenants: phase.tenants, loadFactor: phase.loadFactor }).toEqual({ tenants: 60, loadFactor });
    expect(phase.recorded).toEqual(recorded);
    expect(phase.source).toMatch(/PERF-1334/);
  });
});

test('the proposed phase says it was not run, and records nothing', () => {
  const next = catalog.folio.phases.find((p) => p.name === 'part3-3x-4xl')!;
  expect(next.source).toMatch(/not run by PTF/);
  expect(next.recorded).toEqual({});
});

test('the environment has the 60 tenants Part 3 ran with', () => {
  expect(catalog.folio.environment.tenants).toHaveLength(60);
});

describe.each(Object.entries(SEED))('%s', (name, [writer, min, max, routed, rampUp, cacheFix]) => {
  const phase = catalog.folio.phases.find((p) => p.name === name)!;

  test('matches the seed report', () => {
    expect(phase.primaryInstanceClass).toBe(writer);
    expect(phase.offload).toEqual({ serverless: { min, max } });
    expect([...phase.routedToOffload].sort()).toEqual([...routed].sort());
    expect(phase.dataImportRampUpSeconds).toBe(rampUp);
    expect(phase.sidecar.authorizationCacheFix).toBe(cacheFix);
  });

  test('records the workload mix (20 active tenants) and an observation', () => {
    expect(phase.workload.reduce((n, w) => n + w.tenants!, 0)).toBe(20);
    expect(phase.tenants).toBe(30);
    expect(phase.workload.map((w) => w.tenants)).toEqual([8, 3, 3, 2, 2, 2]);
    expect(phase.observation.length).toBeGreaterThan(20);
  });
});

test('test13 is test12 with the stock sidecar build 3.0.18nb', () => {
  const [t12, t13] = ['test12', 'test13'].map((n) => catalog.folio.phases.find((p) => p.name === n)!);
  expect({ ...t13, name: '', title: '', observation: '', recorded: {}, sidecar: {} }).toEqual({
    ...t12,
    name: '',
    title: '',
    observation: '',
    recorded: {},
    sidecar: {},
  });
  expect(t13.sidecar).toEqual({ authorizationCacheFix: false, build: '3.0.18nb' });
});

test('the seed results that config records', () => {
  const rec = Object.fromEntries(catalog.folio.phases.map((p) => [p.name, p.recorded]));
  expect(rec.test5.failed).toBe(true);
  expect(rec.test10.serverlessPeakAcu).toBe(32);
  expect([rec.test11.checkInSec, rec.test12.checkInSec, rec.test13.checkInSec]).toEqual([4.42, 2.78, 4.2]);
  expect([rec.test12.dataImportMin, rec.test13.dataImportMin]).toEqual([18, 26]);
});
