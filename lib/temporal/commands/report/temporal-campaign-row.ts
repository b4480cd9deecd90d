import type { BenchRun } from '../../../commands/shared/run-record';
import type { CampaignRow } from '../../../campaign/family-campaign';
import { num } from '../../../commands/report/report-format';
import type { CostEstimate } from '../../../commands/shared/cost-model';
import { usd } from '../../../commands/shared/money';
import type { TemporalReport } from './temporal-summary';
import type { TemporalScenario } from '../../../../config';
import { cloudPerMillionWorkflows } from '../shared/temporal-cloud';

/*
 * A Temporal preset in the campaign report: the highest rate it held (a ladder's; a single run's
 * completed rate), its P99 there, what held it back, and what a day and a million workflows cost,
 * beside Temporal Cloud's list price for a million at that rate.
 */

export function temporalCampaignRow(r: TemporalReport, scenario: TemporalScenario, estimate: CostEstimate, run?: BenchRun): CampaignRow {
  const ladder = r.ladder;
  // A single run's rate: the workflows it completed over its own start and end (the window's, without a run record).
  const span = r.window.run ?? r.window;
  const seconds = (Date.parse(span.end) - Date.parse(span.start)) / 1000;
  const held = ladder ? ladder.highestHeld : r.workflows !== null && seconds > 0 ? r.workflows / seconds : null;
  const step = ladder?.steps.find((s) => s.rate === ladder.highestHeld);
  // A workflow's P99 from start to completion, as the generator measured it: the step's, or the run's.
  const p99 = ladder ? (step?.figures.p99Ms ?? null) : (run?.result?.results.latency.p99 ?? null);
  const bottlenecks = ladder?.atFirstFailed?.bottlenecks ?? r.bottlenecks;
  const by =
    ladder && !ladder.atFirstFailed
      ? 'nothing: every step held'
      : (bottlenecks.ranked[0]?.component ?? (bottlenecks.unjudged.length ? 'not judged' : 'no rule held'));
  // A day's cost over the workflows a day at the rate held (the cost model's hours under load).
  const m = estimate.perMillionWorkflows;
  const perMillion = held && m ? (m.usd * m.workflowsPerSecond) / held : null;
  // The same workflows at the same rate and hours a day, at Temporal Cloud's list price.
  const loadHours = m ? m.workflowsPerDay / (m.workflowsPerSecond * 3600) : 0;
  const cloud = held && loadHours > 0 ? cloudPerMillionWorkflows(scenario.preset.benchmark.workflowType, held, loadHours) : null;
  const [rate, perDay, million, cloudMillion] = [
    'Highest rate held (workflows/s)',
    'Cost per day (USD)',
    'Cost per million workflows at the rate held (USD)',
    "Temporal Cloud's list price per million workflows at that rate (USD)",
  ];
  return {
    cells: {
      'Highest rate held': held === null ? 'none' : `${num(held, 2)} workflows/s`,
      'P99 there': p99 === null ? 'no data' : `${num(p99, 0)} ms`,
      'Held back by': by,
      'Per day': usd(estimate.total),
      'Per million workflows': perMillion === null ? 'not computed' : usd(perMillion),
      'Temporal Cloud per million': cloud === null ? 'not computed' : usd(cloud),
    },
    figures: {
      [rate]: held,
      [perDay]: Number(estimate.total.toFixed(2)),
      [million]: perMillion === null ? null : Number(perMillion.toFixed(2)),
      [cloudMillion]: cloud === null ? null : Number(cloud.toFixed(2)),
    },
    // What a rate costs: each preset a point, its day and its million workflows (beside Temporal Cloud's) against the rate it held.
    against: { x: rate, ys: [perDay, million, cloudMillion] },
  };
}
