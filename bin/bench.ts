#!/usr/bin/env node
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { ConfigError, resolveScenarioOf, type TemporalScenario } from '../config';
import { cloudFormationClient } from '../lib/commands/aws/clients';
import { benchDown, benchUp, describeFleet, fleetStatus } from '../lib/commands/bench/fleet';
import { renderRun, renderStatus } from '../lib/commands/bench/render';
import { benchRun } from '../lib/commands/bench/run';
import { benchClients, benchTargets } from '../lib/commands/bench/targets';
import type { Waiting } from '../lib/commands/bench/wait';
import { CommandFailure, durationOption, EXIT_FAILED, EXIT_TIMEOUT, numberOption, progress, runCommand } from '../lib/commands/cli';
import { writableDir, writableFile } from '../lib/commands/files';

interface Common {
  scenario?: string;
  envName?: string;
  endpointUrl?: string;
  timeout?: string;
  interval?: string;
}

const program = new Command('bench')
  .description(
    'The benchmark fleet of a deployed Temporal preset: park it, bring it back, see it, and run the load generator.\n' +
      `Exit codes: 0 done, 1 bad input, 2 AWS error, ${EXIT_TIMEOUT} a wait timed out, ${EXIT_FAILED} the fleet or the run failed.`,
);

const common = (c: Command, timeout: string) =>
  c
    .requiredOption('-s, --scenario <name>', 'the Temporal preset deployed (its stack and its defaults)')
    .option('--env-name <name>', 'the envName the stacks were deployed with, if any')
    .option('--timeout <duration>', 'how long to wait, a Go duration such as 30m', timeout)
    .option('--interval <duration>', 'how often to poll', '10s')
    .option('--endpoint-url <url>', 'an AWS-API-compatible endpoint instead of AWS (a local emulator)');

const temporal = (o: Common): TemporalScenario => resolveScenarioOf('temporal', { scenario: o.scenario!, envName: o.envName }, { option: '--scenario', command: 'bench' });

async function setup(o: Common) {
  const scenario = temporal(o);
  const waiting: Waiting = { timeoutSeconds: durationOption('--timeout', o.timeout!), intervalSeconds: durationOption('--interval', o.interval!), onProgress: status.update };
  const target = { region: scenario.env.region, endpoint: o.endpointUrl };
  const targets = await benchTargets(cloudFormationClient(target), scenario);
  if (targets.deployedScenario !== scenario.name)
    process.stderr.write(`note: ${scenario.stackName} was last deployed with ${targets.deployedScenario}, not ${scenario.name}\n`);
  return { scenario, waiting, targets, clients: benchClients(target) };
}

const status = progress();
const done = (line: string) => {
  status.done();
  process.stdout.write(`${line}\n`);
};

common(program.command('status').description('print the workers\' tasks and the benchmark ASG\'s instances'), '1m').action((o: Common) =>
  runCommand(async () => {
    const { clients, targets, scenario } = await setup(o);
    done(renderStatus(await fleetStatus(clients, targets), targets, scenario));
  }),
);

common(program.command('down').description('park the fleet: workers to 0 tasks, then wait until the benchmark ASG has 0 instances'), '30m')
  .option('--no-wait', 'set the workers to 0 and return without waiting')
  .action((o: Common & { wait: boolean }) =>
    runCommand(async () => {
      const { clients, targets, waiting } = await setup(o);
      const s = await benchDown(clients, targets, { ...waiting, wait: o.wait });
      done(`${o.wait ? 'parked' : 'parking'}: ${describeFleet(s)}`);
    }),
  );

common(program.command('up').description("restore the workers to the preset's size and wait until they run"), '20m')
  .option('--workers <count>', 'workers to run (default: the preset\'s replicas)')
  .action((o: Common & { workers?: string }) =>
    runCommand(async () => {
      // Every argument is checked before the first AWS call.
      const workers = numberOption('--workers', o.workers, { min: 1, max: 200, integer: true });
      const { clients, targets, waiting, scenario } = await setup(o);
      const count = workers ?? scenario.preset.benchmark.workers.replicas;
      const s = await benchUp(clients, targets, count, waiting);
      done(`up: ${describeFleet(s)}`);
    }),
  );

common(program.command('run').description('run the load generator once and write the run record the report command reads'), '0')
  .option('--rate <wps>', 'target workflows per second (default: the preset\'s targetRate)')
  .option('--duration <duration>', 'how long the load runs (default: the preset\'s duration)')
  .option('--ramp-up <duration>', 'time to reach the rate (default: the preset\'s rampUp)')
  .option('-o, --out <file>', 'where to write the run record (default: reports/runs/<scenario>-<start>.json)')
  .action((o: Common & { rate?: string; duration?: string; rampUp?: string; out?: string }) =>
    runCommand(async () => {
      const scenario = temporal(o);
      const b = scenario.preset.benchmark;
      const rate = numberOption('--rate', o.rate, { min: 1, max: 100_000, integer: true, what: 'a whole number of workflows per second' }) ?? b.targetRate;
      const duration = o.duration ?? b.duration;
      const rampUp = o.rampUp ?? b.rampUp;
      const runSeconds = durationOption('--duration', duration);
      if (durationOption('--ramp-up', rampUp, 0) >= runSeconds) throw new ConfigError(`--ramp-up ${rampUp} is not shorter than --duration ${duration} (valid: a ramp-up shorter than the run)`);
      // Default timeout: the run, plus time for the task to be placed (possibly on a new instance) and to drain.
      const timeout = o.timeout === '0' ? `${runSeconds + 20 * 60}s` : o.timeout!;
      // Where the record goes is checked before the run starts: a run costs money.
      if (o.out) writableFile('--out', o.out);
      else writableDir('--out', join('reports', 'runs'));
      const { clients, targets, waiting } = await setup({ ...o, timeout });
      const record = await benchRun(clients, targets, { scenario: scenario.name, rate, duration, rampUp }, {
        ...waiting,
        onStarted: (arn) => process.stderr.write(`generator task: ${arn}\n`),
      });
      status.done();
      const out = o.out ?? join('reports', 'runs', `${scenario.name}-${record.start.replace(/[-:]|\.\d+/g, '')}.json`);
      writeFileSync(out, `${JSON.stringify(record, null, 2)}\n`);
      process.stdout.write(renderRun(record, out));
      if (record.exitCode !== 0 || !record.result)
        throw new CommandFailure(
          `the generator ${record.exitCode === null ? 'stopped without an exit code' : `exited ${record.exitCode}`}${record.stoppedReason ? ` (${record.stoppedReason})` : ''}` +
            `${record.result ? '' : '; no result found in its log'}; the record is in ${out}`,
          EXIT_FAILED,
        );
    }),
  );

program.parse();
