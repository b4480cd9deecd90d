import type { TemporalRole } from '../../../config';

/*
 * Physical names that the stacks derive from configured ones. The metric catalog needs the
 * same values as dimensions, so they are derived here, once; those AWS validates are derived in
 * config (config/aws-names.ts), which checks them before anything is built.
 */

export { moduleRouteNames, readerInstanceIdentifier, writerInstanceIdentifier } from '../../../config/aws-names';

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

/**
 * The cost-allocation tag every resource of an environment carries, valued with the
 * environment's data stack name: its budget counts what carries it, once the tag is activated
 * as a cost-allocation tag in the Billing console (docs/cost-and-capacity.md).
 */
export const ENVIRONMENT_TAG = 'db-bench-environment';
