import type { TemporalScenario } from '../../../../config';
import { ladderRates } from '../../../../config/bench-load';
import type { CampaignLoad } from '../../../../config/campaign-schema';
import { durationSeconds } from '../../../../config/fields';

/** A generator task's placement and drain around its load: about a minute to place, a few to drain. */
const GENERATOR_OVERHEAD_HOURS = 5 / 60;

const hours = (d: string) => durationSeconds(d) / 3600;

/** `campaign plan`: how long a bench run or ladder of the preset runs at most, in hours (what the projection bills it for). */
export function benchLoadHours(load: CampaignLoad, scenario: TemporalScenario): number | undefined {
  if (load.kind === 'bench-run') {
    const b = scenario.preset.benchmark;
    return hours(load.duration ?? b.duration) + hours(load.rampUp ?? b.rampUp) + GENERATOR_OVERHEAD_HOURS;
  }
  if (load.kind !== 'bench-ladder') return undefined;
  const l = scenario.environment.observability.ladder;
  const rates = ladderRates({ rates: load.rates, from: load.from ?? scenario.preset.benchmark.targetRate, upTo: load.upTo, maxSteps: l.maxSteps });
  return rates.length * (hours(load.step ?? l.step) + GENERATOR_OVERHEAD_HOURS);
}
