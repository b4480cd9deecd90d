/*
 * Money as the commands print and compute it: dollars a day, from hourly and monthly prices.
 * `cost`, `capacity` and `plan` all price things; they share these so that one figure reads
 * the same everywhere.
 */

export const HOURS_PER_DAY = 24;
/** AWS bills monthly prices over 730 hours. */
const HOURS_PER_MONTH = 730;

/** A monthly price as dollars a day. */
export const perDayFromMonthly = (usdPerMonth: number) => (usdPerMonth * HOURS_PER_DAY) / HOURS_PER_MONTH;

/** An amount to the cent, thousands separated: $247.16, $4,500.00, -$35.20. */
export const usd = (v: number) => `${v < 0 ? '-' : ''}$${Math.abs(v).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const decimals = (v: number) => (String(v).split('.')[1] ?? '').length;

/** A unit price with the digits it needs: $0.3638, $0.0000095. */
export const unitPrice = (v: number) =>
  `$${v >= 0.01 ? Number(v.toFixed(4)).toFixed(Math.max(2, decimals(Number(v.toFixed(4))))) : v.toPrecision(2).replace(/0+$/, '')}`;
