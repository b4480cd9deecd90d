#!/usr/bin/env node
import type { Command } from 'commander';
import { type EnvironmentCommand, type EnvironmentOptions, runEnvironment } from '../lib/commands/environment/run-environment';
import { entryPoint, endpointUrl, EXIT_FAILED, EXIT_TIMEOUT, newCommand, runCommand } from '../lib/commands/shared/cli';

const program = newCommand('environment').description(
  'A whole environment down to what its data costs, and back: Temporal services and both pools to 0 (kept so by every deploy until woken), or FOLIO clusters stopped.\n' +
    `Exit codes: 0 done, 1 bad input, 2 AWS error, ${EXIT_TIMEOUT} a wait timed out (run it again to go on), ${EXIT_FAILED} refused or failed (the line says why).`,
);

const subcommand = (name: EnvironmentCommand, description: string, timeout: string): Command =>
  program
    .command(name)
    .description(description)
    .requiredOption('-s, --scenario <name>', 'the scenario the environment was deployed with (its family, stacks and sizes)')
    .option('--env-name <name>', 'the envName the stacks were deployed with, if any')
    .option('--timeout <duration>', 'how long to wait, a Go duration such as 30m', timeout)
    .option('--interval <duration>', 'how often to poll', '15s')
    .option('--endpoint-url <url>', 'an AWS-API-compatible endpoint instead of AWS (a local emulator)', endpointUrl);

const action = (name: EnvironmentCommand) => (o: EnvironmentOptions) => runCommand(() => runEnvironment(name, o));

subcommand('status', 'print whether the environment is hibernated, and what runs', '1m').action(action('status'));
subcommand('hibernate', 'stop everything but the data, in order, and keep it so across deploys', '60m')
  .option('--force', 'hibernate even while a load generator runs: it is stopped first (its run is lost)')
  .action(action('hibernate'));
subcommand('wake', "bring back the deployed scenario's sizes, in start order, and wait until every service is healthy", '60m').action(action('wake'));

entryPoint(() => program.parse());
