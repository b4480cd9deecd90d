import type { HistoryStore } from '../../../config/temporal-schema';
import { BENCHMARK_GENERATOR_FAMILY, BENCHMARK_WORKER_SERVICE } from './temporal-names';

/*
 * What the report asks the servers' and workers' own metrics (Prometheus), one range query per
 * figure. Every selector names its metric with braces (`name{...}`), and every metric is one
 * the code that emits it defines: test/fixtures/temporal-metrics/contract.json records each
 * with file and line, per store, and the tests hold these queries to that record.
 *
 * For the report, counters are read as `increase(x[step])` at each step, so the points of a
 * query are the counts of consecutive, non-overlapping steps: their sum is the window's total.
 * Histograms are read the same way per bucket, so that the report can add the buckets up over
 * the window and take percentiles of the whole run, and per step for the charts.
 *
 * The live dashboards (dashboards.ts) ask the same queries per second instead:
 * `rate(x[$__rate_interval])`, Grafana's range for the zoom a panel is drawn at.
 */

type QueryShape = 'gauge' | 'count' | 'histogram';

export interface ServerQuery {
  readonly id: string;
  readonly shape: QueryShape;
  readonly promql: string;
  /** Only for this store: the DSQL plugin's own metrics. */
  readonly store?: HistoryStore;
}

interface QueryScope {
  readonly store: HistoryStore;
  /** The benchmark's namespace: server metrics of the system namespace are left out. */
  readonly namespace: string;
}

/** The report's: counts per step of this many seconds. A dashboard's (`live`): rates per second over Grafana's interval. */
export type QueryContext = QueryScope & ({ readonly stepSeconds: number } | { readonly live: true });

/** The metric names in a query: every identifier directly followed by `{`. */
export function metricNames(promql: string): string[] {
  return [...new Set([...promql.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\{/g)].map((m) => m[1]))];
}

export function serverQueries(c: QueryContext): ServerQuery[] {
  const live = 'live' in c;
  const r = live ? '[$__rate_interval]' : `[${c.stepSeconds}s]`;
  const counter = live ? 'rate' : 'increase';
  const ns = `namespace="${c.namespace}"`;
  const main = 'db_kind="main"';
  const worker = `job="${BENCHMARK_WORKER_SERVICE}"`;
  const generator = `job="${BENCHMARK_GENERATOR_FAMILY}"`;
  const count = (id: string, metric: string, by: string, store?: HistoryStore): ServerQuery => ({
    id,
    shape: 'count',
    promql: `sum by (${by}) (${counter}(${metric}${r}))`,
    store,
  });
  const histogram = (id: string, metric: string, by: string[] = []): ServerQuery => ({
    id,
    shape: 'histogram',
    promql: `sum by (${[...by, 'le'].join(', ')}) (${counter}(${metric}${r}))`,
  });
  const queries: ServerQuery[] = [
    // Connection pools, per role: every server's SQL handle reports them (upstream's reporter, in both stores).
    { id: 'poolMax', shape: 'gauge', promql: `sum by (service_name) (persistence_sql_max_open_conn{${main}})` },
    { id: 'poolOpen', shape: 'gauge', promql: `sum by (service_name) (persistence_sql_open_conn{${main}})` },
    { id: 'poolInUse', shape: 'gauge', promql: `sum by (service_name) (persistence_sql_in_use{${main}})` },
    { id: 'poolIdle', shape: 'gauge', promql: `sum by (service_name) (persistence_sql_idle_conn{${main}})` },
    // The busiest task of each role: a share of its own pool.
    { id: 'poolInUseShare', shape: 'gauge', promql: `max by (service_name) (persistence_sql_in_use{${main}} / persistence_sql_max_open_conn{${main}})` },
    count('persistenceErrors', `persistence_error_with_type{}`, 'service_name, error_type'),
    count('persistenceResourceExhausted', `persistence_errors_resource_exhausted{}`, 'service_name'),
    // The DSQL plugin's own: pool waits, OCC conflicts, retries and their outcomes.
    { id: 'dsqlPoolMax', shape: 'gauge', promql: `sum by (service_name) (dsql_pool_max_open{})`, store: 'dsql' },
    count('poolWaits', `dsql_pool_wait_total{}`, 'service_name', 'dsql'),
    { ...histogram('poolWaitCumulative', `dsql_pool_wait_duration_bucket{}`, ['service_name']), store: 'dsql' },
    count('conflicts', `dsql_tx_conflict_total{}`, 'service_name', 'dsql'),
    count('retries', `dsql_tx_retry_total{}`, 'service_name', 'dsql'),
    count('retriesExhausted', `dsql_tx_exhausted_total{}`, 'service_name', 'dsql'),
    count('txErrors', `dsql_tx_error_class_total{}`, 'service_name, error_class', 'dsql'),
    // The server's view of the run.
    // One observation per persisted mutable-state update (history/workflow/context.go:1179): each is
    // one transition. The observed value is the workflow's running total, so `_sum` overcounts.
    count('stateTransitions', `state_transition_count_count{${ns}}`, 'namespace'),
    histogram('startLatency', `service_latency_bucket{service_name="frontend",operation="StartWorkflowExecution",${ns}}`),
    count('persistenceRequests', `persistence_requests{${ns}}`, 'operation'),
    histogram('persistenceLatency', `persistence_latency_bucket{${ns}}`, ['operation']),
    histogram('historyPersistenceLatency', `persistence_latency_bucket{service_name="history"}`),
    histogram('serverScheduleToStart', `task_schedule_to_start_latency_bucket{${ns}}`, ['task_type']),
    { id: 'backlog', shape: 'gauge', promql: `sum by (task_type) (approximate_backlog_count{${ns}})` },
    { id: 'backlogAge', shape: 'gauge', promql: `max by (task_type) (approximate_backlog_age_seconds{${ns}})` },
    count('pollSuccess', `poll_success{${ns}}`, 'task_type'),
    count('pollSuccessSync', `poll_success_sync{${ns}}`, 'task_type'),
    count('pollTimeouts', `poll_timeouts{${ns}}`, 'task_type'),
    // The benchmark workers' SDK and the generator.
    histogram('workerWorkflowScheduleToStart', `temporal_workflow_task_schedule_to_start_latency_bucket{${worker}}`),
    histogram('workerActivityScheduleToStart', `temporal_activity_schedule_to_start_latency_bucket{${worker}}`),
    { id: 'slotsAvailable', shape: 'gauge', promql: `sum by (worker_type) (temporal_worker_task_slots_available{${worker}})` },
    { id: 'slotsUsed', shape: 'gauge', promql: `sum by (worker_type) (temporal_worker_task_slots_used{${worker}})` },
    count('generatorStarts', `benchmark_workflows_started_total{${generator}}`, 'job'),
    count('generatorStartErrors', `benchmark_workflow_start_errors_total{${generator}}`, 'job'),
    { id: 'generatorTarget', shape: 'gauge', promql: `max by (job) (benchmark_target_rate{${generator}})` },
  ];
  return queries.filter((q) => q.store === undefined || q.store === c.store);
}
