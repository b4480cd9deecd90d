import type { TemporalScenario } from '../../config';
import type { FamilyStacks } from '../platform/family';
import { TemporalDsqlStack } from '../temporal-dsql-stack';
import type { TemporalDeployed } from './contract/temporal-metrics';

/** The Temporal family's stacks: loaded by synth, never by a command. */
export const TEMPORAL_STACKS: FamilyStacks<TemporalScenario> = {
  addDataStack(app, scenario) {
    const stack = new TemporalDsqlStack(app, scenario.stackName, { scenario, env: scenario.env });
    const deployed: TemporalDeployed = { dsqlClusterId: stack.historyStore.dsql?.identifier };
    return { stack, deployed };
  },
};
