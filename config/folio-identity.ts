import type { FamilyIdentity } from './family-identity';

/** FOLIO's phases as config names them: folio.phases; a campaign step runs a command or waits while a load runs elsewhere. */
export const FOLIO_IDENTITY = { name: 'folio', table: 'phases', scenarioName: 'FOLIO phase', loads: ['command', 'wait'] } as const satisfies FamilyIdentity;
