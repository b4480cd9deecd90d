import { ConfigError, type TemporalScenario } from '../../../../config';
import type { FamilyCost } from '../../../commands/cost/family-cost';
import type { TemporalReport } from '../report/temporal-summary';
import { temporalCost } from './temporal-cost';

/** `cost` for a Temporal preset: a DSQL store's transaction rate, given or read from a report, and the fleet's hours. */
export const TEMPORAL_COST_PART: FamilyCost<TemporalScenario, TemporalReport> = {
  costOptions: ['--tx-rate', '--load-hours'],
  cost: temporalCost,
  loadFromReport(report, scenario, path, given) {
    if (scenario.preset.store.engine !== 'dsql')
      throw new ConfigError(
        `--report ${path}: ${scenario.name}'s history is in ${scenario.preset.store.engine}, whose writer bills by the hour whatever the load, so a report's transaction rate changes nothing (valid: a DSQL preset's report)`,
      );
    if (given.transactionsPerSecond !== undefined) return given;
    const perMinute = report.metrics.transactions.totalPerMinute.average;
    if (perMinute === null) throw new ConfigError(`${path} has no DSQL transaction rate (no data in its window)`);
    return { ...given, transactionsPerSecond: perMinute / 60 };
  },
  checkCostInputs(scenario, inputs) {
    if (scenario.preset.store.engine !== 'dsql' && inputs.transactionsPerSecond !== undefined)
      throw new ConfigError(
        `--tx-rate does not apply to ${scenario.name} (its history is in ${scenario.preset.store.engine}, whose writer bills by the hour whatever the load; valid: a DSQL preset)`,
      );
  },
};
