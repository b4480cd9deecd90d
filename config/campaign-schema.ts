import { z } from './zod';
import { CATALOG, ConfigError, resolveScenario, type Scenario } from './index';
import type { CatalogInput } from './catalog-schema';
import { describeIssues, unknownName } from './errors';
import { durationSeconds, goDuration } from './fields';

/*
 * A campaign: scenarios of one family run one after another, each deployed, loaded and reported,
 * unattended (`npm run campaign`). Written as data in config/campaigns.ts and validated here
 * against the catalog before anything is deployed: every mistake is one line naming it.
 */

/** A duration with a ceiling that says why: a campaign step is hours, not weeks. */
const bounded = (max: string, why: string, min: '0s' | '2m' | undefined = undefined) =>
  goDuration.refine((d) => (min ? durationSeconds(d) >= durationSeconds(min) : durationSeconds(d) > 0) && durationSeconds(d) <= durationSeconds(max), {
    error: (iss) =>
      `"${String(iss.input)}" is not valid (valid: ${min ? `${min} or more` : 'above 0'} and at most ${max}; ${min === '2m' ? `a load the report's 1-minute points fit in whole, ${why}` : why})`,
  });

const WHY = 'one step of a campaign, whose environment bills by the hour';
const STEP_MAX = bounded('48h', WHY);
const rate = z.number().int().min(1).max(100_000);

/** Temporal: `bench run` with its options (each defaults to the preset's benchmark). */
const benchRun = z.strictObject({
  kind: z.literal('bench-run'),
  rate: rate.optional(),
  duration: STEP_MAX.optional(),
  rampUp: bounded('48h', WHY, '0s').optional(),
});
/** Temporal: `bench ladder` with its options (doubling from the preset's targetRate by default). */
const benchLadder = z.strictObject({
  kind: z.literal('bench-ladder'),
  from: rate.optional(),
  upTo: rate.optional(),
  rates: z.array(rate).min(1).max(20).optional(),
  step: STEP_MAX.optional(),
});
/**
 * FOLIO: the user's own load tool, run with the step's scenario in CAMPAIGN_SCENARIO; a non-zero
 * exit fails the step. `timeout` ends it (and bounds the budget's projection).
 */
const command = z.strictObject({
  kind: z.literal('command'),
  command: z.array(z.string().min(1)).min(1, { error: 'an empty command (valid: the program and its arguments, e.g. ["./load.sh", "--tenants", "30"])' }),
  timeout: STEP_MAX,
});
/** FOLIO: a wait of a stated length while the user's load runs on its own schedule. */
const wait = z.strictObject({ kind: z.literal('wait'), duration: bounded('48h', WHY, '2m') });

const load = z.discriminatedUnion('kind', [benchRun, benchLadder, command, wait], {
  error: (iss) =>
    `load kind ${JSON.stringify((iss.input as { kind?: unknown } | undefined)?.kind)} is not valid (valid: bench-run, bench-ladder, command, wait)`,
});
export type CampaignLoad = z.output<typeof load>;

/**
 * A step: a scenario and its load; or `followProposal`, which deploys the phase or preset the
 * previous step's report proposed, then that one's, up to `times`, and stops following when a
 * report proposes nothing. One object with both optional, so a mistake in `load` is named as such.
 */
const step = z
  .strictObject({
    scenario: z.string().min(1).optional(),
    followProposal: z.strictObject({ times: z.number().int().min(1).max(10) }).optional(),
    load,
  })
  .refine((s) => (s.scenario === undefined) !== (s.followProposal === undefined), {
    error: 'a step names a scenario or followProposal, not both and not neither (valid: { scenario, load } or { followProposal: { times }, load })',
  })
  .transform(
    (s): { readonly scenario: string; readonly load: CampaignLoad } | { readonly followProposal: { readonly times: number }; readonly load: CampaignLoad } =>
      s.scenario !== undefined ? { scenario: s.scenario, load: s.load } : { followProposal: s.followProposal!, load: s.load },
  );

const campaignSchema = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9-]{0,62}$/, { error: 'valid: lower case letters, digits and dashes, starting with a letter' }),
  title: z.string().min(1),
  steps: z.array(step).min(1).max(50),
  /** Where the environment is left when the campaign ends or a step fails: hibernated (the default in the examples) or as it is. */
  onEnd: z.enum(['hibernate', 'leave'], { error: 'valid: hibernate, leave' }),
  /** For the budget's projection: how long a deploy, the wait for a healthy environment and a report take. */
  estimates: z.strictObject({ deploy: STEP_MAX, ready: STEP_MAX, report: STEP_MAX }),
});
export type CampaignInput = z.input<typeof campaignSchema>;

/** A campaign validated against the catalog: its family, and each step's scenario resolved. */
export interface Campaign extends z.output<typeof campaignSchema> {
  readonly family: Scenario['family'];
  /** The first step's scenario: a follow step needs one before it. */
  readonly first: Scenario;
}

const TEMPORAL_LOADS = ['bench-run', 'bench-ladder'];

/** One campaign by name, validated; one ConfigError line for the first mistake. */
/** The campaigns' names, once the list is one: an array (the export misspelt or made an object reads as undefined), each name once. */
function campaignNames(campaigns: unknown): string[] {
  if (!Array.isArray(campaigns))
    throw new ConfigError(
      `config/campaigns.ts: CAMPAIGNS is ${campaigns === undefined ? 'not exported' : `${campaigns === null ? 'null' : typeof campaigns}, not a list`} (valid: export const CAMPAIGNS: CampaignInput[] = [...], an array of campaigns)`,
    );
  const names = campaigns.map((c: { name?: unknown }, i) => (typeof c?.name === 'string' ? c.name : `#${i + 1}`));
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw new ConfigError(`config/campaigns.ts: two campaigns are named ${twice} (valid: a name each; the second could never be run)`);
  return names;
}

export function resolveCampaign(name: string, campaigns: readonly CampaignInput[], catalog: CatalogInput = CATALOG): Campaign {
  const names = campaignNames(campaigns);
  const input = campaigns.find((c) => c.name === name);
  if (!input) throw new ConfigError(unknownName('campaign', name, names));
  const parsed = campaignSchema.safeParse(input);
  if (!parsed.success)
    throw new ConfigError(describeIssues(parsed.error.issues, input, campaignSchema).replace(/^config error in /, `config error in campaign ${name}: `));
  const c = parsed.data;
  const at = (i: number) => `campaign ${name}, steps[${i}]`;
  let first: Scenario | undefined;
  c.steps.forEach((s, i) => {
    if (!('scenario' in s)) {
      if (i === 0) throw new ConfigError(`${at(i)}: followProposal has no report before it to follow (valid: a scenario step first)`);
    } else {
      let scenario: Scenario;
      try {
        scenario = resolveScenario({ scenario: s.scenario }, catalog);
      } catch (e) {
        if (e instanceof ConfigError) throw new ConfigError(`${at(i)}: ${e.message}`);
        throw e;
      }
      first ??= scenario;
      if (scenario.family !== first.family)
        throw new ConfigError(
          `${at(i)}: ${s.scenario} is a ${scenario.family} scenario, the campaign's first is ${first.family} (valid: one family's scenarios: one environment)`,
        );
    }
  });
  const family = first!.family;
  c.steps.forEach((s, i) => {
    const fits = family === 'temporal' ? TEMPORAL_LOADS.includes(s.load.kind) : !TEMPORAL_LOADS.includes(s.load.kind);
    if (!fits)
      throw new ConfigError(
        `${at(i)}: load ${s.load.kind} does not run on a ${family} scenario (valid: ${family === 'temporal' ? 'bench-run, bench-ladder' : 'command, wait'})`,
      );
    // What bench run would refuse after the deploy, refused before it (the preset's values where the step gives none).
    if (s.load.kind === 'bench-run' && 'scenario' in s) {
      const b = (resolveScenario({ scenario: s.scenario }, catalog) as Extract<Scenario, { family: 'temporal' }>).preset.benchmark;
      const [rampUp, duration] = [s.load.rampUp ?? b.rampUp, s.load.duration ?? b.duration];
      // A shorter run may hold no whole 1-minute point, and its report would be refused after the load.
      if (durationSeconds(duration) < 120)
        throw new ConfigError(`${at(i)}: a run of ${duration} may hold no whole minute of the report's 1-minute points (valid: a duration of 2m or more)`);
      if (durationSeconds(rampUp) >= durationSeconds(duration))
        throw new ConfigError(
          `${at(i)}: ramp-up ${rampUp} is not shorter than the run's duration ${duration} (valid: a ramp-up shorter than the run, e.g. 0s)`,
        );
    }
    if (s.load.kind === 'bench-ladder' && s.load.rates && (s.load.from !== undefined || s.load.upTo !== undefined))
      throw new ConfigError(`${at(i)}: a ladder's rates and its from/upTo both say which rates to offer (valid: one of them)`);
  });
  return { ...c, family, first: first! };
}
