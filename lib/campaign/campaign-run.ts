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
 * gone (killed) is taken over.
 */
const lockPath = (dir: string) => join(dir, 'campaign.lock');

function lock(dir: string, name: string): () => void {
  const path = lockPath(dir);
  mkdirSync(dir, { recursive: true });
  const mine = `${process.pid}\n`;
  for (;;) {
    try {
      writeFileSync(path, mine, { flag: 'wx' });
      return () => rmSync(path, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    if (Number.isInteger(pid) && pid > 0 && alive(pid))
      throw new ConfigError(
        `campaign ${name} is running already in ${dir} (process ${pid}, ${path}) (valid: let it finish, or stop that process and run this again)`,
      );
    rmSync(path, { force: true });
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
  const path = recordPath(r.dir);
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
  const save = () => writeRecord(path, record);
  save();
  r.io.onInterrupt(() => interrupted(r, record, save));

  /** Records the failure, leaves the environment as the campaign says, and stops the campaign with one line. */
  const fail = async (index: number, stage: Stage, reason: string, exitCode: typeof EXIT_AWS | typeof EXIT_FAILED = EXIT_FAILED): Promise<never> => {
    record.failure = { step: index, stage, reason, at: r.now().toISOString() };
    record.status = 'failed';
    delete record.running;
    save();
    const left = await leave(`step ${index + 1} failed`);
    throw new CommandFailure(
      `campaign ${r.campaign.name} stopped at step ${index + 1} (${record.steps[index].scenario}), ${stage}: ${reason}; ${left}`,
      exitCode,
    );
  };

  const runStep = async (index: number): Promise<void> => {
    const step = record.steps[index];
    const dir = stepDir(r.dir, index, step.scenario);
    if (!Object.keys(step.stages).length) {
      const refused = budgetRefusal(r.project(record), index, step.scenario);
      if (refused) await fail(index, 'plan', refused);
    }
    for (const stage of STAGES) {
      if (step.stages[stage]) continue;
      const started = r.now().toISOString();
      record.running = { step: index, stage, since: started };
      save();
      r.io.note(`step ${index + 1} (${step.scenario}): ${stage}`);
      let note: string | undefined;
      try {
        const target: Target = { name: step.scenario, catalog: await catalogOf(index) };
        note = await runStage(stage, step, target, dir);
      } catch (e) {
        // AWS that said no or did not answer is exit 2, as for any command; the record keeps the reason either way.
        if (isAwsError(e)) await fail(index, stage, awsErrorLine(e), EXIT_AWS);
        await fail(index, stage, e instanceof Error ? e.message : String(e));
      }
      step.stages[stage] = { started, ended: r.now().toISOString(), ...(note ? { note } : {}) };
      delete record.running;
      save();
    }
  };

  /** The catalog a step's scenario is in: config's, or, for a followed proposal, the one before it with the proposal added. */
  const catalogs = new Map<number, CatalogInput>();
  const catalogOf = async (index: number): Promise<CatalogInput> => {
    const step = record.steps[index];
    if (!step.proposedBy) return r.catalog;
    const known = catalogs.get(index);
    if (known) return known;
    const next = await r.actions.proposal(step.proposedBy, await catalogOf(index - 1));
    if ('none' in next) throw new ConfigError(`${step.proposedBy} no longer proposes a scenario: ${next.none}`);
    if (next.name !== step.scenario) throw new ConfigError(`${step.proposedBy} proposes ${next.name} now, not ${step.scenario} as when the step began`);
    catalogs.set(index, next.catalog);
    return next.catalog;
  };

  const runStage = async (stage: Stage, step: StepRecord, target: Target, dir: string): Promise<string | undefined> => {
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
  };

  const leave = async (why: string): Promise<string> => {
    if (r.campaign.onEnd !== 'hibernate' || record.deployed === undefined) {
      record.ended = { at: r.now().toISOString(), environment: 'left as it is' };
      save();
      return `the environment is left as it is (${why})`;
    }
    try {
      const last = record.steps.map((s) => s.scenario === record.deployed && s.stages.deploy !== undefined).lastIndexOf(true);
      const said = await r.actions.hibernate({ name: record.deployed, catalog: last < 0 ? r.catalog : await catalogOf(last) });
      record.ended = { at: r.now().toISOString(), environment: 'hibernated' };
      save();
      return `the environment is hibernated (${said})`;
    } catch (e) {
      return `and hibernating it failed too: ${e instanceof Error ? e.message : String(e)} (npm run hibernate -- --scenario ${record.deployed})`;
    }
  };

  for (const [i, definition] of r.campaign.steps.entries()) {
    const mine = () => record.steps.map((s, index) => ({ s, index })).filter(({ s }) => s.definition === i);
    for (const { s, index } of mine()) if (!done(s)) await runStep(index);
    if ('scenario' in definition) {
      if (!mine().length) {
        record.steps.push({ definition: i, scenario: definition.scenario, stages: {} });
        await runStep(record.steps.length - 1);
      }
      continue;
    }
    while (mine().length < definition.followProposal.times && record.stopped[i] === undefined) {
      const previous = record.steps.at(-1)!;
      const next = await r.actions.proposal(previous.report!, await catalogOf(record.steps.length - 1));
      if ('none' in next) {
        record.stopped[i] = `${previous.scenario}'s report proposes nothing: ${next.none}`;
        r.io.note(`step ${record.steps.length + 1}: ${record.stopped[i]}; the campaign goes on`);
        save();
        break;
      }
      record.steps.push({ definition: i, scenario: next.name, proposedBy: previous.report!, stages: {} });
      catalogs.set(record.steps.length - 1, next.catalog);
      await runStep(record.steps.length - 1);
    }
  }
  record.status = 'done';
  save();
  const left = await leave('the campaign is done');
  r.io.note(`campaign ${r.campaign.name} done: ${record.steps.length} steps; ${left}`);
  return record;
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
