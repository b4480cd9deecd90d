import { z } from './zod';
import { FAMILY_CATALOGS, type Family } from './family-registry';

/*
 * The whole catalog: every registered family's section (config/<family>-catalog.ts) and the
 * rules across families.
 */

export type { Catalog, CatalogInput } from './family-registry';

const sections = Object.fromEntries(FAMILY_CATALOGS.map((c) => [c.identity.name, c.section])) as {
  readonly [C in (typeof FAMILY_CATALOGS)[number] as C['identity']['name']]: C['section'];
};

/** Each family's scenario names, from a parsed section. */
const namesIn = (c: (typeof FAMILY_CATALOGS)[number], section: unknown): string[] =>
  ((section as Record<string, readonly { name: string }[]>)[c.identity.table] ?? []).map((r) => r.name);

export const catalogSchema = z.strictObject(sections).superRefine((catalog, ctx) => {
  for (const c of FAMILY_CATALOGS) (c.check as (s: unknown, ctx: z.core.$RefinementCtx) => void)(catalog[c.identity.name], ctx);
  // One `-c scenario=` namespace across families.
  const seen = new Map<string, Family>();
  for (const c of FAMILY_CATALOGS)
    for (const name of namesIn(c, catalog[c.identity.name])) {
      const first = seen.get(name);
      if (first)
        ctx.addIssue({
          code: 'custom',
          path: [c.identity.name, c.identity.table],
          message: `scenario "${name}" is both a ${FAMILY_CATALOGS.find((f) => f.identity.name === first)!.identity.scenarioName} and a ${c.identity.scenarioName}`,
          input: name,
        });
      else seen.set(name, c.identity.name);
    }
});

/**
 * One family's part of the catalog, the others left unchecked: how a scenario is resolved when
 * something elsewhere in config is broken that it does not depend on.
 */
export const familyCatalogSchemas: Readonly<Record<Family, z.ZodType>> = Object.fromEntries(
  FAMILY_CATALOGS.map((c): [Family, z.ZodType] => [
    c.identity.name,
    z
      .object({ ...Object.fromEntries(FAMILY_CATALOGS.map((o) => [o.identity.name, z.unknown()])), [c.identity.name]: c.section })
      .superRefine((catalog, ctx) => (c.check as (s: unknown, ctx: z.core.$RefinementCtx) => void)(catalog[c.identity.name], ctx)),
  ]),
) as Record<Family, z.ZodType>;
