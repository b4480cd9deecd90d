import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../config';
import type { Campaign, CampaignInput, CampaignLoad } from '../../config/campaign-schema';
import type { CatalogInput } from '../../config/catalog-schema';
import { awsErrorLine, CommandFailure, EXIT_AWS, EXIT_FAILED, isAwsError, type CommandIO } from '../commands/shared/cli';
import { usd } from '../commands/shared/money';
import { type CampaignRecord, judgeRecord, newRecord, STAGES, type Stage, type StepRecord, writeRecord } from './campaign-record';
import type { Projection } from './campaign-plan';

/*
 * The campaign's engine: each step's stages in order (plan, move, deploy, ready, load, report),
 * the record rewritten after each, the budget checked before each step. What a stage does is
 * CampaignActions' (campaign-actions.ts against AWS; a test's own); the engine decides what runs,
 * what is skipped on a resume, and what a failure leaves.
 */

/** A scenario to deploy: its name, and the catalog that holds it (config's, or config's with a followed proposal added). */
export interface Target {
  readonly name: string;
  readonly catalog: CatalogInput;
}

export interface LoadResult {
  readonly start: string;
  readonly end: string;
  readonly runRecord?: string;
}

/** What each stage does. Every method may be run again after it was interrupted: each is idempotent or re-runnable by design. */
export interface CampaignActions {
  /** The scenario the stacks are deployed with now, or undefined when they are not. */
  deployedScenario(campaign: Campaign): Promise<string | undefined>;
  /** plan's verdict on the switch: the stateful resources it would replace (none is safe), and whether data moves. */
  plan(from: string | undefined, to: Target): Promise<{ readonly unsafe: readonly string[]; readonly moves: boolean; readonly note: string }>;
  /** Moves what the switch moves (FOLIO's schemas), verified, before the deploy. */
  move(from: string, to: Target): Promise<string>;
  /** Deploys every stack of the scenario, its assembly kept under `dir`. */
  deploy(to: Target, dir: string): Promise<string>;
  /** Woken if hibernated, then healthy. */
  ready(to: Target): Promise<string>;
  load(to: Target, load: CampaignLoad, dir: string): Promise<LoadResult>;
  /** Writes the step's report under `dir` and returns its report.json. */
  report(to: Target, load: LoadResult, dir: string): Promise<string>;
  /** The scenario a report.json proposes next, added to a copy of `base` (the catalog of the step it follows); or why there is none. */
  proposal(reportFile: string, base: CatalogInput): Promise<Target | { readonly none: string }>;
  /** Where the campaign leaves the environment: hibernated. */
  hibernate(deployed: Target): Promise<string>;
}

export interface CampaignRun {
  readonly campaign: Campaign;
  readonly definition: CampaignInput;
  readonly actions: CampaignActions;
  /** The record's directory: campaign.json, and a directory per step. */
  readonly dir: string;
  readonly existing: CampaignRecord | undefined;
  /** The rest of the campaign's spend, projected from a record (campaign-plan.ts). */
  readonly project: (record: CampaignRecord) => Projection;
  readonly io: CommandIO;
  readonly now: () => Date;
  readonly catalog: CatalogInput;
}

export const recordPath = (dir: string) => join(dir, 'campaign.json');
const stepDir = (dir: string, index: number, scenario: string) => join(dir, `${String(index + 1).padStart(2, '0')}-${scenario}`);
const done = (s: StepRecord) => STAGES.every((x) => s.stages[x]);

/** Checks a record before resuming it: its definition and the stacks must be as it left them. */
async function resumable(r: CampaignRun, record: CampaignRecord): Promise<void> {
  judgeRecord(record, r.campaign, r.definition, recordPath(r.dir));
  if (record.deployed === undefined) return;
  const now = await r.actions.deployedScenario(r.campaign);
  // A deploy stopped in flight (the process killed, or its wait failed) may finish on its own (CloudFormation goes on): the stacks then hold that step's scenario, which the resumed deploy finds done.
  const at = record.running ?? record.failure;
  const inFlight = at?.stage === 'deploy' ? record.steps[at.step].scenario : undefined;
  if (now !== record.deployed && now !== inFlight)
    throw new ConfigError(
      `the stacks were deployed with ${now ?? 'nothing'} since campaign ${r.campaign.name} deployed ${record.deployed}: its record no longer describes them (valid: deploy ${record.deployed} again, or start over with another --out)`,
    );
}

/** Runs the campaign, or resumes it from its record; returns the record as it ends. */
export async function runCampaign(r: CampaignRun): Promise<CampaignRecord> {
  const release = lock(r.dir, r.campaign.name);
  try {
    return await runLocked(r);
  } finally {
    release();
  }
}

/**
 * One run of a campaign at a time per record: a second `campaign run` on the same directory (a
 * terminal left open, a cron job) is refused, naming the one running. A lock whose process is
 * gone (killed) is taken over, and so is one whose PID a later process got (its start time differs).
 */
const lockPath = (dir: string) => join(dir, 'campaign.lock');

function lock(dir: string, name: string): () => void {
  const path = lockPath(dir);
  mkdirSync(dir, { recursive: true });
  const mine = `${[process.pid, startedAt(process.pid)].filter(Boolean).join(' ')}\n`;
  for (;;) {
    try {
      writeFileSync(path, mine, { flag: 'wx' });
      return () => rmSync(path, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const [pidText, started] = readFileSync(path, 'utf8').trim().split(/\s+/);
    const pid = Number.parseInt(pidText, 10);
    // A live process with the lock's PID but another start is the PID reused, not the run.
    if (Number.isInteger(pid) && pid > 0 && alive(pid) && (started === undefined || startedAt(pid) === started))
      throw new ConfigError(
        `campaign ${name} is running already in ${dir} (process ${pid}, ${path}) (valid: let it finish, or stop that process and run this again)`,
      );
    rmSync(path, { force: true });
  }
}

/** When a process started (/proc/<pid>/stat's 22nd field, in clock ticks since boot): with its PID, which process it is; undefined where there is no /proc. */
function startedAt(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function runLocked(r: CampaignRun): Promise<CampaignRecord> {
  const record = r.existing ?? newRecord(r.definition, r.now());
  if (r.existing) {
    await resumable(r, record);
    if (record.status === 'done') {
      r.io.note(`campaign ${r.campaign.name} finished at ${record.ended?.at ?? 'an earlier run'}: nothing to run`);
      return record;
    }
    const at = record.running ?? record.failure;
    r.io.note(`resuming campaign ${r.campaign.name}${at ? ` at step ${at.step + 1}, ${at.stage}` : ''}`);
    record.status = 'running';
    delete record.failure;
  }
  const engine = new Engine(r, record);
  engine.save();
  r.io.onInterrupt(() => interrupted(r, record, () => engine.save()));
  for (const [i, definition] of r.campaign.steps.entries()) await engine.runDefinition(i, definition);
  record.status = 'done';
  engine.save();
  const left = await engine.leave('the campaign is done');
  r.io.note(`campaign ${r.campaign.name} done: ${record.steps.length} steps; ${left}`);
  return record;
}

/** One run over a record: the steps a definition makes, each step's stages, and what a failure leaves. */
class Engine {
  /** The catalog each followed proposal's step is in, once read. */
  private readonly catalogs = new Map<number, CatalogInput>();

  constructor(
    private readonly r: CampaignRun,
    private readonly record: CampaignRecord,
  ) {}

  save(): void {
    writeRecord(recordPath(this.r.dir), this.record);
  }

  /** The steps of definition `i`: a scenario's one, or a proposal followed up to its times (stopped where a report proposes nothing). */
  async runDefinition(i: number, definition: Campaign['steps'][number]): Promise<void> {
    const { record } = this;
    const mine = () => record.steps.map((s, index) => ({ s, index })).filter(({ s }) => s.definition === i);
    for (const { s, index } of mine()) if (!done(s)) await this.runStep(index);
    if ('scenario' in definition) {
      if (!mine().length) {
        record.steps.push({ definition: i, scenario: definition.scenario, stages: {} });
        await this.runStep(record.steps.length - 1);
      }
      return;
    }
    while (mine().length < definition.followProposal.times && record.stopped[i] === undefined) {
      const previous = record.steps.at(-1)!;
      const next = await this.r.actions.proposal(previous.report!, await this.catalogOf(record.steps.length - 1));
      if ('none' in next) {
        record.stopped[i] = `${previous.scenario}'s report proposes nothing: ${next.none}`;
        this.r.io.note(`step ${record.steps.length + 1}: ${record.stopped[i]}; the campaign goes on`);
        this.save();
        return;
      }
      record.steps.push({ definition: i, scenario: next.name, proposedBy: previous.report!, stages: {} });
      this.catalogs.set(record.steps.length - 1, next.catalog);
      await this.runStep(record.steps.length - 1);
    }
  }

  /** A step's stages not done yet, in order, each recorded; the budget checked before its first. */
  private async runStep(index: number): Promise<void> {
    const { r, record } = this;
    const step = record.steps[index];
    const dir = stepDir(r.dir, index, step.scenario);
    if (!Object.keys(step.stages).length) {
      const refused = budgetRefusal(r.project(record), index, step.scenario);
      if (refused) await this.fail(index, 'plan', refused);
    }
    for (const stage of STAGES) {
      if (step.stages[stage]) continue;
      const started = r.now().toISOString();
      record.running = { step: index, stage, since: started };
      this.save();
      r.io.note(`step ${index + 1} (${step.scenario}): ${stage}`);
      let note: string | undefined;
      try {
        const target: Target = { name: step.scenario, catalog: await this.catalogOf(index) };
        note = await this.runStage(stage, step, target, dir);
      } catch (e) {
        // AWS that said no or did not answer is exit 2, as for any command; the record keeps the reason either way.
        if (isAwsError(e)) await this.fail(index, stage, awsErrorLine(e), EXIT_AWS);
        await this.fail(index, stage, e instanceof Error ? e.message : String(e));
      }
      step.stages[stage] = { started, ended: r.now().toISOString(), ...(note ? { note } : {}) };
      delete record.running;
      this.save();
    }
  }

  /** The catalog a step's scenario is in: config's, or, for a followed proposal, the one before it with the proposal added. */
  private async catalogOf(index: number): Promise<CatalogInput> {
    const step = this.record.steps[index];
    if (!step.proposedBy) return this.r.catalog;
    const known = this.catalogs.get(index);
    if (known) return known;
    const next = await this.r.actions.proposal(step.proposedBy, await this.catalogOf(index - 1));
    if ('none' in next) throw new ConfigError(`${step.proposedBy} no longer proposes a scenario: ${next.none}`);
    if (next.name !== step.scenario) throw new ConfigError(`${step.proposedBy} proposes ${next.name} now, not ${step.scenario} as when the step began`);
    this.catalogs.set(index, next.catalog);
    return next.catalog;
  }

  private async runStage(stage: Stage, step: StepRecord, target: Target, dir: string): Promise<string | undefined> {
    const { r, record } = this;
    switch (stage) {
      case 'plan': {
        const from = record.deployed ?? (await r.actions.deployedScenario(r.campaign));
        const p = await r.actions.plan(from, target);
        if (p.unsafe.length)
          throw new CommandFailure(
            `the switch from ${from} would replace stateful resources: ${p.unsafe.join(', ')} (plan refuses it; nothing was deployed)`,
            EXIT_FAILED,
          );
        step.moves = p.moves;
        return p.note;
      }
      case 'move': {
        const from = record.deployed ?? (await r.actions.deployedScenario(r.campaign));
        return from === undefined || !step.moves ? 'nothing to move' : r.actions.move(from, target);
      }
      case 'deploy': {
        const note = await r.actions.deploy(target, dir);
        record.deployed = target.name;
        return note;
      }
      case 'ready':
        return r.actions.ready(target);
      case 'load': {
        const definition = r.campaign.steps[step.definition];
        step.load = await r.actions.load(target, definition.load, dir);
        return `${step.load.start} to ${step.load.end}`;
      }
      case 'report':
        step.report = await r.actions.report(target, step.load!, dir);
        return step.report;
    }
  }

  /** Records the failure, leaves the environment as the campaign says, and stops the campaign with one line. */
  private async fail(index: number, stage: Stage, reason: string, exitCode: typeof EXIT_AWS | typeof EXIT_FAILED = EXIT_FAILED): Promise<never> {
    const { r, record } = this;
    record.failure = { step: index, stage, reason, at: r.now().toISOString() };
    record.status = 'failed';
    delete record.running;
    this.save();
    const left = await this.leave(`step ${index + 1} failed`);
    throw new CommandFailure(
      `campaign ${r.campaign.name} stopped at step ${index + 1} (${record.steps[index].scenario}), ${stage}: ${reason}; ${left}`,
      exitCode,
    );
  }

  /** Where the campaign leaves the environment: hibernated, or as it is; said in words. */
  async leave(why: string): Promise<string> {
    const { r, record } = this;
    if (r.campaign.onEnd !== 'hibernate' || record.deployed === undefined) {
      record.ended = { at: r.now().toISOString(), environment: 'left as it is' };
      this.save();
      return `the environment is left as it is (${why})`;
    }
    try {
      const last = record.steps.map((s) => s.scenario === record.deployed && s.stages.deploy !== undefined).lastIndexOf(true);
      const said = await r.actions.hibernate({ name: record.deployed, catalog: last < 0 ? r.catalog : await this.catalogOf(last) });
      record.ended = { at: r.now().toISOString(), environment: 'hibernated' };
      this.save();
      return `the environment is hibernated (${said})`;
    } catch (e) {
      return `and hibernating it failed too: ${e instanceof Error ? e.message : String(e)} (npm run hibernate -- --scenario ${record.deployed})`;
    }
  }
}

/** Ctrl-C: the stage it stopped recorded as failed (a resume runs it again), the lock let go, and what to run next. */
function interrupted(r: CampaignRun, record: CampaignRecord, save: () => void): string {
  const at = record.running;
  if (at) record.failure = { step: at.step, stage: at.stage, reason: 'interrupted (Ctrl-C or SIGTERM)', at: r.now().toISOString() };
  record.status = 'failed';
  delete record.running;
  save();
  rmSync(lockPath(r.dir), { force: true });
  const where = at ? ` at step ${at.step + 1} (${record.steps[at.step].scenario}), ${at.stage}` : '';
  return `campaign ${r.campaign.name} stopped${where}; what that stage started in AWS goes on without it; resume: npm run campaign -- run ${r.campaign.file ?? r.campaign.name} --out ${r.dir}`;
}

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

/** Why a step may not start: the projected spend, with what the campaign has spent, past the environment's budget; or undefined. */
function budgetRefusal(p: Projection, index: number, scenario: string): string | undefined {
  const total = p.spent + p.rest;
  if (total > p.budget.usd)
    return (
      `the budget refuses it: spent ${usd(p.spent)} and the rest projected at ${usd(p.rest)} make ${usd(total)}, ` +
      `${usd(total - p.budget.usd)} past the budget of ${usd(p.budget.usd)} (${p.budget.source}); nothing of step ${index + 1} (${scenario}) was started`
    );
  const day = p.days.findIndex((d) => d > p.budget.dailyUsd);
  if (day >= 0)
    return (
      `the budget refuses it: the steps left, back to back, spend ${usd(p.days[day])} in their ${ordinal(day + 1)} 24 hours, ` +
      `${usd(p.days[day] - p.budget.dailyUsd)} past the environment's daily budget of ${usd(p.budget.dailyUsd)} (spending.budget.dailyUsd); nothing of step ${index + 1} (${scenario}) was started`
    );
  return undefined;
}
