import { resolveScenario } from '../../../../config';
import { catalogFor } from '../../../../lib/families';
import { instanceVcpus, metricsOf, seriesById } from '../../../../lib/platform/contract/metrics';
import { ALL_SCENARIO_NAMES } from '../../../../harness/catalog';

const catalogs = ALL_SCENARIO_NAMES.map((name) => [name, catalogFor(resolveScenario({ scenario: name }), { dsqlClusterId: 'cluster-id' })] as const);

test.each(catalogs)('%s: ids are unique GetMetricData ids, and every panel and alarm names a series of the catalog', (_name, catalog) => {
  const ids = catalog.series.map((s) => s.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9_]*$/);
  for (const ref of [...catalog.panels.flatMap((p) => p.series), ...catalog.alarms.map((a) => a.series)]) expect(() => seriesById(catalog, ref)).not.toThrow();
  for (const s of catalog.series) if (s.kind === 'difference') expect(metricsOf(catalog, s.id).map((m) => m.kind)).toEqual(['metric', 'metric']);
});

test('a series the catalog does not have is a bug, named', () => {
  const [, catalog] = catalogs[0];
  expect(() => seriesById(catalog, 'writeTransactions')).toThrow('metric catalog has no series "writeTransactions"');
});

test('DSQL write transactions are derived: there is no such metric', () => {
  const [, temporal] = catalogs.find(([n]) => n === 'temporal-150wps')!;
  expect(seriesById(temporal, 'writeTx')).toMatchObject({ kind: 'difference', minuend: 'totalTx', subtrahend: 'readOnlyTx' });
  expect(metricsOf(temporal, 'writeTx').map((m) => m.metricName)).toEqual(['TotalTransactions', 'ReadOnlyTransactions']);
});

test('writer vCPUs from the instance size, for the DB-load line', () => {
  expect(instanceVcpus('db.r7g.large')).toBe(2);
  expect(instanceVcpus('db.r7g.xlarge')).toBe(4);
  expect(instanceVcpus('db.r7g.2xlarge')).toBe(8);
  expect(instanceVcpus('db.r7g.16xlarge')).toBe(64);
  expect(instanceVcpus('db.serverless')).toBeUndefined();
});
