import { type App, Aspects, type Stack } from 'aws-cdk-lib';
import type { Scenario } from '../config';
import { HybridAuroraStack } from './hybrid-aurora-stack';
import { AcknowledgeCdkDependsOn } from './lint-acknowledgements';
import { TemporalDsqlStack } from './temporal-dsql-stack';

/**
 * The stacks of a scenario's family. Stack names come from config and never contain the
 * scenario, so the next phase updates the same stacks in place.
 */
export function addScenarioStacks(app: App, scenario: Scenario): Stack[] {
  const stacks = familyStacks(app, scenario);
  for (const stack of stacks) Aspects.of(stack).add(new AcknowledgeCdkDependsOn());
  return stacks;
}

function familyStacks(app: App, scenario: Scenario): Stack[] {
  switch (scenario.family) {
    case 'folio':
      return [new HybridAuroraStack(app, scenario.stackName, { scenario, env: scenario.env })];
    case 'temporal':
      return [new TemporalDsqlStack(app, scenario.stackName, { scenario, env: scenario.env })];
  }
}
