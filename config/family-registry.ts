import { FOLIO_IDENTITY } from './folio-identity';
import { TEMPORAL_IDENTITY } from './temporal-identity';

/* The families config holds, each described by its own file: the one place in config that lists them. */

export const FAMILY_IDENTITIES = [FOLIO_IDENTITY, TEMPORAL_IDENTITY] as const;

type Identity = (typeof FAMILY_IDENTITIES)[number];
export type Family = Identity['name'];

export const isFamily = (x: unknown): x is Family => FAMILY_IDENTITIES.some((f) => f.name === x);
export const identityOf = (family: Family): Identity => FAMILY_IDENTITIES.find((f) => f.name === family)!;

/** One field of every family's identity, by family. */
export function byFamily<K extends keyof Identity>(key: K): { readonly [I in Identity as I['name']]: I[K] } {
  return Object.fromEntries(FAMILY_IDENTITIES.map((f) => [f.name, f[key]])) as { readonly [I in Identity as I['name']]: I[K] };
}
