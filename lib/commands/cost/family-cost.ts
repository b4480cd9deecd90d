import type { Scenario } from '../../../config';
import type { PriceFile } from '../../../config/prices';
import type { CostEstimate, CostInputs } from '../shared/cost-model';

/** `cost`: what it asks of a family. `R`: the family's report, from which `--report` reads the load. */
export interface FamilyCost<S extends Scenario, R> {
  /** The options only this family takes. */
  readonly costOptions: readonly string[];
  /** Its daily cost, line by line. */
  cost(scenario: S, prices: PriceFile, inputs: CostInputs): CostEstimate;
  /** `cost --report`: the load a report of this family measured, as cost inputs. */
  loadFromReport(report: R, scenario: S, path: string, given: CostInputs): CostInputs;
  /** Refuses inputs that do not fit the scenario (one line). */
  checkCostInputs(scenario: S, inputs: CostInputs, from: string): void;
}
