import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { z } from './zod';
import { CATALOG, ConfigError, resolveScenario, type Scenario } from './index';
import type { CatalogInput } from './catalog-schema';
import { unknownName } from './errors';
import { describeIssues } from './catalog-issues';
import { identityOf } from './family-registry';
import { isTemporal } from './temporal-identity';
import { BENCH_RATE, GENERATOR_RUN, LADDER_STEP_MIN_SECONDS, ladderRates } from './bench-load';
import { durationSeconds, SPAN_GRAMMAR, spanSeconds } from './fields';

/*
 * A campaign: scenarios of one family run one after another, each deployed, loaded and reported,
 * unattended (`npm run campaign`). Written as data in config/campaigns.ts and validated here
 * against the catalog before anything is deployed: every mistake is one line naming it.
 */

/** A duration as the CLI takes one (SPAN_GRAMMAR), from `min` up to `max` seconds, each bound saying why. */
const bounded = (min: { seconds: number; why?: string }, max: { seconds: number; why: string }) =>
  z.string().refine((d) => spanSeconds(d) >= min.seconds && spanSeconds(d) <= max.seconds, {
    error: (iss) => {
      const d = String(iss.input);
      if (!Number.isFinite(spanSeconds(d))) return `"${d}" is not a duration (valid: ${SPAN_GRAMMAR})`;
      const least = min.seconds === 0 ? '0s' : spanText(min.seconds);
      return `"${d}" is not valid (valid: ${least} or more${min.why ? `, ${min.why}` : ''}, and at most ${spanText(max.seconds)}: ${max.why})`;
    },
  });

/** Seconds as the grammar writes them: 90 as 1m30s. */
const spanText = (seconds: number) =>
  [
    [Math.floor(seconds / 3600), 'h'],
    [Math.floor(seconds / 60) % 60, 'm'],
    [seconds % 60, 's'],
  ]
    .map(([n, u]) => (n ? `${n}${u}` : ''))
    .join('') || '0s';

const STEP = { seconds: 48 * 3600, why: 'one step of a campaign, whose environment bills by the hour' };
const STEP_MAX = bounded({ seconds: 1 }, STEP);
/** A stage the budget's projection counts in minutes at least: a deploy, the wait for a healthy environment, a report. */
const ESTIMATE = bounded({ seconds: 60, why: 'a stage takes minutes' }, STEP);
const rate = z.number().int().min(BENCH_RATE.min).max(BENCH_RATE.max);

/** Temporal: `bench run` with its options (each defaults to the preset's benchmark). */
const benchRun = z.strictObject({
  kind: z.literal('bench-run'),
  rate: rate.optional(),
  duration: bounded({ seconds: 120, why: "a run the report's 1-minute points fit in whole" }, GENERATOR_RUN).optional(),
  rampUp: bounded({ seconds: 0 }, GENERATOR_RUN).optional(),
});
/** Temporal: `bench ladder` with its options (doubling from the preset's targetRate by default). */
const benchLadder = z.strictObject({
  kind: z.literal('bench-ladder'),
  from: rate.optional(),
  upTo: rate.optional(),
  rates: z.array(rate).min(1).max(20).optional(),
  step: bounded({ seconds: LADDER_STEP_MIN_SECONDS, why: "the generator's start and a scrape are most of a shorter step" }, GENERATOR_RUN).optional(),
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
const wait = z.strictObject({
  kind: z.literal('wait'),
  duration: bounded({ seconds: 120, why: "a load the report's 1-minute points fit in whole" }, STEP),
});

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
  estimates: z.strictObject({ deploy: ESTIMATE, ready: ESTIMATE, report: ESTIMATE }),
});
export type CampaignInput = z.input<typeof campaignSchema>;

/** A campaign validated against the catalog: its family, and each step's scenario resolved. */
export interface Campaign extends z.output<typeof campaignSchema> {
  readonly family: Scenario['family'];
  /** The first step's scenario: a follow step needs one before it. */
  readonly first: Scenario;
  /** How the command line names it when that is not its name: the path of the file it was read from. */
  readonly file?: string;
}

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
    const { loads } = identityOf(family);
    if (!(loads as readonly string[]).includes(s.load.kind))
      throw new ConfigError(`${at(i)}: load ${s.load.kind} does not run on a ${family} scenario (valid: ${loads.join(', ')})`);
    // What bench run would refuse after the deploy, refused before it (the preset's values where the step gives none).
    const named = 'scenario' in s ? resolveScenario({ scenario: s.scenario }, catalog) : undefined;
    if (s.load.kind === 'bench-run' && named && isTemporal(named)) {
      const b = named.preset.benchmark;
      const [rampUp, duration] = [s.load.rampUp ?? b.rampUp, s.load.duration ?? b.duration];
      // A shorter run may hold no whole 1-minute point, and its report would be refused after the load.
      if (durationSeconds(duration) < 120)
        throw new ConfigError(`${at(i)}: a run of ${duration} may hold no whole minute of the report's 1-minute points (valid: a duration of 2m or more)`);
      if (durationSeconds(rampUp) >= durationSeconds(duration))
        throw new ConfigError(
          `${at(i)}: ramp-up ${rampUp} is not shorter than the run's duration ${duration} (valid: a ramp-up shorter than the run, e.g. 0s)`,
        );
    }
    if (s.load.kind === 'bench-ladder') checkLadder(s.load, named ?? first!, `${at(i)}.load`);
    if (s.load.kind === 'command') findProgram(s.load.command[0], `${at(i)}.load.command[0]`);
  });
  return { ...c, family, first: first! };
}

/** The ladder bench ladder would climb for this step, checked as it checks its options, each named as the step writes it. */
function checkLadder(load: Extract<CampaignLoad, { kind: 'bench-ladder' }>, scenario: Scenario, at: string): void {
  if (load.rates && (load.from !== undefined || load.upTo !== undefined))
    throw new ConfigError(`${at}: a ladder's rates and its from/upTo both say which rates to offer (valid: one of them)`);
  if (!isTemporal(scenario)) return;
  const from = load.from ?? scenario.preset.benchmark.targetRate;
  const fields = { rates: 'rates', from: load.from === undefined ? `from (${scenario.name}'s targetRate)` : 'from', upTo: 'upTo' };
  try {
    ladderRates({ ...load, from, maxSteps: scenario.environment.observability.ladder.maxSteps }, fields);
  } catch (e) {
    throw e instanceof ConfigError ? new ConfigError(`${at}: ${e.message}`) : e;
  }
}

/** A load command's program as spawn finds it: a path to an executable file, or a name on PATH. Refused by name before any deploy. */
function findProgram(program: string, at: string): void {
  const executable = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return statSync(path).isFile();
    } catch {
      return false;
    }
  };
  const found = program.includes('/')
    ? executable(resolve(program))
    : (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && executable(join(dir, program)));
  if (!found)
    throw new ConfigError(
      `${at}: "${program}" is ${program.includes('/') ? 'not an executable file' : 'not a program on PATH'} (valid: a program on PATH, or a path to an executable file, relative to where the campaign runs)`,
    );
}
