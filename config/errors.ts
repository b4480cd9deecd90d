import { distance } from 'fastest-levenshtein';
import { z } from './zod';

/** A problem in config or in what the user passed: shown as one line, never as a stack trace. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /**
   * Known by its name, not its copy of this module: a command loads a family's parts when it
   * first asks for them, and a test's module registry may hand that load a second copy of config/.
   */
  static override [Symbol.hasInstance](x: unknown): boolean {
    return x instanceof Error && x.name === 'ConfigError';
  }
}

/**
 * `(did you mean "test12"?)` when a candidate is close enough to be a plausible typo. Ties in
 * edit distance go to the candidate that is the same once dashes, dots and case are set aside
 * (`temporal150wps` is `temporal-150wps`, not `temporal-50wps`), then to the one listed first.
 */
export function didYouMean(value: string, candidates: readonly string[]): string {
  if (candidates.length === 0) return '';
  const plain = (x: string) => x.toLowerCase().replace(/[^a-z0-9]/g, '');
  const ranked = candidates
    .map((c) => ({ c, d: distance(value, c), same: plain(c) === plain(value) ? 0 : 1 }))
    // Stable: other ties keep the candidates' own order.
    .sort((a, b) => a.same - b.same || a.d - b.d);
  const best = ranked[0];
  return best.same === 0 || best.d <= Math.max(2, Math.floor(value.length / 3)) ? ` (did you mean "${best.c}"?)` : '';
}

/** A quoted value longer than this is shortened when shown; a line longer than LINE_LIMIT is cut. */
const QUOTED_LIMIT = 120;
const LINE_LIMIT = 2000;

/**
 * A message as the terminal shows it: one line whatever the user typed. A quoted value longer
 * than 120 characters is shortened (its length said), control characters (escape sequences,
 * newlines) are shown as escapes rather than acting on the terminal, and the line is cut at
 * 2,000 characters.
 */
export function forDisplay(message: string): string {
  // A quoted value opens after a space, bracket, '=' or ':' and closes before one (or the end):
  // the text between two values' quotes is never taken for a value.
  const quoted = new RegExp(`(^|[\\s(=:])"([^"]{${QUOTED_LIMIT + 1},})"(?=$|[\\s;),:.])`, 'g');
  const shortened = message.replace(quoted, (_, before: string, v: string) => `${before}"${v.slice(0, 100)}..." (${v.length} characters)`);
  const escaped = shortened.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) =>
    c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return escaped.length > LINE_LIMIT ? `${escaped.slice(0, LINE_LIMIT)}... (${escaped.length} characters)` : escaped;
}

/**
 * Runs `fn`; a ConfigError becomes one line on stderr and exit code 1. Anything else is a bug
 * and keeps its stack trace.
 */
export function exitOnConfigError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`error: ${forDisplay(e.message)}\n`);
      process.exit(1);
    }
    throw e;
  }
}

/*
 * What resolving a scenario from context says: the context keys, the scenario's name, its
 * family, and names an envName would make too long.
 */

/** `unknown scenario "tset12" (did you mean "test12"?); valid: baseline, test1, ...` */
export const unknownName = (what: string, value: string, valid: readonly string[]) =>
  `unknown ${what} "${value}"${didYouMean(value, valid)}; valid: ${valid.join(', ')}`;

/** `fleet "zero" is not valid (valid: running, parked, external)` */
export const notValid = (key: string, value: unknown, valid: string) => `${key} "${String(value)}" is not valid (valid: ${valid})`;

/** No scenario: the app asks for `-c scenario=`, a command names its own option. */
export const noScenario = (option: string | undefined, valid: readonly string[]) =>
  option ? `${option} is empty; valid: ${valid.join(', ')}` : `no scenario given: pass -c scenario=<name>; valid: ${valid.join(', ')}`;

/** Zod's type names as a sentence says them. */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  array: 'a list ([...])',
  object: 'an object ({ ... })',
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
};
const typeName = (t: string) => TYPE_NAMES[t] ?? `a ${t}`;
const entries = (n: number | bigint) => `${String(n)} ${n === 1 ? 'entry' : 'entries'}`;

/** A value as the message shows it: JSON, but NaN and Infinity by name (JSON would say null), and cut short where it is long. */
const shown = (v: unknown) => {
  const text = typeof v === 'number' && !Number.isFinite(v) ? String(v) : (JSON.stringify(v) ?? String(v));
  return text.length > 120 ? `${text.slice(0, 100)}… (${text.length} characters)` : text;
};

/** Zod's own wording for its built-in checks, said the way the rest of config says things. */
function wording(issue: z.core.$ZodIssue, got: unknown): string {
  const value = shown(got);
  if (!/^(Invalid|Too (small|big)|Expected|Unrecognized)/.test(issue.message))
    return issue.code === 'custom' ? issue.message : `${issue.message} (got ${value})`;
  switch (issue.code) {
    case 'invalid_type':
      return `${value} is not valid (valid: ${typeName(issue.expected)})`;
    case 'too_small':
      return Array.isArray(got)
        ? `needs at least ${entries(issue.minimum)} (got ${got.length})`
        : `${value} is below the minimum (valid: ${String(issue.minimum)} or more)`;
    case 'too_big':
      return Array.isArray(got)
        ? `takes at most ${entries(issue.maximum)} (got ${got.length})`
        : `${value} is above the maximum (valid: ${String(issue.maximum)} or less)`;
    case 'invalid_value':
      return `${value} is not valid (valid: ${issue.values.map((v) => shown(v)).join(', ')})`;
    default:
      return `${value} is not valid here`;
  }
}

/**
 * One zod issue of a parse of `input` against `schema`, in config's words (an unknown field with
 * the valid ones, a missing field with its type, a bad value with what is valid): for any file a
 * command reads with a schema, not only the catalog.
 */
export function issueWording(issue: z.core.$ZodIssue, input: unknown, schema: z.ZodType): string {
  if (issue.code === 'unrecognized_keys') return unknownName('field', issue.keys[0], keysAt(schema, issue.path));
  if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined)
    return `missing field "${String(issue.path.at(-1))}" (valid: ${typeName(issue.expected)})`;
  return wording(issue, valueAt(input, issue.path));
}

/** `<file>: <field path>: <what is wrong>`, for the first issue of a file's parse. */
export function fileIssue(file: string, error: z.ZodError, input: unknown, schema: z.ZodType): string {
  const issue = error.issues[0];
  return `${file}: ${issue.path.join('.') || 'the file'}: ${issueWording(issue, input, schema)}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((v, k) => (v == null ? v : (v as Record<PropertyKey, unknown>)[k]), root);
}

/** The field names the schema allows at `path` (for "valid: ..." in unknown-field errors). */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let s: z.ZodType = schema;
  for (const k of path) {
    s = unwrap(s);
    if (s instanceof z.ZodArray) s = s.element as z.ZodType;
    else if (s instanceof z.ZodObject) s = (s.shape as Record<string, z.ZodType>)[String(k)];
    if (!s) return [];
  }
  s = unwrap(s);
  return s instanceof z.ZodObject ? Object.keys(s.shape) : [];
}

function unwrap(s: z.ZodType): z.ZodType {
  for (;;) {
    if (s instanceof z.ZodReadonly || s instanceof z.ZodOptional) s = s.unwrap() as z.ZodType;
    else if (s instanceof z.ZodPipe) s = s.in as z.ZodType;
    else return s;
  }
}
