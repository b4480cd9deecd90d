import { z } from './zod';
import { checkFolio, folioEnvironmentSchema, folioModuleSchema, folioPhaseSchema } from './folio-schema';
import { checkTemporal } from './temporal-checks';
import { temporalEnvironmentSchema, temporalScenarioSchema } from './temporal-schema';

/*
 * The whole catalog: both families' sections and the rules across them. Each family's own
 * schema is in folio-schema.ts and temporal-schema.ts.
 */

const folioSection = z.strictObject({
  environment: folioEnvironmentSchema,
  modules: z.array(folioModuleSchema).min(1).readonly(),
  phases: z.array(folioPhaseSchema).min(1).readonly(),
});
const temporalSection = z.strictObject({
  environment: temporalEnvironmentSchema,
  scenarios: z.array(temporalScenarioSchema).min(1).readonly(),
});

export const catalogSchema = z.strictObject({ folio: folioSection, temporal: temporalSection }).superRefine((catalog, ctx) => {
  checkFolio(catalog.folio, ctx);
  checkTemporal(catalog.temporal, ctx);
  // One `-c scenario=` namespace across families.
  const temporal = new Set(catalog.temporal.scenarios.map((s) => s.name));
  for (const p of catalog.folio.phases)
    if (temporal.has(p.name))
      ctx.addIssue({
        code: 'custom',
        path: ['temporal', 'scenarios'],
        message: `scenario "${p.name}" is both a FOLIO phase and a Temporal scenario`,
        input: p.name,
      });
});

/**
 * One family's part of the catalog, the other left unchecked: how a scenario is resolved when
 * something elsewhere in config is broken that it does not depend on.
 */
export const familyCatalogSchemas = {
  folio: z.object({ folio: folioSection, temporal: z.unknown() }).superRefine((c, ctx) => checkFolio(c.folio, ctx)),
  temporal: z.object({ folio: z.unknown(), temporal: temporalSection }).superRefine((c, ctx) => checkTemporal(c.temporal, ctx)),
};

export type CatalogInput = z.input<typeof catalogSchema>;
export type Catalog = z.output<typeof catalogSchema>;
