import { ConfigError, describeOffload, type FolioScenario } from '../../../../config';
import type { FamilyCost } from '../../../commands/cost/family-cost';
import type { FolioReport } from '../report/folio-summary';
import { folioCost } from './folio-cost';

/** `cost` for a FOLIO phase: a Serverless v2 offload cluster's average capacity, given or read from a report. */
export const FOLIO_COST_PART: FamilyCost<FolioScenario, FolioReport> = {
  costOptions: ['--observed-acu'],
  cost: folioCost,
  loadFromReport(report, scenario, path, given) {
    if (given.observedAverageAcu !== undefined || !scenario.phase.offload.serverless) return given;
    if (report.metrics.acu?.average == null) throw new ConfigError(`${path} has no Serverless v2 capacity (no data in its window)`);
    const window = [report.window.start, report.window.end].map((t) => t.replace(/\.000Z$/, 'Z')).join(' to ');
    return { ...given, observedAverageAcu: report.metrics.acu.average, observedFrom: `${report.scenario}, ${window}` };
  },
  checkCostInputs(scenario, inputs, from) {
    const observed = inputs.observedAverageAcu;
    if (observed === undefined) return;
    const range = scenario.phase.offload.serverless;
    if (!range)
      throw new ConfigError(
        `--observed-acu applies to a Serverless v2 offload cluster; ${scenario.name}'s is ${describeOffload(scenario.phase.offload)} (valid: a phase whose offload is serverless)`,
      );
    if (observed < range.min || observed > range.max)
      throw new ConfigError(`${from} ${observed} is outside ${scenario.name}'s range (valid: ${range.min}-${range.max} ACU, the phase's Serverless v2 range)`);
  },
};
