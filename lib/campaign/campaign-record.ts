import { createHash } from 'node:crypto';
import { z } from '../../config/zod';
import { lstatSync } from 'node:fs';
import { ConfigError } from '../../config';
import type { Campaign, CampaignInput } from '../../config/campaign-schema';
import { readJsonFile, writeFileAtomically } from '../../config/json-file';

/*
 * A campaign's record (reports/campaigns/<name>/campaign.json): what each step has done, stage by
 * stage, rewritten whole after every stage, so a campaign killed anywhere resumes where it was.
 */

/** A step's stages, in the order they run. */
export const STAGES = ['plan', 'move', 'deploy', 'ready', 'load', 'report'] as const;
export type Stage = (typeof STAGES)[number];

/** A stage that finished: when it started and ended, and what it left (a file, a note). */
interface StageDone {
  readonly started: string;
  readonly ended: string;
  readonly note?: string;
}

export interface StepRecord {
  /** The step of the definition it runs (a followProposal step runs as several). */
  readonly definition: number;
  readonly scenario: string;
  /** A followed proposal: the report.json that proposed this scenario. */
  readonly proposedBy?: string;
  readonly stages: Partial<Record<Stage, StageDone>>;
  /** The plan said the switch moves data (FOLIO's schemas): the move stage runs the mover. */
  moves?: boolean;
  /** The load's window, and the run record bench wrote. */
  load?: { readonly start: string; readonly end: string; readonly runRecord?: string };
  /** The report.json the report stage wrote. */
  report?: string;
}

export interface CampaignRecord {
  readonly campaign: string;
  /** The definition's fingerprint: a record resumes only the definition it was written for. */
  readonly definition: string;
  readonly started: string;
  status: 'running' | 'failed' | 'done';
  /** The scenario this campaign last deployed. */
  deployed?: string;
  /** The stage under way, written before it starts. */
  running?: { readonly step: number; readonly stage: Stage; readonly since: string };
  failure?: { readonly step: number; readonly stage: Stage; readonly reason: string; readonly at: string };
  /** Follow steps that found nothing to follow, by definition index, and why. */
  stopped: Record<number, string>;
  steps: StepRecord[];
  ended?: { readonly at: string; readonly environment: string };
}

/** The definition's fingerprint: the sha-256 of its JSON with keys sorted. */
export function fingerprint(definition: CampaignInput): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, x]) => [k, sorted(x)]),
          )
        : v;
  return createHash('sha256')
    .update(JSON.stringify(sorted(definition)))
    .digest('hex')
    .slice(0, 16);
}

export function newRecord(definition: CampaignInput, now: Date): CampaignRecord {
  return { campaign: definition.name, definition: fingerprint(definition), started: now.toISOString(), status: 'running', stopped: {}, steps: [] };
}

/** The record at `path`, or undefined when there is none yet; one that is not a campaign record is refused. */
export function readRecord(path: string): CampaignRecord | undefined {
  // lstat, not exists: a link that loops or dangles is something there, to be refused, not "no record".
  if (!lstatSync(path, { throwIfNoEntry: false })) return undefined;
  const parsed = recordSchema.safeParse(readJsonFile(path, path, 'the campaign.json a campaign run wrote'));
  if (!parsed.success) throw new ConfigError(`${path} is not a campaign record (valid: the campaign.json a campaign run wrote, or another --out)`);
  return parsed.data as CampaignRecord;
}

const when = z.iso.datetime({ offset: true });
const stage = z.enum(STAGES);
/** What a record must hold to be resumed or reported: a hand-edited or foreign file is refused whole. */
const recordSchema = z
  .object({
    campaign: z.string().min(1),
    definition: z.string().min(1),
    started: when,
    status: z.enum(['running', 'failed', 'done']),
    deployed: z.string().optional(),
    running: z.object({ step: z.number().int().min(0), stage, since: when }).optional(),
    failure: z.object({ step: z.number().int().min(0), stage, reason: z.string(), at: when }).optional(),
    stopped: z.record(z.string(), z.string()).default({}),
    steps: z.array(
      z.object({
        definition: z.number().int().min(0),
        scenario: z.string().min(1),
        proposedBy: z.string().optional(),
        stages: z.partialRecord(stage, z.object({ started: when, ended: when, note: z.string().optional() })),
        moves: z.boolean().optional(),
        load: z.object({ start: when, end: when, runRecord: z.string().optional() }).optional(),
        report: z.string().optional(),
      }),
    ),
    ended: z.object({ at: when, environment: z.string() }).optional(),
  })
  .refine((r) => r.status !== 'failed' || r.failure !== undefined);

export const writeRecord = (path: string, r: CampaignRecord): void => writeFileAtomically(path, `${JSON.stringify(r, null, 2)}\n`);

/** The longest a stage may have taken: past the budget's month, its times are not a stage's. */
const STAGE_MAX_MS = 31 * 86_400_000;

/**
 * A record judged from its own data against the campaign it is read for, as run and ladder
 * records are: another campaign's, another definition's, steps that the definition does not have
 * (an index past its steps, a scenario step's scenario changed, a scenario step run twice, more
 * follows than it allows) and impossible times (a stage that ends before it starts, or lasts
 * longer than the budget's month) are refused whole, in one line naming the record.
 */
export function judgeRecord(record: CampaignRecord, campaign: Campaign, definition: CampaignInput, path: string): void {
  const refuse = (why: string, valid = `start over with another --out`): never => {
    throw new ConfigError(`${path}: ${why} (valid: ${valid})`);
  };
  if (record.campaign !== campaign.name) refuse(`campaign ${record.campaign}'s record, not ${campaign.name}'s`, `another --out for ${campaign.name}`);
  if (record.definition !== fingerprint(definition))
    refuse(
      `written for another definition of campaign ${campaign.name} (fingerprint ${record.definition}, now ${fingerprint(definition)}): a resumed campaign would mix two experiments`,
      'restore the definition, or start over with another --out',
    );
  record.steps.forEach((s, i) => {
    const at = `step ${i + 1} (${s.scenario})`;
    const d = campaign.steps[s.definition];
    if (!d) refuse(`${at} runs definition step ${s.definition + 1}, which campaign ${campaign.name} does not have (it has ${campaign.steps.length})`);
    if (i > 0 && s.definition < record.steps[i - 1].definition) refuse(`${at} runs before a step it follows in the definition`);
    const same = record.steps.filter((x) => x.definition === s.definition).length;
    if ('scenario' in d) {
      if (s.scenario !== d.scenario) refuse(`${at} is not definition step ${s.definition + 1}'s scenario, ${d.scenario}`);
      if (same > 1) refuse(`${at} is recorded ${same} times; a scenario step runs once`);
    } else if (s.proposedBy === undefined || same > d.followProposal.times)
      refuse(
        `${at} is not a followed proposal definition step ${s.definition + 1} allows (${d.followProposal.times} at most, each with the report that proposed it)`,
      );
    for (const [stage, t] of Object.entries(s.stages)) judgeSpan(`${at}, ${stage}`, t.started, t.ended, refuse);
    if (s.load) judgeSpan(`${at}'s load`, s.load.start, s.load.end, refuse);
  });
}

function judgeSpan(what: string, start: string, end: string, refuse: (why: string) => never): void {
  const ms = Date.parse(end) - Date.parse(start);
  if (ms < 0) refuse(`${what} ends (${end}) before it starts (${start})`);
  if (ms > STAGE_MAX_MS) refuse(`${what} lasts ${Math.round(ms / 86_400_000)} days, longer than the budget's month`);
}
