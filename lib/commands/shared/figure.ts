/** A figure as the commands print it: three significant figures, whole numbers from 100, ∞ for a ratio over nothing. */
export const round = (v: number) => (!Number.isFinite(v) ? '∞' : Math.abs(v) >= 100 ? Math.round(v).toString() : Number(v.toPrecision(3)).toString());

/** A rule's threshold on one figure: above a value, or below one. */
type Threshold = { readonly above?: number; readonly below?: number };

export const holds = (c: Threshold, v: number) => (c.above !== undefined ? v > c.above : v < c.below!);

/** A figure as evidence: its name, its value and the threshold it passed. */
export const cite = (c: Threshold & { readonly figure: string }, v: number) =>
  `${c.figure} ${round(v)} (${c.above !== undefined ? `above ${c.above}` : `below ${c.below}`})`;
