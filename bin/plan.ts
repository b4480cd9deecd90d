#!/usr/bin/env node
import { type PlanOptions, runPlan } from '../lib/commands/plan/run-plan';
import { entryPoint, EXIT_UNSAFE, newCommand, runCommand } from '../lib/commands/shared/cli';

const program = newCommand('plan')
  .description(
    'What deploying one scenario over another would do, stack by stack: resources added, modified (with the properties and\n' +
      "CloudFormation's update impact), replaced or destroyed. Offline: synthesizes both scenarios, needs no AWS account.\n" +
      `Exits ${EXIT_UNSAFE} when a stateful resource would be replaced or destroyed.`,
  )
  .requiredOption('--from <scenario>', 'the scenario deployed now')
  .option('--to <scenario>', 'the scenario to deploy next')
  .option('--proposal <report.json>', 'instead of --to: the phase a FOLIO report\'s "What to try next" proposed')
  .option('--env-name <name>', 'the envName the stacks were deployed with, if any')
  .option('--json', 'print the plan as JSON instead of markdown')
  .addHelpText('after', '\nExample:\n  npm run plan -- --from test11 --to test12');

entryPoint(() => runCommand(() => runPlan(program.parse().opts<PlanOptions>())));
