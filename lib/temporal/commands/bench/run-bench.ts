import { join } from 'node:path';
import { ConfigError, type TemporalScenario } from '../../../../config';
import { BENCH_RATE, GENERATOR_RUN, LADDER_STEP_MIN_SECONDS, ladderRates } from '../../../../config/bench-load';
import { resolveTargetOf, type Target, type TargetOptions } from '../../../commands/shared/target';
import { benchmarkWorkerCapacity } from '../../../../config/packing';
import { temporalHibernatedNow } from '../shared/hibernated';
import { loadAwsClients } from '../../../commands/aws/load-clients';
import { CommandFailure, type CommandOutput, EXIT_FAILED, processIO, type CommandDeps, type CommandIO } from '../../../commands/shared/cli';
import { durationOption, WAIT_BOUNDS, numberOption } from '../../../commands/shared/option-values';
import { shownPath, writableDir, writableFile, writeOutput } from '../../../commands/shared/files';
import { commandWaiting, type Waiting, withinTimeout } from '../../../commands/shared/waiting';
import { benchDown, benchUp, describeFleet, fleetStatus } from './fleet';
import { benchRun } from './generator-task';
import { climbLadder } from './ladder';
import { renderLadder, renderRun, renderStatus } from './render-bench';
import type { Ladder, LadderRecord, RunRecord } from '../../../commands/shared/run-record';
import { benchClients, benchTargets } from './targets';

/*
 * `npm run bench -- <status|down|up|run|ladder>`: the benchmark fleet of a deployed Temporal preset.
 * Every argument is checked before the first AWS call; `up`, `run` and `ladder` act only on the preset
 * the stack was deployed with, whose pool and task sizes it has.
 */

export type BenchCommand = 'status' | 'down' | 'up' | 'run' | 'ladder';

export interface BenchOptions extends Pick<TargetOptions, 'catalog'> {
  readonly scenario: string;
  readonly envName?: string;
  readonly endpointUrl?: string;
  /** Each subcommand has its own default (bin/bench.ts); `run`'s is the run plus 20m. */
  readonly timeout?: string;
  readonly interval: string;
  /** status: print it as JSON. */
  readonly json?: boolean;
  /** down: set the workers to 0 and return. */
  readonly wait?: boolean;
  /** up */
  readonly workers?: string;
  /** run */
  readonly rate?: string;
  readonly duration?: string;
  readonly rampUp?: string;
  readonly out?: string;
  /** ladder: the rates given, or doubling from --from up to --up-to; each offered for --step. */
  readonly rates?: string;
  readonly from?: string;
  readonly upTo?: string;
  readonly step?: string;
  /** run, ladder: a generator left running by an interrupted run is stopped first instead of refused (a campaign resuming). */
  readonly stopRunning?: boolean;
}

/** With a clock and a sleep: waits without real time passing (tests). */
export type BenchDeps = CommandDeps & Pick<Waiting, 'sleep' | 'now'>;

const temporal = (o: BenchOptions): Target<TemporalScenario> => resolveTargetOf('temporal', 'bench', o);

/** The scenario's deployed stack: its targets and clients. `acts`: the command sizes or loads the fleet, so the preset must be the one deployed. */
async function deployed({ scenario, aws: target }: Target<TemporalScenario>, o: BenchOptions, deps: BenchDeps, io: CommandIO, timeout: string, acts: boolean) {
  const waiting = commandWaiting(timeout, o.interval, io, deps);
  const aws = (deps.aws ?? loadAwsClients)();
  const targets = await benchTargets(aws.cloudFormation(target), scenario);
  const hibernated = await temporalHibernatedNow(aws, target, scenario);
  if (hibernated && acts) throw new CommandFailure(`${hibernated}; wake it first`, EXIT_FAILED);
  if (hibernated) io.note(`note: ${hibernated}`);
  if (targets.deployedScenario !== scenario.name) {
    const line = `${scenario.stackName} was last deployed with ${targets.deployedScenario}, not ${scenario.name}`;
    if (acts)
      throw new ConfigError(
        `${line}; its pool and task sizes are ${targets.deployedScenario}'s (valid: --scenario ${targets.deployedScenario}, or deploy ${scenario.name} first: npx cdk deploy --all -c scenario=${scenario.name}${scenario.envName ? ` -c envName=${scenario.envName}` : ''})`,
      );
    io.note(`note: ${line}`);
  }
  return { waiting, targets, clients: benchClients(aws, target) };
}

export async function runBench(command: BenchCommand, o: BenchOptions, deps: BenchDeps = {}): Promise<CommandOutput> {
  const io = deps.io ?? processIO();
  const target = temporal(o);
  const { scenario } = target;
  const done = (line: string): CommandOutput => {
    io.status.done();
    return { stdout: `${line}\n` };
  };
  switch (command) {
    case 'status': {
      const seconds = durationOption('--timeout', o.timeout!, 1, WAIT_BOUNDS.timeout);
      return withinTimeout(seconds, `${scenario.stackName}'s fleet`, async () => {
        const { clients, targets } = await deployed(target, o, deps, io, o.timeout!, false);
        const status = await fleetStatus(clients, targets);
        if (o.json) return { stdout: `${JSON.stringify({ scenario: scenario.name, ...targets, ...status }, null, 2)}\n` };
        return done(renderStatus(status, targets, scenario));
      });
    }
    case 'down': {
      const { clients, targets, waiting } = await deployed(target, o, deps, io, o.timeout!, false);
      io.onInterrupt(
        () =>
          `the workers are set to 0: ECS goes on stopping them and the benchmark ASG drains to 0 instances; see: npm run bench -- status --scenario ${scenario.name}`,
      );
      const s = await benchDown(clients, targets, { ...waiting, wait: o.wait !== false });
      return done(`${o.wait !== false ? 'parked' : 'parking'}: ${describeFleet(s)}`);
    }
    case 'up': {
      const pool = benchmarkWorkerCapacity(scenario.environment, scenario.preset);
      const workers = numberOption('--workers', o.workers, {
        min: 1,
        max: pool.workers,
        integer: true,
        what: `a whole number of workers, as many as the benchmark pool (${pool.instances} × ${pool.instanceType} at most) holds beside the load generator,`,
      });
      const { clients, targets, waiting } = await deployed(target, o, deps, io, o.timeout!, true);
      const count = workers ?? scenario.preset.benchmark.workers.replicas;
      io.onInterrupt(
        () =>
          `the workers are set to ${count}: ECS goes on starting them (and the benchmark ASG its instances); see: npm run bench -- status --scenario ${scenario.name}, park them: npm run bench -- down --scenario ${scenario.name}`,
      );
      return done(`up: ${describeFleet(await benchUp(clients, targets, count, waiting))}`);
    }
    case 'run':
      return run(target, o, deps, io);
    case 'ladder':
      return ladder(target, o, deps, io);
  }
}

const RATE = { ...BENCH_RATE, integer: true, what: 'a whole number of workflows per second' };

/** The default timeout (each wait: the step, plus placing the task and draining), or the one given, which must outlast a step. */
function stepTimeout(o: BenchOptions, option: string, value: string, runSeconds: number): string {
  if (o.timeout !== undefined && durationOption('--timeout', o.timeout, 1, WAIT_BOUNDS.timeout) <= runSeconds)
    throw new ConfigError(
      `--timeout ${o.timeout} is not longer than the run (${option} ${value}); the wait would give up while the load still runs (valid: more than ${value}, or leave it out: the run plus 20m)`,
    );
  return o.timeout ?? `${runSeconds + 20 * 60}s`;
}

/** Where the run record goes, checked before the run starts: a run costs money. */
function recordFile(o: BenchOptions): (name: string) => string {
  if (o.out) {
    const file = writableFile('--out', o.out);
    return () => file;
  }
  const dir = writableDir('--out', join('reports', 'runs'));
  return (name) => join(dir, name);
}

const stamp = (iso: string) => iso.replace(/[-:]|\.\d+/g, '');
const stoppedNote = (io: CommandIO) => (arn: string) => io.note(`stopped load generator ${arn}, left running by an interrupted run`);

async function run(target: Target<TemporalScenario>, o: BenchOptions, deps: BenchDeps, io: CommandIO): Promise<CommandOutput> {
  const { scenario } = target;
  const b = scenario.preset.benchmark;
  const rate = numberOption('--rate', o.rate, RATE) ?? b.targetRate;
  const duration = o.duration ?? b.duration;
  const rampUp = o.rampUp ?? b.rampUp;
  const runSeconds = durationOption(o.duration === undefined ? "the preset's benchmark.duration" : '--duration', duration, 1, GENERATOR_RUN);
  // A value the user did not give is named as the preset's, not as a flag.
  const [rampName, durationName] = [
    o.rampUp === undefined ? "the preset's benchmark.rampUp" : '--ramp-up',
    o.duration === undefined ? "the preset's benchmark.duration" : '--duration',
  ];
  if (durationOption(rampName, rampUp, 0, GENERATOR_RUN) >= runSeconds)
    throw new ConfigError(
      `${rampName} ${rampUp} is not shorter than ${durationName} ${duration} (valid: a ramp-up shorter than the run${o.rampUp === undefined ? ', e.g. --ramp-up 0s' : ''})`,
    );
  const timeout = stepTimeout(o, '--duration', duration, runSeconds);
  const outFile = recordFile(o);
  const { clients, targets, waiting } = await deployed(target, o, deps, io, timeout, true);
  let generator: string | undefined;
  io.onInterrupt(() =>
    generator
      ? `the load generator task ${generator} still runs in cluster ${targets.cluster} and no run record is written; stop it: aws ecs stop-task --cluster ${targets.cluster} --task ${generator}`
      : undefined,
  );
  const record = await benchRun(
    clients,
    targets,
    { scenario: scenario.name, rate, duration, rampUp, stopRunning: o.stopRunning },
    {
      ...waiting,
      onStarted: (arn) => {
        generator = arn;
        io.note(`generator task: ${arn}`);
      },
      onStoppedRunning: stoppedNote(io),
    },
  );
  io.status.done();
  const out = outFile(`${scenario.name}-${stamp(record.start)}.json`);
  writeOutput(out, `${JSON.stringify(record, null, 2)}\n`);
  const failed = record.exitCode !== 0 || !record.result;
  return {
    stdout: renderRun(record, shownPath(out)),
    ...(failed && {
      failure: new CommandFailure(
        `the generator ${record.exitCode === null ? 'stopped without an exit code' : `exited ${record.exitCode}`}${record.stoppedReason ? ` (${record.stoppedReason})` : ''}` +
          `${record.result ? '' : '; no result found in its log'}; the record is in ${shownPath(out)}`,
        EXIT_FAILED,
      ),
    }),
  };
}

/**
 * `bench ladder`: the rates offered one step at a time (generator tasks, as `bench run` starts
 * them), each judged by observability.ladder.held, until a step does not hold. The record is
 * rewritten after every step, so an interrupted ladder keeps the steps it finished.
 */
async function ladder(target: Target<TemporalScenario>, o: BenchOptions, deps: BenchDeps, io: CommandIO): Promise<CommandOutput> {
  const { scenario } = target;
  const config = scenario.environment.observability.ladder;
  if (o.rates !== undefined && (o.from !== undefined || o.upTo !== undefined))
    throw new ConfigError('--rates cannot be combined with --from or --up-to (valid: --rates <list>, or --from <wps> [--up-to <wps>])');
  const list = o.rates
    ?.split(',')
    .map((r) =>
      numberOption('--rates', r.trim(), { ...RATE, what: `rates separated by commas (here "${o.rates}"), each a whole number of workflows per second` })!,
    );
  const rates = ladderRates({
    rates: list,
    from: numberOption('--from', o.from, RATE) ?? scenario.preset.benchmark.targetRate,
    upTo: numberOption('--up-to', o.upTo, RATE),
    maxSteps: config.maxSteps,
  });
  const step = o.step ?? config.step;
  const stepSeconds = durationOption(o.step === undefined ? 'observability.ladder.step' : '--step', step, LADDER_STEP_MIN_SECONDS, GENERATOR_RUN);
  const timeout = stepTimeout(o, '--step', step, stepSeconds);
  const outFile = recordFile(o);
  const { clients, targets, waiting } = await deployed(target, o, deps, io, timeout, true);
  let generator: string | undefined;
  let out: string | undefined;
  io.onInterrupt(() =>
    generator
      ? `the load generator task ${generator} still runs in cluster ${targets.cluster}; stop it: aws ecs stop-task --cluster ${targets.cluster} --task ${generator}${out ? `; the steps finished are in ${shownPath(out)}` : ''}`
      : undefined,
  );
  let probe: Pick<RunRecord, 'storeRoundTrip' | 'storeRoundTripNote'> = { storeRoundTrip: null };
  const record = (l: Ladder): LadderRecord => ({
    scenario: scenario.name,
    start: l.steps[0].start,
    end: l.steps.at(-1)!.end,
    workflowsCompleted: l.steps.reduce((n, x) => n + (x.result?.results.workflowsCompleted ?? 0), 0),
    ...probe,
    ladder: l,
  });
  const climbed = await climbLadder(
    rates,
    { step, held: config.held },
    async (rate, i) => {
      const r = await benchRun(
        clients,
        targets,
        // The store's round trip once, before the first step, on a quiet cluster.
        { scenario: scenario.name, rate, duration: step, rampUp: '0s', probe: i === 0, stopRunning: o.stopRunning },
        {
          ...waiting,
          onStoppedRunning: stoppedNote(io),
          onStarted: (arn) => {
            generator = arn;
            io.note(`step ${i + 1} of ${rates.length}: ${rate} workflows/s for ${step}`);
          },
        },
      );
      if (i === 0) probe = { storeRoundTrip: r.storeRoundTrip, ...(r.storeRoundTripNote && { storeRoundTripNote: r.storeRoundTripNote }) };
      generator = undefined;
      return { start: r.start, end: r.end, taskArn: r.taskArn, exitCode: r.exitCode, result: r.result };
    },
    (l) => {
      out ??= outFile(`${scenario.name}-ladder-${stamp(l.steps[0].start)}.json`);
      writeOutput(out, `${JSON.stringify(record(l), null, 2)}\n`);
      const last = l.steps.at(-1)!;
      io.note(`${last.rate}/s: ${last.held ? 'held' : `did not hold: ${last.failed.join('; ')}`}`);
    },
  );
  io.status.done();
  const broken = climbed.steps.find((x) => !x.result);
  return {
    stdout: renderLadder(record(climbed), shownPath(out!)),
    ...(broken && {
      failure: new CommandFailure(
        `the generator at ${broken.rate}/s ${broken.exitCode === null ? 'stopped without an exit code' : `exited ${broken.exitCode}`} with no result in its log: the ladder measured a broken run, not a limit; the record is in ${shownPath(out!)}`,
        EXIT_FAILED,
      ),
    }),
  };
}
