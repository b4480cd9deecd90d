/*
 * Physical names that the stacks derive from configured ones. The metric catalog needs the
 * same values as dimensions, so they are derived here, once; those AWS validates are derived in
 * config (config/aws-names.ts), which checks them before anything is built.
 */

export { moduleRouteNames, readerInstanceIdentifier, writerInstanceIdentifier } from '../../../config/aws-names';

/**
 * The cost-allocation tag every resource of an environment carries, valued with the
 * environment's data stack name: its budget counts what carries it, once the tag is activated
 * as a cost-allocation tag in the Billing console (docs/cost-and-capacity.md).
 */
export const ENVIRONMENT_TAG = 'db-bench-environment';
