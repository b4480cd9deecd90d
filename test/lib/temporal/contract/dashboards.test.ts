import { DASHBOARD_UID, PANEL_IDS, PROMETHEUS_DATASOURCE, QUANTILES, panelTargets, temporalDashboard } from '../../../../lib/temporal/contract/dashboards';
import { serverQueries } from '../../../../lib/temporal/contract/server-queries';

/*
 * The live dashboard is the report's query catalog, drawn: every query of a store has its panel,
 * every panel asks a catalog query (per second instead of per step), and a query the dashboard
 * does not place stops synth rather than going missing from the screen.
 */

const STORES = ['dsql', 'aurora-postgresql'] as const;
type Panel = {
  title: string;
  type: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: { type: string; uid: string };
  targets?: any[];
};
const panelsOf = (store: (typeof STORES)[number]) => temporalDashboard(store, 'benchmark', '10s').panels as Panel[];

test.each(STORES)('%s: one panel per catalog query of the store, asking exactly that query (a histogram per quantile)', (store) => {
  const queries = serverQueries({ store, namespace: 'benchmark', live: true });
  const charts = panelsOf(store).filter((p) => p.type === 'timeseries');
  expect(charts).toHaveLength(queries.length);
  const asked = charts.flatMap((p) => p.targets!.map((t) => [t.refId, t.expr]));
  expect(asked).toEqual(expect.arrayContaining(queries.flatMap((q) => panelTargets(q).map((t) => [t.refId, t.expr]))));
  expect(asked).toHaveLength(queries.reduce((n, q) => n + (q.shape === 'histogram' ? QUANTILES.length : 1), 0));
});

test("the dashboard's queries are the report's, read per second over Grafana's interval instead of counted per step", () => {
  for (const store of STORES) {
    const report = new Map(serverQueries({ store, namespace: 'benchmark', stepSeconds: 60 }).map((q) => [q.id, q.promql]));
    for (const q of serverQueries({ store, namespace: 'benchmark', live: true })) {
      expect(q.promql).not.toContain('increase(');
      expect(q.promql.replaceAll('rate(', 'increase(').replaceAll('[$__rate_interval]', '[60s]')).toBe(report.get(q.id));
    }
  }
});

test('every placed panel is a catalog query of some store; the DSQL rows are left out where the servers do not emit them', () => {
  const ids = new Set(STORES.flatMap((store) => serverQueries({ store, namespace: 'x', live: true }).map((q) => q.id)));
  expect(PANEL_IDS.filter((id) => !ids.has(id))).toEqual([]);
  expect(new Set(PANEL_IDS).size).toBe(PANEL_IDS.length);
  const rows = (store: (typeof STORES)[number]) =>
    panelsOf(store)
      .filter((p) => p.type === 'row')
      .map((p) => p.title);
  expect(rows('dsql')).toContain('DSQL transactions');
  expect(rows('aurora-postgresql')).not.toContain('DSQL transactions');
  expect(JSON.stringify(panelsOf('aurora-postgresql'))).not.toContain('dsql_');
});

test('each histogram is drawn as its median and P99, labelled by what it sums by', () => {
  const q = serverQueries({ store: 'dsql', namespace: 'benchmark', live: true }).find((x) => x.id === 'persistenceLatency')!;
  expect(panelTargets(q)).toEqual([
    { refId: 'persistenceLatencyP50', expr: `histogram_quantile(0.5, ${q.promql})`, legend: 'p50 {{operation}}' },
    { refId: 'persistenceLatencyP99', expr: `histogram_quantile(0.99, ${q.promql})`, legend: 'p99 {{operation}}' },
  ]);
});

test('a stable address, one data source for every panel and target, and panels that do not overlap', () => {
  const d = temporalDashboard('dsql', 'benchmark', '10s');
  expect(d.uid).toBe(DASHBOARD_UID);
  expect(d.refresh).toBe('10s');
  const charts = (d.panels as Panel[]).filter((p) => p.type === 'timeseries');
  for (const p of charts) {
    expect(p.datasource).toEqual({ type: 'grafana-amazonprometheus-datasource', uid: 'amp' });
    for (const t of p.targets!) expect(t.datasource).toEqual(PROMETHEUS_DATASOURCE);
  }
  const cells = new Set<string>();
  for (const p of d.panels as Panel[]) {
    const { x, y, w, h } = p.gridPos;
    expect(x + w).toBeLessThanOrEqual(24);
    for (let i = x; i < x + w; i++)
      for (let j = y; j < y + h; j++) {
        expect(cells.has(`${i},${j}`) ? `${p.title} overlaps at ${i},${j}` : '').toBe('');
        cells.add(`${i},${j}`);
      }
  }
});

test('the check can fail: a catalog query the dashboard does not place stops the build, naming it', () => {
  jest.isolateModules(() => {
    jest.doMock('../../../../lib/temporal/contract/server-queries', () => {
      const real = jest.requireActual('../../../../lib/temporal/contract/server-queries');
      return { ...real, serverQueries: (c: any) => [...real.serverQueries(c), { id: 'newQuery', shape: 'gauge', promql: 'sum(new_metric{})' }] };
    });
    const { temporalDashboard: withNew } = jest.requireActual('../../../../lib/temporal/contract/dashboards');
    expect(() => withNew('dsql', 'benchmark', '10s')).toThrow(
      "the dashboard has no panel for the catalog's newQuery: add each to a row in lib/temporal/contract/dashboards.ts",
    );
  });
});
