import type { TemporalRole } from '../../config';

/*
 * Physical names that the stacks derive from configured ones. The metric catalog needs the
 * same values as dimensions, so they are derived here, once.
 */

/** DBInstanceIdentifier of a cluster's writer. */
export const writerInstanceIdentifier = (clusterIdentifier: string): string => `${clusterIdentifier}-writer`;

/** ECS service name (and task family) of a Temporal role. */
export const temporalServiceName = (role: TemporalRole): string => `temporal-${role}`;

/** ECS service name (and task family) of the benchmark workers. */
export const BENCHMARK_WORKER_SERVICE = 'benchmark-worker';

/** Task family of the load generator; also its collector's Prometheus job, as the workers' is their service name. */
export const BENCHMARK_GENERATOR_FAMILY = 'benchmark-generator';

/** Task family of the store probe (`bench run`'s store round trip). */
export const STORE_PROBE_FAMILY = 'store-probe';

/** The generator's and the store probe's containers: `bench run` overrides and reads them by name. */
export const GENERATOR_CONTAINER = 'Generator';
export const PROBE_CONTAINER = 'Probe';

/** The schema mover's container: `npm run move` overrides its MOVE_* variables per run. */
export const MOVER_CONTAINER = 'Mover';

/** A FOLIO module's routes in the module zone: the stack's CNAME records, which an online move repoints. */
export const moduleRouteNames = (zoneName: string, module: string): { readonly writer: string; readonly reader: string } => ({
  writer: `${module}.${zoneName}`,
  reader: `${module}-reader.${zoneName}`,
});
