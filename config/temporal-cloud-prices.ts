/*
 * Temporal Cloud's pay-as-you-go price for actions, as data: what `cost` sets a self-hosted
 * preset against. Each tier is the price per million actions of the month's actions up to its
 * bound; past the last tier Temporal Cloud prices by contract, and the comparison says so.
 */
export const TEMPORAL_CLOUD_ACTIONS = {
  source:
    'Temporal Cloud pricing, pay-as-you-go actions: temporalio/documentation docs/evaluate/cloud/pricing.mdx at 0217b718 (docs.temporal.io/cloud/pricing)',
  asOf: '2026-12-07',
  /** Millions of actions a month each tier runs up to, and its price per million. */
  tiers: [
    { upToMillions: 5, usdPerMillion: 50 },
    { upToMillions: 10, usdPerMillion: 45 },
    { upToMillions: 20, usdPerMillion: 40 },
    { upToMillions: 50, usdPerMillion: 35 },
    { upToMillions: 100, usdPerMillion: 30 },
    { upToMillions: 200, usdPerMillion: 25 },
  ],
} as const;
