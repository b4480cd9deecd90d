import { ConfigError } from '../../../config';
import { costOf, familyOf } from '../../families';
import { loadPrices, pricedRegions, savePrices } from '../../../config/prices';
import { loadAwsClients } from '../aws/load-clients';
import { type CommandOutput, processIO, today, type CommandDeps } from '../shared/cli';
import { numberOption } from '../shared/option-values';
import { markdownTable } from '../shared/markdown-table';
import { readReport } from '../shared/report-file';
import { resolveTarget } from '../shared/target';
import type { CostInputs } from '../shared/cost-model';
import { refreshPrices } from './price-list';
import { renderCost } from '../shared/render-cost';

/*
 * `npm run cost`: a scenario's daily cost from config/prices (at a load given by hand or read
 * from a report), or --refresh-prices: the price files rewritten from the AWS Price List API.
 */

export interface CostOptions {
  readonly scenario?: string;
  readonly envName?: string;
  readonly txRate?: string;
  readonly loadHours?: string;
  readonly observedAcu?: string;
  readonly report?: string;
  readonly json?: boolean;
  readonly refreshPrices?: boolean;
  readonly region?: string;
  readonly endpointUrl?: string;
}

export interface CostDeps extends CommandDeps {
  /** The date a refreshed price records. */
  readonly today?: string;
}

async function refresh(o: CostOptions, deps: CostDeps): Promise<CommandOutput> {
  const io = deps.io ?? processIO();
  const regions = o.region ? [o.region] : pricedRegions();
  const client = (deps.aws ?? loadAwsClients)().pricing({ endpoint: o.endpointUrl });
  const out: string[] = [];
  for (const region of regions) {
    const { file, outcomes } = await refreshPrices(client, loadPrices(region), deps.today ?? today(), (key) =>
      io.status.update(`GetProducts: ${region} ${key}`),
    );
    io.status.done();
    savePrices(file);
    const rows = outcomes.map((r) => [r.key, r.status, `${r.before}`, `${r.after}`, r.why]);
    out.push(`## ${region}\n\n${markdownTable(['Price', 'Status', 'Before', 'After', 'Why'], rows)}\n\n`);
  }
  return { stdout: out.join('') };
}

export async function runCost(o: CostOptions, deps: CostDeps = {}): Promise<CommandOutput> {
  if (o.refreshPrices) {
    const estimateOnly = Object.entries({
      '--scenario': o.scenario,
      '--env-name': o.envName,
      '--tx-rate': o.txRate,
      '--load-hours': o.loadHours,
      '--observed-acu': o.observedAcu,
      '--report': o.report,
      '--json': o.json,
    }).find(([, v]) => v !== undefined);
    if (estimateOnly)
      throw new ConfigError(
        `${estimateOnly[0]} does not go with --refresh-prices, which only rewrites config/prices (valid with it: --region, --endpoint-url; run the estimate after the refresh)`,
      );
    return refresh(o, deps);
  }
  if (o.region) throw new ConfigError("--region applies to --refresh-prices only; a scenario's region comes from its config");
  if (o.endpointUrl !== undefined)
    throw new ConfigError(
      '--endpoint-url applies to --refresh-prices only: an estimate reads config/prices and calls no AWS API (valid: --refresh-prices --endpoint-url <url>)',
    );
  if (!o.scenario) throw new ConfigError('no scenario given: pass --scenario <name> (or --refresh-prices)');
  const { scenario } = resolveTarget(o);
  const family = familyOf(scenario);
  const given = { '--tx-rate': o.txRate, '--load-hours': o.loadHours, '--observed-acu': o.observedAcu };
  const misplaced = Object.entries(given).find(([k, v]) => v !== undefined && !family.costOptions.includes(k));
  if (misplaced)
    throw new ConfigError(
      `${misplaced[0]} does not apply to ${scenario.name} (a ${family.kind}; valid here: ${family.costOptions.join(', ') || 'none of --tx-rate, --load-hours, --observed-acu'})`,
    );

  let inputs: CostInputs = {
    transactionsPerSecond: numberOption('--tx-rate', o.txRate, { min: 0, max: 1_000_000 }),
    observedAverageAcu: numberOption('--observed-acu', o.observedAcu, { min: 0, max: 256 }),
    ...(o.observedAcu === undefined ? {} : { observedFrom: '--observed-acu' }),
  };
  if (o.report) {
    // The report's figure and a figure given by hand would be two answers to one question.
    const byHand = Object.entries({ '--tx-rate': o.txRate, '--observed-acu': o.observedAcu }).find(([, v]) => v !== undefined);
    if (byHand) throw new ConfigError(`${byHand[0]} and --report both say what the load was (valid: one of them)`);
    const report = readReport(o.report, '--report');
    if (report.family !== scenario.family)
      throw new ConfigError(`${o.report} is a ${report.family} report; ${scenario.name} needs a ${scenario.family} report`);
    if (report.scenario !== scenario.name)
      throw new ConfigError(
        `${o.report} is a report of ${report.scenario}, not of ${scenario.name}: its load is another phase's (valid: --scenario ${report.scenario}, or a report of ${scenario.name})`,
      );
    inputs = family.loadFromReport(report, scenario, o.report, inputs);
  }
  family.checkCostInputs(scenario, inputs, inputs.observedFrom === '--observed-acu' || !o.report ? '--observed-acu' : `the average ACU of ${o.report}`);
  const loadHoursPerDay = numberOption('--load-hours', o.loadHours, { min: 0, max: 24 });
  const estimate = costOf(scenario, loadPrices(scenario.env.region), {
    ...inputs,
    ...(loadHoursPerDay === undefined ? {} : { assumptions: { loadHoursPerDay } }),
  });
  return { stdout: o.json ? `${JSON.stringify(estimate, null, 2)}\n` : renderCost(estimate) };
}
