import type { FamilyIdentity } from './family-identity';

/** Temporal's presets as config names them: temporal.scenarios; a campaign step runs bench's run or ladder. */
export const TEMPORAL_IDENTITY = {
  name: 'temporal',
  table: 'scenarios',
  scenarioName: 'Temporal preset',
  loads: ['bench-run', 'bench-ladder'],
} as const satisfies FamilyIdentity;

/** A Temporal preset, among any family's scenarios (what a check of bench's loads reads). */
export const isTemporal = <S extends { readonly family: string }>(s: S): s is Extract<S, { family: 'temporal' }> => s.family === TEMPORAL_IDENTITY.name;
