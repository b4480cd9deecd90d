#!/usr/bin/env node
import type { Command } from 'commander';
import { join } from 'node:path';
import { ConfigError, resolveScenarioOf, type TemporalScenario } from '../config';
import { benchmarkWorkerCapacity } from '../config/packing';
import { cloudFormationClient } from '../lib/commands/aws/clients';
import { benchDown, benchUp, describeFleet, fleetStatus } from '../lib/commands/bench/fleet';
import { renderRun, renderStatus } from '../lib/commands/bench/render-bench';
import { benchRun } from '../lib/commands/bench/generator-task';
import { benchClients, benchTargets } from '../lib/commands/bench/targets';
import type { Waiting } from '../lib/commands/shared/waiting';
import { CommandFailure, durationOption, endpointUrl, EXIT_FAILED, EXIT_TIMEOUT, newCommand, numberOption, onInterrupt, progress, runCommand } from '../lib/commands/shared/cli';
import { shownPath, writableDir, writableFile, writeOutput } from '../lib/commands/shared/files';

interface Common {
  scenario?: string;
  envName?: string;
  endpointUrl?: string;
  timeout?: string;
  interval?: string;
}

const program = newCommand('bench')
  .description(
    'The benchmark fleet of a deployed Temporal preset: park it, bring it back, see it, and run the load generator.\n' +
      `Exit codes: 0 done, 1 bad input, 2 AWS error, ${EXIT_TIMEOUT} a wait timed out, ${EXIT_FAILED} the fleet or the run failed.`,
);

const common = (c: Command, timeout: string | undefined, timeoutText = 'how long to wait, a Go duration such as 30m') =>
  c
    .requiredOption('-s, --scenario <name>', 'the Temporal preset deployed (its stack and its defaults)')
    .option('--env-name <name>', 'the envName the stacks were deployed with, if any')
    .option('--timeout <duration>', timeoutText, timeout)
    .option('--interval <duration>', 'how often to poll', '10s')
    .option('--endpoint-url <url>', 'an AWS-API-compatible endpoint instead of AWS (a local emulator)', endpointUrl);

const temporal = (o: Common): TemporalScenario => resolveScenarioOf('temporal', { scenario: o.scenario!, envName: o.envName }, { option: '--scenario', command: 'bench' });

/**
 * The scenario, the waits and the deployed stack's targets. `acts` marks a command that sizes
 * or loads the fleet: it works only on the preset deployed, whose sizes the stack has.
 */
async function setup(o: Common, acts = false) {
  const scenario = temporal(o);
  const waiting: Waiting = { timeoutSeconds: durationOption('--timeout', o.timeout!), intervalSeconds: durationOption('--interval', o.interval!), onProgress: status.update };
  const target = { region: scenario.env.region, endpoint: o.endpointUrl };
  const targets = await benchTargets(cloudFormationClient(target), scenario);
  if (targets.deployedScenario !== scenario.name) {
    const line = `${scenario.stackName} was last deployed with ${targets.deployedScenario}, not ${scenario.name}`;
    if (acts) throw new ConfigError(`${line}; its pool and task sizes are ${targets.deployedScenario}'s (valid: --scenario ${targets.deployedScenario}, or deploy ${scenario.name} first: npx cdk deploy --all -c scenario=${scenario.name}${scenario.envName ? ` -c envName=${scenario.envName}` : ''})`);
    process.stderr.write(`note: ${line}\n`);
  }
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
      const { clients, targets, waiting, scenario } = await setup(o);
      onInterrupt(() => `the workers are set to 0: ECS goes on stopping them and the benchmark ASG drains to 0 instances; see: npm run bench -- status --scenario ${scenario.name}`);
      const s = await benchDown(clients, targets, { ...waiting, wait: o.wait });
      done(`${o.wait ? 'parked' : 'parking'}: ${describeFleet(s)}`);
    }),
  );

common(program.command('up').description("restore the workers to the preset's size and wait until they run"), '20m')
  .option('--workers <count>', 'workers to run (default: the preset\'s replicas)')
  .action((o: Common & { workers?: string }) =>
    runCommand(async () => {
      // Every argument is checked before the first AWS call.
      const scenario = temporal(o);
      const pool = benchmarkWorkerCapacity(scenario.environment, scenario.preset);
      const workers = numberOption('--workers', o.workers, {
        min: 1,
        max: pool.workers,
        integer: true,
        what: `a whole number of workers, as many as the benchmark pool (${pool.instances} × ${pool.instanceType} at most) holds beside the load generator,`,
      });
      const { clients, targets, waiting } = await setup(o, true);
      const count = workers ?? scenario.preset.benchmark.workers.replicas;
      onInterrupt(() => `the workers are set to ${count}: ECS goes on starting them (and the benchmark ASG its instances); see: npm run bench -- status --scenario ${scenario.name}, park them: npm run bench -- down --scenario ${scenario.name}`);
      const s = await benchUp(clients, targets, count, waiting);
      done(`up: ${describeFleet(s)}`);
    }),
  );

common(program.command('run').description('run the load generator once and write the run record the report command reads'), undefined, 'how long to wait for the run, a Go duration (default: the run plus 20m, for placing the task and draining)')
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
      const timeout = o.timeout ?? `${runSeconds + 20 * 60}s`;
      if (o.timeout !== undefined && durationOption('--timeout', o.timeout) <= runSeconds)
        throw new ConfigError(`--timeout ${o.timeout} is not longer than the run (--duration ${duration}); the wait would give up while the load still runs (valid: more than ${duration}, or leave it out: the run plus 20m)`);
      // Where the record goes is checked before the run starts: a run costs money.
      const outDir = o.out ? undefined : writableDir('--out', join('reports', 'runs'));
      const outFile = o.out ? writableFile('--out', o.out) : undefined;
      const { clients, targets, waiting } = await setup({ ...o, timeout }, true);
      let generator: string | undefined;
      onInterrupt(() =>
        generator
          ? `the load generator task ${generator} still runs in cluster ${targets.cluster} and no run record is written; stop it: aws ecs stop-task --cluster ${targets.cluster} --task ${generator}`
          : undefined,
      );
      const record = await benchRun(clients, targets, { scenario: scenario.name, rate, duration, rampUp }, {
        ...waiting,
        onStarted: (arn) => {
          generator = arn;
          process.stderr.write(`generator task: ${arn}\n`);
        },
      });
      status.done();
      const out = outFile ?? join(outDir!, `${scenario.name}-${record.start.replace(/[-:]|\.\d+/g, '')}.json`);
      writeOutput(out, `${JSON.stringify(record, null, 2)}\n`);
      process.stdout.write(renderRun(record, shownPath(out)));
      if (record.exitCode !== 0 || !record.result)
        throw new CommandFailure(
          `the generator ${record.exitCode === null ? 'stopped without an exit code' : `exited ${record.exitCode}`}${record.stoppedReason ? ` (${record.stoppedReason})` : ''}` +
            `${record.result ? '' : '; no result found in its log'}; the record is in ${shownPath(out)}`,
          EXIT_FAILED,
        );
    }),
  );

program.parse();
