#!/usr/bin/env node
import { type CampaignCommand, type CampaignOptions, runCampaignCommand } from '../lib/campaign/run-campaign';
import { entryPoint, EXIT_FAILED, newCommand, runCommand, sharedOption } from '../lib/commands/shared/cli';

const program = newCommand('campaign', {
  aws: true,
  [EXIT_FAILED]: 'a step failed or the budget refused one (the line says which and why; the record keeps where to resume)',
}).description(
  'A campaign (config/campaigns.ts): scenarios of one family deployed, loaded and reported one after another, unattended;\n' +
    'resumed from its record when run again; ended hibernated. plan and report need no AWS account.',
);

const subcommand = (name: CampaignCommand, description: string) =>
  program
    .command(name)
    .argument('<campaign>', 'the campaign: its name in config/campaigns.ts, or the path of a YAML or JSON file of one')
    .description(description)
    .addOption(sharedOption.envName())
    .option('--out <dir>', 'the campaign record and report directory (default: reports/campaigns/<campaign>)')
    .option('--interval <duration>', 'run: how often waits poll (default: 15s)')
    .addOption(sharedOption.endpointUrl('run: an AWS-API-compatible endpoint instead of AWS (a local emulator)'))
    .option(
      '--prometheus-url <url>',
      "run, Temporal: a Prometheus-compatible query endpoint each step's report reads instead of the stack's Managed Prometheus workspace (as report's)",
    )
    .action((campaign: string, o: CampaignOptions) => runCommand(() => runCampaignCommand(name, campaign, o)));

subcommand('plan', 'the steps, their switches and the spend projected against the budget, from the record if it has started; touches nothing');
subcommand('run', 'run the campaign, or resume it where its record stopped: each step planned, moved, deployed, woken, loaded and reported');
subcommand('report', 'the campaign report from its record: every step side by side, and charts');

entryPoint(() => program.parse());
