import { type App, Aspects, type Stack, Tags } from 'aws-cdk-lib/core';
import type { Scenario } from '../../config';
import { stacksOf } from '../families';
import { AcknowledgeCdkDependsOn, AcknowledgeShortLogRetention, CheckovSkips } from '../platform/constructs/lint-acknowledgements';
import { ObservabilityStack } from '../observability-stack';
import { ENVIRONMENT_TAG } from '../platform/contract/physical-names';

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
  const family = stacksOf(scenario);
  const { stack: data, deployed } = family.addDataStack(app, scenario);
  const observability = new ObservabilityStack(app, scenario.environment.observability.stackName, {
    scenario,
    env: scenario.env,
    catalog: family.metricCatalog(scenario, deployed),
    header: family.dashboardHeader(scenario),
  });
  const stacks: ScenarioStacks = { data, observability };
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
