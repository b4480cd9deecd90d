import { CATALOG } from '../../config';

/**
 * A rate no Temporal preset has, in the widest gap between two DSQL presets: a proposal's tests
 * use it, so they hold whatever presets a user adds (configuration.md's walkthrough adds one).
 */
export function rateNoPresetHas(): number {
  const rates = [...new Set(CATALOG.temporal.scenarios.filter((p) => p.store.engine === 'dsql').map((p) => p.benchmark.targetRate))].sort((a, b) => a - b);
  const gaps = rates.slice(1).map((b, i) => [rates[i], b] as const);
  const [a, b] = gaps.reduce((w, g) => (g[1] - g[0] > w[1] - w[0] ? g : w));
  return Math.floor((a + b) / 2);
}
