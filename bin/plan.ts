#!/usr/bin/env node
import { EXIT_UNSAFE, runCommand, newCommand } from '../lib/commands/shared/cli';
import { planTransition, renderPlan } from '../lib/commands/plan/transition-plan';

const program = newCommand('plan')
  .description(
    'What deploying one scenario over another would do, stack by stack: resources added, modified (with the properties and\n' +
      "CloudFormation's update impact), replaced or destroyed. Offline: synthesizes both scenarios, needs no AWS account.\n" +
      `Exits ${EXIT_UNSAFE} when a stateful resource would be replaced or destroyed.`,
  )
  .requiredOption('--from <scenario>', 'the scenario deployed now')
  .requiredOption('--to <scenario>', 'the scenario to deploy next')
  .option('--env-name <name>', 'the envName the stacks were deployed with, if any')
  .option('--json', 'print the plan as JSON instead of markdown')
  .addHelpText('after', '\nExample:\n  npm run plan -- --from test11 --to test12');

interface Options {
  from: string;
  to: string;
  envName?: string;
  json?: boolean;
}

void runCommand(async () => {
  const o = program.parse().opts<Options>();
  const plan = planTransition(o.from, o.to, { envName: o.envName });
  if (o.json) {
    const stacks = plan.stacks.map((s) => ({ stackName: s.stackName, changes: s.changes }));
    process.stdout.write(`${JSON.stringify({ from: plan.from.name, to: plan.to.name, stacks, unsafe: plan.unsafe.length, ...(plan.moves ? { moves: plan.moves } : {}) }, null, 2)}\n`);
  } else {
    process.stdout.write(renderPlan(plan));
  }
  return plan.unsafe.length ? EXIT_UNSAFE : 0;
});
