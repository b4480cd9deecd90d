import { LegendDisplayMode, LegendPlacement, VizLegendOptionsBuilder } from '@grafana/grafana-foundation-sdk/common';
import { DashboardBuilder, type Dashboard, RowBuilder } from '@grafana/grafana-foundation-sdk/dashboard';
import { DataqueryBuilder } from '@grafana/grafana-foundation-sdk/prometheus';
import { PanelBuilder } from '@grafana/grafana-foundation-sdk/timeseries';
import type { HistoryStore } from '../../../config/temporal-schema';
import { type ServerQuery, serverQueries } from './server-queries';

/*
 * The live dashboard of a Temporal run, generated from the report's own query catalog
 * (server-queries.ts) with Grafana's Foundation SDK: one panel per query, asked per second
 * over Grafana's interval. A metric renamed upstream fails the catalog's test against the
 * emitting code's record, so it cannot reach a dashboard in the field; a query added to the
 * catalog without a place here fails this module's test.
 */

/**
 * The workspace as a Grafana data source, named by every panel: Grafana's Amazon Managed
 * Service for Prometheus plugin (SigV4 in the core Prometheus data source is deprecated, and
 * Grafana 13 moves such sources to this plugin at startup), provisioned with this uid (grafana.ts).
 */
export const PROMETHEUS_DATASOURCE = { type: 'grafana-amazonprometheus-datasource', uid: 'amp' } as const;

/** The dashboard's uid: its address in Grafana is /d/<uid>, the same after every deploy. */
export const DASHBOARD_UID = 'temporal-run';

/** The time range the dashboard opens on, in minutes: what each refresh reads (the cost model prices it). */
export const DASHBOARD_RANGE_MINUTES = 30;

/** Percentiles drawn for each histogram: the median and the tail the ladder judges. */
export const QUANTILES = [0.5, 0.99] as const;

interface PanelSpec {
  readonly title: string;
  /** A Grafana unit id: s, ops, short, percentunit. */
  readonly unit: string;
  readonly description?: string;
}

/** The dashboard's rows, top to bottom, and each query's panel in them, left to right. */
const ROWS: ReadonlyArray<{ readonly title: string; readonly panels: Readonly<Record<string, PanelSpec>> }> = [
  {
    title: 'The run: offered, started, completed',
    panels: {
      generatorTarget: { title: 'Generator: target rate', unit: 'short', description: 'Workflows per second the load generator aims at.' },
      generatorStarts: { title: 'Generator: workflows started per second', unit: 'ops' },
      generatorStartErrors: { title: 'Generator: failed starts per second', unit: 'ops' },
      stateTransitions: { title: 'State transitions per second', unit: 'ops', description: 'One per persisted mutable-state update.' },
      startLatency: { title: 'Frontend StartWorkflowExecution latency', unit: 's' },
    },
  },
  {
    title: 'Persistence',
    panels: {
      persistenceRequests: { title: 'Persistence requests per second, by operation', unit: 'ops' },
      persistenceLatency: { title: 'Persistence latency, by operation', unit: 's' },
      historyPersistenceLatency: { title: 'History service: persistence latency', unit: 's' },
      persistenceErrors: { title: 'Persistence errors per second, by type', unit: 'ops' },
      persistenceResourceExhausted: { title: 'Persistence resource-exhausted errors per second', unit: 'ops' },
    },
  },
  {
    title: 'Connection pools',
    panels: {
      poolMax: { title: 'Pool: max open connections, by role', unit: 'short' },
      poolOpen: { title: 'Pool: open connections, by role', unit: 'short' },
      poolInUse: { title: 'Pool: connections in use, by role', unit: 'short' },
      poolIdle: { title: 'Pool: idle connections, by role', unit: 'short' },
      poolInUseShare: { title: 'Pool: busiest task, share in use', unit: 'percentunit' },
      dsqlPoolMax: { title: 'DSQL plugin: pool size, by role', unit: 'short' },
      poolWaits: { title: 'DSQL plugin: waits for a connection per second', unit: 'ops' },
      poolWaitCumulative: { title: 'DSQL plugin: wait for a connection', unit: 's' },
    },
  },
  {
    title: 'DSQL transactions',
    panels: {
      conflicts: { title: 'OCC conflicts per second', unit: 'ops' },
      retries: { title: 'Retries per second', unit: 'ops' },
      retriesExhausted: { title: 'Retries exhausted per second', unit: 'ops' },
      txErrors: { title: 'Transaction errors per second, by class', unit: 'ops' },
    },
  },
  {
    title: 'Matching',
    panels: {
      serverScheduleToStart: { title: 'Schedule-to-start (server), by task type', unit: 's' },
      backlog: { title: 'Backlog, by task type', unit: 'short' },
      backlogAge: { title: 'Oldest backlog task, by task type', unit: 's' },
      pollSuccess: { title: 'Polls answered per second', unit: 'ops' },
      pollSuccessSync: { title: 'Polls answered at once (sync match) per second', unit: 'ops' },
      pollTimeouts: { title: 'Polls timed out per second', unit: 'ops' },
    },
  },
  {
    title: 'Benchmark workers',
    panels: {
      workerWorkflowScheduleToStart: { title: 'Workflow task schedule-to-start (SDK)', unit: 's' },
      workerActivityScheduleToStart: { title: 'Activity schedule-to-start (SDK)', unit: 's' },
      slotsAvailable: { title: 'Task slots available, by worker type', unit: 'short' },
      slotsUsed: { title: 'Task slots used, by worker type', unit: 'short' },
    },
  },
];

/** Every query id the dashboard places, in order. */
export const PANEL_IDS: readonly string[] = ROWS.flatMap((r) => Object.keys(r.panels));

/** What a panel asks: the query as it is, or for a histogram one quantile per target. */
export function panelTargets(q: ServerQuery): Array<{ readonly refId: string; readonly expr: string; readonly legend: string }> {
  if (q.shape !== 'histogram') return [{ refId: q.id, expr: q.promql, legend: '__auto' }];
  return QUANTILES.map((p) => ({ refId: `${q.id}P${p * 100}`, expr: `histogram_quantile(${p}, ${q.promql})`, legend: `p${p * 100} {{${labelsOf(q)}}}` }));
}

/** The labels a query sums by, but for le: what tells its series apart. */
function labelsOf(q: ServerQuery): string {
  const by = /^sum by \(([^)]*)\)/.exec(q.promql)?.[1] ?? '';
  const labels = by
    .split(',')
    .map((l) => l.trim())
    .filter((l) => l && l !== 'le');
  return labels.length ? labels.join('}} {{') : '__name__';
}

/**
 * The dashboard for one store's cluster: every catalog query of that store, in its row. The
 * DSQL plugin's rows are left out for Aurora PostgreSQL, whose servers do not emit them.
 */
export function temporalDashboard(store: HistoryStore, namespace: string, refresh: string): Dashboard {
  const queries = new Map(serverQueries({ store, namespace, live: true }).map((q) => [q.id, q]));
  const unplaced = [...queries.keys()].filter((id) => !PANEL_IDS.includes(id));
  if (unplaced.length)
    throw new Error(`the dashboard has no panel for the catalog's ${unplaced.join(', ')}: add each to a row in lib/temporal/contract/dashboards.ts`);
  const datasource = { ...PROMETHEUS_DATASOURCE };
  const dashboard = new DashboardBuilder('Temporal: servers and workers, live')
    .uid(DASHBOARD_UID)
    .description(`The report's own queries (namespace ${namespace}), per second, while a run goes on.`)
    .tags(['temporal', 'benchmark'])
    .editable()
    .time({ from: `now-${DASHBOARD_RANGE_MINUTES}m`, to: 'now' })
    .refresh(refresh);
  for (const row of ROWS) {
    const present = Object.entries(row.panels).filter(([id]) => queries.has(id));
    if (!present.length) continue;
    dashboard.withRow(new RowBuilder(row.title));
    for (const [id, spec] of present) {
      const q = queries.get(id)!;
      const panel = new PanelBuilder()
        .title(spec.title)
        .unit(spec.unit)
        .datasource(datasource)
        .height(8)
        .span(8)
        .legend(new VizLegendOptionsBuilder().displayMode(LegendDisplayMode.List).placement(LegendPlacement.Bottom).showLegend(true));
      if (spec.description) panel.description(spec.description);
      for (const t of panelTargets(q)) panel.withTarget(new DataqueryBuilder().datasource(datasource).refId(t.refId).expr(t.expr).legendFormat(t.legend));
      dashboard.withPanel(panel);
    }
  }
  return dashboard.build();
}
