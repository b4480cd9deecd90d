#!/usr/bin/env node
import type { Command } from 'commander';
import { type BenchCommand, type BenchOptions, runBench } from '../lib/temporal/commands/bench/run-bench';
import { entryPoint, EXIT_FAILED, EXIT_TIMEOUT, newCommand, runCommand, sharedOption } from '../lib/commands/shared/cli';

const program = newCommand('bench', {
  aws: true,
  [EXIT_TIMEOUT]: 'a wait ran past --timeout (nothing is undone; run it again to go on)',
  [EXIT_FAILED]: 'the fleet or the run failed (the line says why)',
}).description('The benchmark fleet of a deployed Temporal preset: park it, bring it back, see it, run the load generator, or climb a ladder of rates.');

const subcommand = (
  name: BenchCommand,
  description: string,
  timeout: string | undefined,
  timeoutText = 'how long to wait, a Go duration such as 30m',
): Command =>
  program
    .command(name)
    .description(description)
    .addOption(sharedOption.scenario('the Temporal preset deployed (its stack and its defaults)', 'temporal').makeOptionMandatory())
    .addOption(sharedOption.envName())
    .option('--timeout <duration>', timeoutText, timeout)
    .option('--interval <duration>', 'how often to poll', '10s')
    .addOption(sharedOption.endpointUrl());

const action = (name: BenchCommand) => (o: BenchOptions) => runCommand(() => runBench(name, o));

subcommand('status', "print the workers' tasks and the benchmark ASG's instances", '1m')
  .addOption(sharedOption.json('print the status as JSON'))
  .action(action('status'));

subcommand('down', 'park the fleet: workers to 0 tasks, then wait until the benchmark ASG has 0 instances', '30m')
  .option('--no-wait', 'set the workers to 0 and return without waiting')
  .action(action('down'));

subcommand('up', "restore the workers to the preset's size and wait until they run", '20m')
  .option('--workers <count>', "workers to run (default: the preset's replicas)")
  .action(action('up'));

subcommand(
  'run',
  'run the load generator once and write the run record the report command reads',
  undefined,
  'how long to wait for the run, a Go duration (default: the run plus 20m, for placing the task and draining)',
)
  .option('--rate <wps>', "target workflows per second (default: the preset's targetRate)")
  .option('--duration <duration>', "how long the load runs (default: the preset's duration)")
  .option('--ramp-up <duration>', "time to reach the rate (default: the preset's rampUp)")
  .option('-o, --out <file>', 'where to write the run record (default: reports/runs/<scenario>-<start>.json)')
  .action(action('run'));

subcommand(
  'ladder',
  'offer rising rates a step at a time until one does not hold (observability.ladder), and write one run record with every step',
  undefined,
  'how long each wait may take, a Go duration (default: a step plus 20m, for placing the task and draining)',
)
  .option('--rates <list>', 'the rates to offer, rising, separated by commas (e.g. 150,300,600)')
  .option('--from <wps>', "the first rate, doubled each step (default: the preset's targetRate)")
  .option('--up-to <wps>', 'the highest rate a doubling ladder offers (default: as many steps as observability.ladder.maxSteps)')
  .option('--step <duration>', 'how long each rate is offered (default: observability.ladder.step)')
  .option('-o, --out <file>', 'where to write the run record (default: reports/runs/<scenario>-ladder-<start>.json)')
  .action(action('ladder'));

entryPoint(() => program.parse());
