import type { TemporalScenario } from '../../../../config';
import { TEMPORAL_CLOUD_ACTIONS } from '../../../../config/temporal-cloud-prices';
import type { CostComparison } from '../../../commands/shared/cost-model';
import { plural } from '../../../commands/shared/figure';
import { usd } from '../../../commands/shared/money';
import { ACTIONS_PER_WORKFLOW } from '../../contract/benchmark-actions';

/*
 * A preset set against Temporal Cloud for the same load: the month's actions at the preset's
 * rate (the benchmark workflow's own actions), what Temporal Cloud's pay-as-you-go list price
 * charges for them, and the rate at which self-hosting costs the same. A month is 30 days, as
 * the budget's.
 */

const DAYS_A_MONTH = 30;
const { tiers } = TEMPORAL_CLOUD_ACTIONS;
const LAST = tiers[tiers.length - 1];

/** The list price of a month's actions (millions), tier by tier; past the last tier, at its price (Temporal Cloud prices that by contract). */
export function cloudListPrice(millions: number): { readonly usd: number; readonly pastTiersMillions: number } {
  let price = 0;
  let from = 0;
  for (const t of tiers) {
    price += (Math.min(millions, t.upToMillions) - from) * t.usdPerMillion;
    if (millions <= t.upToMillions) return { usd: price, pastTiersMillions: 0 };
    from = t.upToMillions;
  }
  return { usd: price + (millions - LAST.upToMillions) * LAST.usdPerMillion, pastTiersMillions: millions - LAST.upToMillions };
}

/** The month's actions (millions) Temporal Cloud's list price charges `usd` for, as cloudListPrice reads its tiers. */
export function actionsCosting(usdPerMonth: number): { readonly millions: number; readonly pastTiers: boolean } {
  let price = 0;
  let from = 0;
  for (const t of tiers) {
    const tier = (t.upToMillions - from) * t.usdPerMillion;
    if (price + tier >= usdPerMonth) return { millions: from + (usdPerMonth - price) / t.usdPerMillion, pastTiers: false };
    price += tier;
    from = t.upToMillions;
  }
  return { millions: LAST.upToMillions + (usdPerMonth - price) / LAST.usdPerMillion, pastTiers: true };
}

const millions = (m: number) => `${m >= 100 ? Math.round(m).toLocaleString('en-US') : Number(m.toPrecision(3))}M`;

type WorkflowType = TemporalScenario['preset']['benchmark']['workflowType'];

/** A month's actions (millions) for each workflow a second, `loadHoursPerDay` hours a day. */
const actionsPerWorkflowSecond = (workflowType: WorkflowType, loadHoursPerDay: number) =>
  3600 * loadHoursPerDay * DAYS_A_MONTH * ACTIONS_PER_WORKFLOW[workflowType].actions;

/** Temporal Cloud's list price per million workflows of this type at a rate held `loadHoursPerDay` hours a day: the month's price over its workflows. */
export function cloudPerMillionWorkflows(workflowType: WorkflowType, workflowsPerSecond: number, loadHoursPerDay: number): number {
  const perSecond = actionsPerWorkflowSecond(workflowType, loadHoursPerDay);
  const month = cloudListPrice((workflowsPerSecond * perSecond) / 1e6).usd;
  return month / ((workflowsPerSecond * perSecond) / ACTIONS_PER_WORKFLOW[workflowType].actions / 1e6);
}

/** The preset at `workflowsPerSecond` for `loadHoursPerDay` hours a day, costing `dayUsd`, against Temporal Cloud. */
export function againstTemporalCloud(preset: TemporalScenario['preset'], workflowsPerSecond: number, loadHoursPerDay: number, dayUsd: number): CostComparison {
  const { workflowType } = preset.benchmark;
  const perWorkflow = ACTIONS_PER_WORKFLOW[workflowType].actions;
  const perWorkflowSecond = actionsPerWorkflowSecond(workflowType, loadHoursPerDay);
  const monthMillions = (workflowsPerSecond * perWorkflowSecond) / 1e6;
  const selfMonth = dayUsd * DAYS_A_MONTH;
  const cloud = cloudListPrice(monthMillions);
  const even = actionsCosting(selfMonth);
  const evenRate = (even.millions * 1e6) / perWorkflowSecond;
  const contract = `Temporal Cloud's published tiers end at ${millions(LAST.upToMillions)} actions a month; past that it prices by contract, so a figure past them extends the last tier's $${LAST.usdPerMillion} per million`;
  return {
    title: 'Against Temporal Cloud',
    headers: [
      'Actions per workflow',
      'Actions a month',
      'Self-hosted a month',
      'Self-hosted per million actions',
      'Temporal Cloud list price a month',
      'Break-even rate',
    ],
    rows: [
      [
        `${perWorkflow} (${workflowType}: its start, ${plural(ACTIONS_PER_WORKFLOW[workflowType].activities, 'activity start')}${ACTIONS_PER_WORKFLOW[workflowType].timers ? ', a timer' : ''})`,
        `${millions(monthMillions)} (${Number(workflowsPerSecond.toFixed(2))}/s, ${loadHoursPerDay} h a day, ${DAYS_A_MONTH} days)`,
        usd(selfMonth),
        usd(selfMonth / monthMillions),
        `${usd(cloud.usd)}${cloud.pastTiersMillions > 0 ? ' (past the tiers: by contract)' : ''}`,
        `${Number(evenRate.toPrecision(3))} workflows/s${even.pastTiers ? ' (past the tiers)' : ''}`,
      ],
    ],
    notes: [
      `Above the break-even rate this preset costs less than Temporal Cloud's list price for the same actions, as long as it holds the rate; below it, Temporal Cloud costs less. Storage and support plans are not counted.`,
      ...(cloud.pastTiersMillions > 0 || even.pastTiers ? [`${contract}.`] : []),
      `Temporal Cloud prices from config/temporal-cloud-prices.ts (${TEMPORAL_CLOUD_ACTIONS.source}, recorded ${TEMPORAL_CLOUD_ACTIONS.asOf}).`,
    ],
  };
}
