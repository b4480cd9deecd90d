/** A figure as the commands print it: three significant figures, whole numbers from 100, ∞ for a ratio over nothing. */
export const round = (v: number) => (!Number.isFinite(v) ? '∞' : Math.abs(v) >= 100 ? Math.round(v).toString() : Number(v.toPrecision(3)).toString());
