#!/usr/bin/env node
import { type CapacityOptions, runCapacity } from '../lib/temporal/commands/capacity/run-capacity';
import { entryPoint, newCommand, runCommand, sharedOption } from '../lib/commands/shared/cli';

const program = newCommand('capacity', { aws: true })
  .description(
    "Packs a Temporal preset's tasks (CPU, memory, awsvpc ENI slots with and without ENI trunking) onto its capacity providers'\n" +
      'instances: how full each ASG is, the smallest ASG that fits with room for a rolling deploy, and what it costs per day.\n' +
      'The same model refuses an undersized preset at synth time. Offline.',
  )
  .addOption(sharedOption.scenario('a Temporal preset', 'temporal'))
  .option(
    '--rate <workflows/s>',
    'propose a whole preset for this rate instead: each number from the sizing rule (docs/configuration.md), checked as synth checks it, priced as cost prices it',
  )
  .option('--store <store>', "the proposal's history store: dsql (the default) or aurora")
  .option('--write <name>', 'add the proposal to config/temporal-scenarios.ts under this name')
  .addOption(sharedOption.envName())
  .option('--quota-from-aws', "read the account's On-Demand standard vCPU quota from Service Quotas (servicequotas:GetServiceQuota) instead of config")
  .addOption(sharedOption.endpointUrl('an AWS-compatible endpoint for --quota-from-aws (a local emulator)'))
  .addOption(sharedOption.json('print the plan as JSON'))
  .addHelpText(
    'after',
    '\nExamples:\n  npm run capacity -- --scenario temporal-150wps\n  npm run capacity -- --rate 500\n  npm run capacity -- --rate 500 --write temporal-500wps',
  );

entryPoint(() => runCommand(() => runCapacity(program.parse().opts<CapacityOptions>())));
