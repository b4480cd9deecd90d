import { schemaName } from '../../lib/folio/commands/move/move-plan';

/* The tenants the FOLIO mover's tests seed, and a module's schemas in each. */

export const TEST_TENANTS = ['fs09000000', 'fs09000001', 'fs09000002'];

/** A module's schema in every test tenant, as the mover names it. */
export const schemasOf = (module: string) => TEST_TENANTS.map((t) => schemaName(t, module));
