import { BUDGET_MONTH_DAYS } from '../../config/spending-schema';
import type { Campaign, CampaignLoad } from '../../config/campaign-schema';
import type { CatalogInput } from '../../config/catalog-schema';
import { durationSeconds } from '../../config/fields';
import type { Scenario } from '../../config';
import { markdownTable } from '../commands/shared/markdown-table';
import { HOURS_PER_DAY, usd } from '../commands/shared/money';
import { plural } from '../commands/shared/figure';
import { familyOf } from '../families';
import type { CampaignRecord, Stage, StepRecord } from './campaign-record';

/*
 * What a campaign will cost from where it stands: each step's hours (config's estimates for the
 * deploy, the wait for a healthy environment and the report; the load's own length), priced at
 * its scenario's running day from the cost model, against the environment's budget.
 */

interface ProjectedStep {
  readonly index: number;
  readonly scenario: string;
  readonly load: string;
  readonly hours: number;
  readonly usdPerDay: number;
  readonly usd: number;
  /** Finished: its spend is in `spent`, not in `rest`. */
  readonly done: boolean;
  readonly note?: string;
}

export interface Projection {
  readonly steps: readonly ProjectedStep[];
  readonly spent: number;
  readonly rest: number;
  /** The rest's spend in each 24 hours from now, the steps back to back: what the daily budget sees. */
  readonly days: readonly number[];
  readonly budget: { readonly usd: number; readonly dailyUsd: number; readonly source: string };
}

export interface ProjectionDeps {
  readonly resolve: (name: string, catalog?: CatalogInput) => Scenario;
  /** A scenario's running day, in USD (the cost model's total). */
  readonly usdPerDay: (scenario: Scenario) => number;
}

const hours = (d: string) => durationSeconds(d) / 3600;

/** How long a load runs, at most: what the projection bills it for. */
function loadHours(load: CampaignLoad, scenario: Scenario): number {
  switch (load.kind) {
    case 'wait':
      return hours(load.duration);
    case 'command':
      return hours(load.timeout);
    case 'bench-run':
    case 'bench-ladder':
      // A family's own load: its generator's run or ladder, with the generator's start and stop.
      return familyOf(scenario).loadHours?.(load, scenario) ?? 0;
  }
}

const describeLoad = (load: CampaignLoad): string =>
  ({
    'bench-run': () => `bench run${load.kind === 'bench-run' && load.rate ? ` at ${load.rate}/s` : ''}`,
    'bench-ladder': () => 'bench ladder',
    command: () => (load.kind === 'command' ? `${load.command.join(' ')} (up to ${load.timeout})` : ''),
    wait: () => (load.kind === 'wait' ? `wait ${load.duration}` : ''),
  })[load.kind]();

const STAGE_HOURS = (c: Campaign): Record<Exclude<Stage, 'load'>, number> => ({
  plan: 0,
  // The deploy's estimate covers the switch's moves too.
  move: 0,
  deploy: hours(c.estimates.deploy),
  ready: hours(c.estimates.ready),
  report: hours(c.estimates.report),
});

/** The campaign's spend so far (from its record's stage times) and the rest of it, projected. */
export function projectCampaign(c: Campaign, record: CampaignRecord | undefined, deps: ProjectionDeps): Projection {
  const stageHours = STAGE_HOURS(c);
  const steps: ProjectedStep[] = [];
  let spent = 0;
  let rest = 0;
  let clock = 0;
  const days: number[] = [];
  const recorded = record?.steps ?? [];
  const rateOf = new Map<string, number>();
  const dayOf = (scenario: Scenario) => rateOf.get(scenario.name) ?? rateOf.set(scenario.name, deps.usdPerDay(scenario)).get(scenario.name)!;
  let previous: Scenario = c.first;

  const add = (definition: number, step: StepRecord | undefined, scenario: Scenario, note?: string) => {
    const load = c.steps[definition].load;
    const perHour = dayOf(scenario) / HOURS_PER_DAY;
    let left = 0;
    for (const [stage, h] of Object.entries({ ...stageHours, load: loadHours(load, scenario) }) as [Stage, number][]) {
      const done = step?.stages[stage];
      if (done) spent += ((Date.parse(done.ended) - Date.parse(done.started)) / 3_600_000) * perHour;
      else left += h;
    }
    rest += left * perHour;
    // Spread over the 24-hour days it runs in, from now.
    for (let h = left; h > 1e-9;) {
      const day = Math.floor(clock / 24 + 1e-9);
      const part = Math.min(h, (day + 1) * 24 - clock);
      days[day] = (days[day] ?? 0) + part * perHour;
      clock += part;
      h -= part;
    }
    const all = Object.values(stageHours).reduce((a, b) => a + b, 0) + loadHours(load, scenario);
    steps.push({
      index: steps.length,
      scenario: scenario.name,
      load: describeLoad(load),
      hours: all,
      usdPerDay: dayOf(scenario),
      usd: all * perHour,
      done: left === 0,
      ...(note ? { note } : {}),
    });
    previous = scenario;
  };

  c.steps.forEach((definition, i) => {
    const mine = recorded.filter((s) => s.definition === i);
    if ('scenario' in definition) {
      add(i, mine[0], deps.resolve(definition.scenario));
      return;
    }
    // A proposed scenario is not known before its report: it is projected at the rate of the step it follows.
    for (const s of mine) add(i, s, previous, `${s.scenario}, proposed: projected at ${previous.name}'s rate`);
    const stopped = record?.stopped[i] !== undefined;
    for (let n = mine.length; n < definition.followProposal.times && !stopped; n++)
      add(i, undefined, previous, `whatever ${previous.name}'s report proposes, if anything: projected at its rate`);
  });

  const dailyUsd = c.first.environment.spending.budget.dailyUsd;
  return {
    steps,
    spent,
    rest,
    days,
    budget: {
      usd: dailyUsd * BUDGET_MONTH_DAYS,
      dailyUsd,
      source: `the environment's spending.budget.dailyUsd, ${usd(dailyUsd)}, × ${BUDGET_MONTH_DAYS} days: the month AWS Budgets forecasts`,
    },
  };
}

/** `campaign plan`: the steps, their switches and the projected spend, in markdown. */
export function renderProjection(c: Campaign, p: Projection, switches: readonly string[]): string {
  const h = (v: number) => (v < 10 ? Number(v.toFixed(2)) : Math.round(v)).toLocaleString('en-US');
  const hoursAll = p.steps.reduce((a, s) => a + s.hours, 0);
  const total = p.spent + p.rest;
  return [
    `# Campaign: ${c.name}`,
    '',
    `${c.title}. ${plural(p.steps.length, 'step')} of ${familyOf(c).kind}s, about ${h(hoursAll)} hours back to back; the environment is ${c.onEnd === 'hibernate' ? 'hibernated' : 'left as it is'} when it ends or a step fails.`,
    '',
    markdownTable(
      ['Step', 'Scenario', 'Load', 'Hours', 'Per day', 'Projected', 'Switch to it'],
      p.steps.map((s, i) => [
        String(s.index + 1),
        s.scenario + (s.note ? ` (${s.note})` : ''),
        s.load,
        h(s.hours),
        usd(s.usdPerDay),
        s.done ? `${usd(s.usd)} (done)` : usd(s.usd),
        switches[i] ?? '',
      ]),
    ),
    '',
    `Spent so far ${usd(p.spent)}; the rest projected at ${usd(p.rest)}; ${usd(total)} in all against a budget of ${usd(p.budget.usd)} (${p.budget.source}): ` +
      (total > p.budget.usd
        ? `**${usd(total - p.budget.usd)} past it: the campaign would stop before the step that crosses it.**`
        : `${usd(p.budget.usd - total)} to spare.`),
    '',
    `Each 24 hours from now, the steps back to back: ${p.days.map(usd).join(', ') || 'nothing left'}, against the daily budget of ${usd(p.budget.dailyUsd)}` +
      (p.days.some((d) => d > p.budget.dailyUsd) ? ': **a day past it: the campaign would stop before its first step.**' : '.'),
    '',
    `Each step is billed at its scenario's running day (\`npm run cost\`, load all day) for the deploy (${c.estimates.deploy}, moves included), the wait for a healthy environment (${c.estimates.ready}), its load and its report (${c.estimates.report}).`,
    '',
  ].join('\n');
}
