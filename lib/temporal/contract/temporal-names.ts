import type { TemporalRole } from '../../../config';

/* The names a Temporal deploy gives its services, task families and containers, and the commands look up. */

/** ECS service name (and task family) of a Temporal role. */
export const temporalServiceName = (role: TemporalRole): string => `temporal-${role}`;

/** ECS service name (and task family) of the benchmark workers. */
export const BENCHMARK_WORKER_SERVICE = 'benchmark-worker';

/** ECS service name (and task family) of the Temporal Web UI; also its Cloud Map name (`ui.<namespace>`). */
export const TEMPORAL_UI_SERVICE = 'temporal-ui';

/** ECS service name (and task family) of Grafana with the live dashboard; its Cloud Map name is `grafana.<namespace>`. */
export const TEMPORAL_GRAFANA_SERVICE = 'temporal-grafana';

/** Task family of the load generator; also its collector's Prometheus job, as the workers' is their service name. */
export const BENCHMARK_GENERATOR_FAMILY = 'benchmark-generator';

/** Task family of the store probe (`bench run`'s store round trip). */
export const STORE_PROBE_FAMILY = 'store-probe';

/** The generator's and the store probe's containers: `bench run` overrides and reads them by name. */
export const GENERATOR_CONTAINER = 'Generator';
export const PROBE_CONTAINER = 'Probe';
