/** One leaf that differs: where, and its two values (undefined where a side has none). */
export interface LeafChange {
  readonly path: readonly (string | number)[];
  readonly from: unknown;
  readonly to: unknown;
}

interface Options {
  /** `whole`: an array is one leaf; `items`: item by item where the lengths agree (a container's one changed variable). */
  readonly arrays: 'whole' | 'items';
}

/** Every leaf that differs between two JSON values. */
export function leafChanges(a: unknown, b: unknown, options: Options = { arrays: 'whole' }, path: readonly (string | number)[] = []): LeafChange[] {
  const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  if (isObject(a) && isObject(b)) return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((k) => leafChanges(a[k], b[k], options, [...path, k]));
  if (options.arrays === 'items' && Array.isArray(a) && Array.isArray(b) && a.length === b.length)
    return a.flatMap((x, i) => leafChanges(x, b[i], options, [...path, i]));
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [{ path, from: a, to: b }];
}

/** `path: before -> after` for every leaf that differs. */
export function leafDiff(a: unknown, b: unknown, options?: Options): string[] {
  const show = (x: unknown) => (x === undefined ? '(none)' : JSON.stringify(x));
  return leafChanges(a, b, options).map((c) => `${c.path.join('.')}: ${show(c.from)} -> ${show(c.to)}`);
}
