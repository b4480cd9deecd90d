/** A figure as the commands print it: three significant figures, whole numbers from 100 (thousands separated), ∞ for a ratio over nothing. */
export const round = (v: number) =>
  !Number.isFinite(v) ? '∞' : Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en-US') : Number(v.toPrecision(3)).toString();

/** A rule's threshold on one figure: above a value, or below one. */
type Threshold = { readonly above?: number; readonly below?: number };

export const holds = (c: Threshold, v: number) => (c.above !== undefined ? v > c.above : v < c.below!);

/** A figure as evidence: its name, its value and the threshold it passed. */
export const cite = (c: Threshold & { readonly figure: string }, v: number) =>
  `${c.figure} ${round(v)} (${c.above !== undefined ? `above ${c.above}` : `below ${c.below}`})`;

/** A count with its noun, thousands separated and the plural right: 1 module, 2 modules, 1,200 schemas. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** A percentage as people read it: whole from 1% up, one significant figure below it (0.3%), so a small share is never shown as 0%. */
export const percent = (v: number) => `${v !== 0 && Math.abs(v) < 0.995 ? Number(v.toPrecision(1)) : Math.round(v).toLocaleString('en-US')}%`;
