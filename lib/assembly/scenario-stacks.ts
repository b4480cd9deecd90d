import { type App, Aspects, type Stack, Tags } from 'aws-cdk-lib';
import type { Scenario } from '../../config';
import { HybridAuroraStack } from '../hybrid-aurora-stack';
import { AcknowledgeCdkDependsOn, AcknowledgeShortLogRetention, CheckovSkips } from '../constructs/lint-acknowledgements';
import { ObservabilityStack } from '../observability-stack';
import { TemporalDsqlStack } from '../temporal-dsql-stack';
import { ENVIRONMENT_TAG } from '../contract/physical-names';

/** A scenario's stacks: the family's data stack, and its dashboards and alarms beside it. */
export interface ScenarioStacks {
  readonly data: Stack;
  readonly observability: ObservabilityStack;
}

/**
 * The stacks of a scenario's family. Stack names come from config and never contain the
 * scenario, so the next phase updates the same stacks in place.
 */
export function addScenarioStacks(app: App, scenario: Scenario): ScenarioStacks {
  const observabilityProps = { scenario, env: scenario.env };
  let stacks: ScenarioStacks;
  switch (scenario.family) {
    case 'folio': {
      const data = new HybridAuroraStack(app, scenario.stackName, { scenario, env: scenario.env });
      stacks = { data, observability: new ObservabilityStack(app, scenario.environment.observability.stackName, observabilityProps) };
      break;
    }
    case 'temporal': {
      const data = new TemporalDsqlStack(app, scenario.stackName, { scenario, env: scenario.env });
      const observability = new ObservabilityStack(app, scenario.environment.observability.stackName, {
        ...observabilityProps,
        dsqlClusterId: data.historyStore.dsql?.identifier,
      });
      stacks = { data, observability };
      break;
    }
  }
  stacks.observability.addStackDependency(stacks.data, 'graphs and alarms name resources of the data stack');
  const checkov = new CheckovSkips();
  for (const stack of [stacks.data, stacks.observability]) {
    // What the environment's budget counts: every taggable resource, named by its data stack.
    Tags.of(stack).add(ENVIRONMENT_TAG, scenario.stackName);
    Aspects.of(stack).add(new AcknowledgeCdkDependsOn());
    Aspects.of(stack).add(new AcknowledgeShortLogRetention());
    Aspects.of(stack).add(checkov);
  }
  return stacks;
}
