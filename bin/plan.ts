#!/usr/bin/env node
import { type PlanOptions, runPlan } from '../lib/commands/plan/run-plan';
import { entryPoint, EXIT_UNSAFE, newCommand, runCommand, sharedOption } from '../lib/commands/shared/cli';

const program = newCommand('plan', { aws: true, [EXIT_UNSAFE]: 'a stateful resource would be replaced or destroyed' })
  .description(
    'What deploying one scenario over another would do, stack by stack: resources added, modified (with the properties and\n' +
      "CloudFormation's update impact), replaced or destroyed. Offline: synthesizes both scenarios, needs no AWS account\n" +
      'unless --check-deployed reads the deployed stack.',
  )
  .requiredOption('--from <scenario>', 'the scenario deployed now')
  .option('--to <scenario>', 'the scenario to deploy next')
  .option('--proposal <report.json>', 'instead of --to: the phase a FOLIO report\'s "What to try next" proposed')
  .addOption(sharedOption.envName())
  .addOption(sharedOption.json('print the plan as JSON instead of markdown'))
  .option(
    '--check-deployed',
    'also read the deployed data stack (cloudformation:DescribeStacks): --from must be the scenario it was last deployed with, and what it keeps for life (numHistoryShards) must not change',
  )
  .addOption(sharedOption.endpointUrl('with --check-deployed: an AWS-API-compatible endpoint instead of AWS (a local emulator)'))
  .addHelpText('after', '\nExample:\n  npm run plan -- --from test11 --to test12');

entryPoint(() => runCommand(() => runPlan(program.parse().opts<PlanOptions>())));
