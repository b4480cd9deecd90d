import type { z } from './zod';
import { issueWording } from './errors';
import { FAMILY_IDENTITIES, byFamily, type Family, isFamily } from './family-registry';

/*
 * Config problems as one line each: where (the scenario, or the section every scenario of a
 * family shares) and what is valid, in the words the rest of config uses; and a scenario of
 * the wrong family, named as such.
 */

/** A context key one family reads, given for a scenario of another: `fleet applies to Temporal presets only; ...`. */
export const keyOfAnotherFamily = (key: string, name: string, got: Family, owner: Family, valid: readonly string[]) =>
  `${key} applies to ${FAMILY_NAME[owner]}s only; "${name}" is a ${FAMILY_NAME[got]} (valid: no ${key}, or a ${FAMILY_NAME[owner]}: ${valid.join(', ')})`;

/** A command that works on one family, given a scenario of the other. */
export const wrongFamily = (use: { readonly option: string; readonly command: string }, name: string, got: Family, wanted: Family, valid: readonly string[]) =>
  `${use.option} "${name}" is a ${FAMILY_NAME[got]}; ${use.command} takes a ${FAMILY_NAME[wanted]} (valid: ${valid.join(', ')})`;

export type { Family } from './family-registry';
export const TABLE = byFamily('table');
/** What one scenario of each family is called in messages. */
export const FAMILY_NAME = byFamily('scenarioName');

export const rowsOf = (input: unknown, family: Family): { name?: unknown }[] => {
  const rows = (input as Record<string, Record<string, unknown>> | undefined)?.[family]?.[TABLE[family]];
  return Array.isArray(rows) ? rows : [];
};
export const rawNames = (input: unknown) => FAMILY_IDENTITIES.flatMap((f) => rowsOf(input, f.name).map((r) => String(r?.name)));

/** The scenario an issue is about, or only its family's section (shared by all its scenarios). */
export function scopeOf(issue: z.core.$ZodIssue, input: unknown): { family?: Family; scenario?: string } {
  const [family, table, index] = issue.path;
  if (!isFamily(family)) return {};
  if (table === TABLE[family] && typeof index === 'number') return { family, scenario: String(rowsOf(input, family)[index]?.name) };
  return { family };
}

/**
 * `config error in scenario "test7" (serverlessAcu.max): 32.3 ACU is off the 0.5 grid (...)`:
 * every issue of a parse against `schema` (the catalog's), each where it is and what is valid.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[], input: unknown, schema: z.ZodType, target?: { family: Family; name: string }): string {
  // A misspelled field also shows up as a missing one; the misspelling is the one to report.
  const misspelt = new Set(issues.filter((i) => i.code === 'unrecognized_keys').map((i) => i.path.join('.')));
  const shown = issues.filter((i) => !(i.code === 'invalid_type' && misspelt.has(i.path.slice(0, -1).join('.'))));
  const parts = shown.map((i) => describeIssue(i, input, schema, target));
  return `config error in ${[...new Set(parts)].join('; in ')}`;
}

function describeIssue(first: z.core.$ZodIssue, input: unknown, schema: z.ZodType, target?: { family: Family; name: string }): string {
  let where = first.path.join('.');
  const [family, table, index] = first.path;
  if (isFamily(family) && table === TABLE[family] && typeof index === 'number') {
    const phaseName = rowsOf(input, family)[index]?.name;
    const rest = first.path.slice(3).join('.');
    where = `scenario "${String(phaseName)}"${rest ? ` (${rest})` : ''}`;
  }
  const scope = scopeOf(first, input);
  const shared =
    target && scope.family === target.family && scope.scenario === undefined
      ? ` (shared by every ${FAMILY_NAME[target.family]}, ${target.name} among them)`
      : '';
  return `${where}: ${issueWording(first, input, schema)}${shared}`;
}
