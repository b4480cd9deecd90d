import { ConfigError } from './errors';

/*
 * Scenarios written as what they change. A family's scenarios are a chain: the first is written
 * whole, and each later one is its predecessor (the entry before it, or the one it names in
 * `from`) with the fields its experiment changes. What a scenario is about rather than what it
 * deploys (its name, note, observation and recorded results) is never inherited.
 */

/** A value that replaces the predecessor's whole instead of being merged into it. */
class Whole<T> {
  constructor(readonly value: T) {}
}

/** Replace the predecessor's value whole (e.g. an offload cluster that changes kind). */
export const whole = <T>(value: T): Whole<T> => new Whole(value);

/** An array change that adds to the predecessor's items: `routedToOffload: append('mod-lists')`. */
export const append =
  <T>(...items: T[]) =>
  (before: readonly T[]): T[] => [...before, ...items];

type Plain = Record<string, unknown>;
const isPlain = (x: unknown): x is Plain => typeof x === 'object' && x !== null && !Array.isArray(x) && !(x instanceof Whole);

/** A deep partial: objects are merged key by key, scalars replaced, arrays replaced or extended (`(before) => [...before, x]`). */
type Changes<T> = {
  readonly [K in keyof T]?: T[K] extends readonly unknown[]
    ? T[K] | ((before: T[K]) => T[K])
    : NonNullable<T[K]> extends Plain
      ? Changes<NonNullable<T[K]>> | Whole<T[K]>
      : T[K];
};

/** One step of a chain: its name, optionally the scenario it follows, and what it changes. */
export type Step<T extends { name: string }, Own extends keyof T> = { readonly name: string; readonly from?: string } & Changes<Omit<T, 'name' | Own>> &
  Pick<Partial<T>, Own>;

function merge(base: unknown, change: unknown): unknown {
  if (change instanceof Whole) return change.value;
  if (typeof change === 'function') return change(base);
  if (!isPlain(base) || !isPlain(change)) return change;
  const out: Plain = { ...base };
  for (const [k, v] of Object.entries(change)) out[k] = v === undefined ? undefined : merge(base[k], v);
  return out;
}

/** A chain written out: every scenario whole, and the one each follows (the first follows none). */
export interface Chain<T> {
  readonly scenarios: T[];
  readonly predecessors: Readonly<Record<string, string>>;
}

/**
 * The chain's scenarios written out whole. `own` names the fields each scenario says for itself
 * (never inherited); a `from` that names no earlier scenario is an error of config's own source.
 */
export function chain<T extends { name: string }, Own extends keyof T>(own: readonly Own[], first: T, ...steps: readonly Step<T, Own>[]): Chain<T> {
  const scenarios: T[] = [first];
  const predecessors: Record<string, string> = {};
  for (const { from, ...step } of steps) {
    const before = from === undefined ? scenarios[scenarios.length - 1] : scenarios.find((s) => s.name === from);
    if (!before) throw new ConfigError(`scenario "${step.name}" follows "${from}", which is not written before it`);
    const inherited = Object.fromEntries(Object.entries(before).filter(([k]) => !(own as readonly string[]).includes(k)));
    scenarios.push(Object.fromEntries(Object.entries(merge(inherited, step) as Plain).filter(([, v]) => v !== undefined)) as T);
    predecessors[step.name] = before.name;
  }
  return { scenarios, predecessors };
}
