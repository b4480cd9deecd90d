import type { z } from './zod';
import { FOLIO_CATALOG } from './folio-catalog';
import { TEMPORAL_CATALOG } from './temporal-catalog';

/* The families config holds, each its part of config (<family>-catalog.ts): the one place in config that lists them. */

export const FAMILY_CATALOGS = [FOLIO_CATALOG, TEMPORAL_CATALOG] as const;

type FamilyCatalogs = (typeof FAMILY_CATALOGS)[number];
type Identity = FamilyCatalogs['identity'];
export type Family = Identity['name'];

/** Everything in config/ as written, by family: each family's section. */
export type CatalogInput = { readonly [C in FamilyCatalogs as C['identity']['name']]: z.input<C['section']> };
/** The catalog as parsed. */
export type Catalog = { readonly [C in FamilyCatalogs as C['identity']['name']]: z.output<C['section']> };
/** A scenario of any family, resolved. */
export type Scenario = NonNullable<ReturnType<FamilyCatalogs['resolve']>>;

export const FAMILY_IDENTITIES: readonly Identity[] = FAMILY_CATALOGS.map((c) => c.identity);
export const isFamily = (x: unknown): x is Family => FAMILY_IDENTITIES.some((f) => f.name === x);
export const identityOf = (family: Family): Identity => FAMILY_IDENTITIES.find((f) => f.name === family)!;

/** One field of every family's identity, by family. */
export function byFamily<K extends keyof Identity>(key: K): { readonly [I in Identity as I['name']]: I[K] } {
  return Object.fromEntries(FAMILY_IDENTITIES.map((f) => [f.name, f[key]])) as { readonly [I in Identity as I['name']]: I[K] };
}
