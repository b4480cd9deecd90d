import { CATALOG, loadCatalog, scenarioNames } from '../config';
import type { CatalogInput } from '../config/catalog-schema';

/* The catalog's names and edited copies, for tests that need no synthesis (synth.ts loads the CDK app). */

const catalog = loadCatalog();
export const FOLIO_PHASE_NAMES: readonly string[] = catalog.folio.phases.map((p) => p.name);
export const TEMPORAL_SCENARIO_NAMES: readonly string[] = catalog.temporal.scenarios.map((s) => s.name);
export const ALL_SCENARIO_NAMES: readonly string[] = scenarioNames(catalog);

/** A deep copy of the catalog, changed by `edit`: for bad-input tests. */
export function editedCatalog(edit: (c: any) => void): CatalogInput {
  const copy = structuredClone(CATALOG) as any;
  edit(copy);
  return copy;
}
