import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ConfigError } from '../../config';
import type { Campaign, CampaignLoad } from '../../config/campaign-schema';
import type { CatalogInput } from '../../config/catalog-schema';
import { durationSeconds } from '../../config/fields';
import { familyOf, resolveScenario } from '../families';
import { runBench } from '../temporal/commands/bench/run-bench';
import { runMove } from '../folio/commands/move/run-move';
import { runEnvironment } from '../commands/environment/run-environment';
import { runReport } from '../commands/report/run-report';
import { planTransition } from '../commands/plan/transition-plan';
import { loadAwsClients } from '../commands/aws/load-clients';
import { deployedStack } from '../commands/aws/read-stack-outputs';
import { readRunRecord } from '../commands/shared/run-record';
import { readReport } from '../commands/shared/report-file';
import { CommandFailure, EXIT_FAILED, type CommandDeps, type CommandIO, type CommandOutput } from '../commands/shared/cli';
import { plural } from '../commands/shared/figure';
import { deployedOutputs, refuseLifelongChanges } from '../commands/shared/lifelong';
import type { CampaignActions, LoadResult, Target } from './campaign-run';
import { deployScenario, type DeployToolkit } from './toolkit-deploy';

/*
 * What a campaign's stages do against a real environment: each one the companion command a user
 * would run by hand (plan, move, bench, report, wake, hibernate), in process, with the step's
 * catalog; the deploy through the CDK's toolkit.
 */

export interface CampaignTarget {
  readonly envName?: string;
  readonly endpointUrl?: string;
  /** How often waits poll. */
  readonly interval: string;
  /** The Prometheus a Temporal step's report reads (report's --prometheus-url), checked by the command. */
  readonly prometheusUrl?: string;
}

export interface CampaignDeps extends CommandDeps {
  readonly io: CommandIO;
  readonly toolkit: () => Promise<DeployToolkit>;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => Date;
}

/** A command's outcome as a stage's: a failure is thrown, its line kept; otherwise its last line. */
function outcome(what: string, out: CommandOutput): string {
  if (out.failure) throw out.failure;
  if (out.exitCode) throw new CommandFailure(`${what} exited ${out.exitCode}: ${out.stdout.trim().split('\n').at(-1)}`, EXIT_FAILED);
  return out.stdout.trim().split('\n').filter(Boolean).at(-1) ?? what;
}

/** Runs the user's load command: the step's scenario and directory in its environment, its exit code honoured, ended at its timeout. */
async function loadCommand(load: Extract<CampaignLoad, { kind: 'command' }>, to: Target, dir: string, io: CommandIO): Promise<void> {
  const [program, ...args] = load.command;
  const ms = durationSeconds(load.timeout) * 1000;
  const code = await new Promise<number | string>((resolve, reject) => {
    const child = spawn(program, args, {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, CAMPAIGN_SCENARIO: to.name, CAMPAIGN_STEP_DIR: dir },
    });
    const timer = setTimeout(() => child.kill('SIGTERM'), ms);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new ConfigError(`the load command ${program} could not start: ${e.message} (valid: a program on PATH or a path to one)`));
    });
    child.on('exit', (status, signal) => {
      clearTimeout(timer);
      resolve(status ?? `signal ${signal}`);
    });
  });
  io.status.done();
  if (code !== 0)
    throw new CommandFailure(
      typeof code === 'string' && code === 'signal SIGTERM'
        ? `the load command ran past its timeout, ${load.timeout}, and was ended`
        : `the load command exited ${code}`,
      EXIT_FAILED,
    );
}

/** The scenario a report.json proposes, added to a copy of `base`; or what the report says instead. Reads the file only. */
export function proposedTarget(reportFile: string, base: CatalogInput): Target | { readonly none: string } {
  const report = readReport(reportFile, 'the step before');
  const next = report.proposal?.next?.phase;
  if (report.proposal?.status !== 'proposed' || !next) return { none: report.proposal?.says ?? 'no proposal' };
  const catalog = structuredClone(base) as CatalogInput;
  familyOf(report).addProposed(catalog, next);
  resolveScenario({ scenario: next.name }, catalog);
  return { name: next.name, catalog };
}

const MINUTE_MS = 60_000;

/**
 * The window a step's report reads: a bench run's record, or the whole minutes inside a load's
 * start and end (CloudWatch's 1-minute points; report refuses a window that starts or ends
 * inside one, where a point would take in time outside the load).
 */
export function loadWindow(load: LoadResult): { readonly run: string } | { readonly start: string; readonly end: string } {
  if (load.runRecord) return { run: load.runRecord };
  const start = Math.ceil(Date.parse(load.start) / MINUTE_MS) * MINUTE_MS;
  const end = Math.floor(Date.parse(load.end) / MINUTE_MS) * MINUTE_MS;
  if (end <= start)
    throw new CommandFailure(
      `the load ran from ${load.start} to ${load.end}, which holds no whole minute for the report's 1-minute points (valid: a load of 2 minutes or more)`,
      EXIT_FAILED,
    );
  return { start: new Date(start).toISOString(), end: new Date(end).toISOString() };
}

/** plan's verdict on a switch: what the environment keeps for life refused before the deploy (the stack's guard would roll it back), and what the switch replaces. */
async function planSwitch(t: CampaignTarget, deps: CampaignDeps, from: string | undefined, to: Target): ReturnType<CampaignActions['plan']> {
  if (from === undefined) return { unsafe: [], moves: false, note: 'the first deploy: nothing to switch from' };
  const scenario = resolveScenario({ scenario: to.name, ...(t.envName ? { envName: t.envName } : {}) }, to.catalog);
  const lifelong = familyOf(scenario).lifelongSettings(scenario);
  const cfn = () => (deps.aws ?? loadAwsClients)().cloudFormation({ region: scenario.env.region, endpoint: t.endpointUrl });
  const outputs = lifelong.length ? await deployedOutputs(cfn(), scenario.stackName) : undefined;
  if (outputs) refuseLifelongChanges(lifelong, outputs, scenario.stackName);
  // Deployed already (a campaign that starts where the environment is): the deploy brings it up to date in place.
  if (from === to.name) return { unsafe: [], moves: false, note: `${from} is deployed already: nothing to switch` };
  const plan = planTransition(from, to.name, { envName: t.envName, catalog: to.catalog });
  const changes = plan.stacks.reduce((n, s) => n + s.changes.length, 0);
  return {
    unsafe: plan.unsafe.map((c) => `${c.logicalId} (${c.type})`),
    moves: (plan.notes.moves?.count ?? 0) > 0,
    note: `${from} -> ${to.name}: ${plural(changes, 'resource change')}, none stateful replaced`,
  };
}

/** The options every command a stage runs takes: the step's scenario in its catalog, and where AWS is. */
const sharedOptions = (t: CampaignTarget, to: Target) => ({
  scenario: to.name,
  catalog: to.catalog,
  envName: t.envName,
  endpointUrl: t.endpointUrl,
  interval: t.interval,
});

type LoadDeps = CampaignDeps & { readonly now: () => Date; readonly sleep: (ms: number) => Promise<void> };

/** A step's load: bench's run or ladder (its record read back), the step's own command, or a wait while a load runs elsewhere. */
async function runLoad(t: CampaignTarget, deps: LoadDeps, to: Target, load: CampaignLoad, dir: string): Promise<LoadResult> {
  const start = deps.now().toISOString();
  switch (load.kind) {
    case 'bench-run':
    case 'bench-ladder': {
      const out = join(dir, load.kind === 'bench-run' ? 'run.json' : 'ladder.json');
      const options =
        load.kind === 'bench-run'
          ? { rate: load.rate?.toString(), duration: load.duration, rampUp: load.rampUp }
          : { from: load.from?.toString(), upTo: load.upTo?.toString(), rates: load.rates?.join(','), step: load.step };
      // Resumed after a kill mid-load, the killed run's generator may still be going: its record is lost, so it is stopped.
      const resumed = { stopRunning: true };
      outcome(
        `bench ${load.kind.slice(6)}`,
        await runBench(load.kind === 'bench-run' ? 'run' : 'ladder', { ...sharedOptions(t, to), ...options, ...resumed, out }, { io: deps.io, aws: deps.aws }),
      );
      const record = readRunRecord(out);
      return { start: record.start, end: record.end, runRecord: out };
    }
    case 'command':
      await loadCommand(load, to, dir, deps.io);
      return { start, end: deps.now().toISOString() };
    case 'wait':
      deps.io.note(`waiting ${load.duration} while the load runs`);
      await deps.sleep(durationSeconds(load.duration) * 1000);
      return { start, end: deps.now().toISOString() };
  }
}

export function awsCampaignActions(t: CampaignTarget, deps: CampaignDeps): CampaignActions {
  const io = deps.io;
  const now = deps.now ?? (() => new Date());
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const shared = (to: Target) => sharedOptions(t, to);
  const commandDeps = { io, aws: deps.aws };
  return {
    async deployedScenario(c: Campaign) {
      const aws = (deps.aws ?? loadAwsClients)();
      const stack = resolveScenario({ scenario: c.first.name, ...(t.envName ? { envName: t.envName } : {}) });
      try {
        const d = await deployedStack(aws.cloudFormation({ region: stack.env.region, endpoint: t.endpointUrl }), stack.stackName);
        return d.outputs[familyOf(stack).scenarioOutput];
      } catch (e) {
        if (e instanceof ConfigError && /is not deployed/.test(e.message)) return undefined;
        throw e;
      }
    },
    plan: (from, to) => planSwitch(t, deps, from, to),
    async move(from, to) {
      // A campaign resumed after a failed step finds the environment as that failure left it (hibernated by default): the move needs the clusters up.
      const woke = outcome('wake', await runEnvironment('wake', { ...shared(to), scenario: from, timeout: '2h' }, commandDeps));
      const out = await runMove({ ...shared(to), scenario: undefined, from, to: to.name, online: true, timeout: '6h' }, commandDeps);
      return `${woke}; ${outcome('move', out)}`;
    },
    async deploy(to, dir) {
      return deployScenario(await deps.toolkit(), to, t.envName ? { envName: t.envName } : {}, join(dir, 'cdk.out'));
    },
    async ready(to) {
      const woke = outcome('wake', await runEnvironment('wake', { ...shared(to), timeout: '2h' }, commandDeps));
      if (familyOf(resolveScenario({ scenario: to.name }, to.catalog)).readiness !== 'bench up') return woke;
      return `${woke}; ${outcome('bench up', await runBench('up', { ...shared(to), timeout: '1h' }, commandDeps))}`;
    },
    load: (to, load, dir) => runLoad(t, { ...deps, now, sleep }, to, load, dir),
    async report(to, load, dir) {
      const out = join(dir, 'report');
      const window = loadWindow(load);
      const reads = familyOf(resolveScenario({ scenario: to.name }, to.catalog)).reportOptions.includes('--prometheus-url');
      const prometheus = t.prometheusUrl && reads ? { prometheusUrl: t.prometheusUrl } : {};
      const result = await runReport({ ...shared(to), ...window, ...prometheus, scenario: 'run' in window ? undefined : to.name, out }, commandDeps);
      if (result.failure) throw result.failure;
      return join(out, 'report.json');
    },
    async proposal(reportFile, base) {
      return proposedTarget(reportFile, base);
    },
    async hibernate(to) {
      // force: a failed step's load generator may still run; its run is lost with the step, and the campaign ends hibernated whatever ran.
      const force = familyOf(resolveScenario({ scenario: to.name }, to.catalog)).environmentOptions.includes('--force');
      return outcome('hibernate', await runEnvironment('hibernate', { ...shared(to), timeout: '2h', force }, commandDeps));
    },
  };
}
