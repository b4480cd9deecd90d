#!/usr/bin/env node
import type { Command } from 'commander';
import { type EnvironmentCommand, type EnvironmentOptions, runEnvironment } from '../lib/commands/environment/run-environment';
import { entryPoint, EXIT_FAILED, EXIT_TIMEOUT, newCommand, runCommand, sharedOption } from '../lib/commands/shared/cli';

const program = newCommand('environment', {
  aws: true,
  [EXIT_TIMEOUT]: 'a wait ran past --timeout (nothing is undone; run it again to go on)',
  [EXIT_FAILED]: 'refused or failed (the line says why)',
}).description(
  'A whole environment down to what its data costs, and back: Temporal services and both pools to 0 (kept so by every deploy until woken), or FOLIO clusters stopped.',
);

const subcommand = (name: EnvironmentCommand, description: string, timeout: string): Command =>
  program
    .command(name)
    .description(description)
    .addOption(sharedOption.scenario('the scenario the environment was deployed with (its family, stacks and sizes)').makeOptionMandatory())
    .addOption(sharedOption.envName())
    .option('--timeout <duration>', 'how long to wait, a Go duration such as 30m', timeout)
    .option('--interval <duration>', 'how often to poll', '15s')
    .addOption(sharedOption.endpointUrl());

const action = (name: EnvironmentCommand) => (o: EnvironmentOptions) => runCommand(() => runEnvironment(name, o));

subcommand('status', 'print whether the environment is hibernated, and what runs', '1m')
  .addOption(sharedOption.json('print the status as JSON'))
  .action(action('status'));
subcommand('hibernate', 'stop everything but the data, in order, and keep it so across deploys', '60m')
  .option('--force', 'hibernate even while a load generator runs: it is stopped first (its run is lost)')
  .action(action('hibernate'));
subcommand('wake', "bring back the deployed scenario's sizes, in start order, and wait until every service is healthy", '60m').action(action('wake'));

entryPoint(() => program.parse());
