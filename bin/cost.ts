#!/usr/bin/env node
import { ConfigError, describeOffload, resolveScenario } from '../config';
import { loadPrices, pricedRegions, savePrices } from '../config/prices';
import { pricingClient } from '../lib/commands/aws/clients';
import { endpointUrl, newCommand, numberOption, progress, runCommand } from '../lib/commands/shared/cli';
import { markdownTable } from '../lib/commands/shared/markdown-table';
import { costOf } from '../lib/commands/cost/cost-model';
import { refreshPrices } from '../lib/commands/cost/price-list';
import { renderCost } from '../lib/commands/cost/render-cost';
import { readReport } from '../lib/commands/shared/report-file';

const program = newCommand('cost')
  .description(
    "A scenario's daily cost, line by line, in the shape of seed 000's Daily Cost Estimate: compute per ASG, DSQL, OpenSearch,\n" +
      'CloudWatch, Prometheus, NAT and endpoints (Temporal); the primary cluster\'s instances and the offload cluster\'s: provisioned, or\n' +
      'Serverless v2 at its floor, its ceiling and an observed average, each on its storage type (FOLIO). Prices come from config/prices/<region>.json; --refresh-prices updates them from the AWS Price List API.',
  )
  .option('-s, --scenario <name>', 'a FOLIO phase or a Temporal preset')
  .option('--env-name <name>', 'the envName the stacks are deployed with, if any')
  .option('--tx-rate <per-second>', 'Temporal: DSQL transactions per second under load (default: the preset\'s recorded rate, else target × tx per workflow)')
  .option('--load-hours <hours>', 'Temporal: hours a day the benchmark load runs (default: 24, as the seed extrapolates)')
  .option('--observed-acu <acu>', 'FOLIO: the average capacity of a run of a Serverless v2 offload cluster')
  .option('--report <report.json>', 'a report the report command wrote: its average tx rate (Temporal) or average ACU (FOLIO)')
  .option('--json', 'print the estimate as JSON')
  .option('--refresh-prices', 'update config/prices/<region>.json from the AWS Price List API, then exit')
  .option('--region <region>', 'with --refresh-prices: the region to refresh (default: every priced region)')
  .option('--endpoint-url <url>', 'an AWS-API-compatible endpoint instead of AWS (a local emulator)', endpointUrl)
  .addHelpText(
    'after',
    '\nExamples:\n' +
      '  npm run cost -- --scenario temporal-150wps\n' +
      '  npm run cost -- --scenario test10 --report reports/test10-20260121T100000Z/report.json\n' +
      '  npm run cost -- --refresh-prices --region eu-west-1',
  );

interface Options {
  scenario?: string;
  envName?: string;
  txRate?: string;
  loadHours?: string;
  observedAcu?: string;
  report?: string;
  json?: boolean;
  refreshPrices?: boolean;
  region?: string;
  endpointUrl?: string;
}

async function refresh(o: Options): Promise<number> {
  const regions = o.region ? [o.region] : pricedRegions();
  const client = pricingClient({ endpoint: o.endpointUrl });
  const today = new Date().toISOString().slice(0, 10);
  const status = progress();
  for (const region of regions) {
    const { file, outcomes } = await refreshPrices(client, loadPrices(region), today, (key) => status.update(`GetProducts: ${region} ${key}`));
    status.done();
    savePrices(file);
    const rows = outcomes.map((r) => [r.key, r.status, `${r.before}`, `${r.after}`, r.why]);
    process.stdout.write(`## ${region}\n\n${markdownTable(['Price', 'Status', 'Before', 'After', 'Why'], rows)}\n\n`);
  }
  return 0;
}

async function main(o: Options): Promise<number> {
  if (o.refreshPrices) {
    const estimateOnly = Object.entries({ '--scenario': o.scenario, '--env-name': o.envName, '--tx-rate': o.txRate, '--load-hours': o.loadHours, '--observed-acu': o.observedAcu, '--report': o.report, '--json': o.json }).find(([, v]) => v !== undefined);
    if (estimateOnly) throw new ConfigError(`${estimateOnly[0]} does not go with --refresh-prices, which only rewrites config/prices (valid with it: --region, --endpoint-url; run the estimate after the refresh)`);
    return refresh(o);
  }
  if (o.region) throw new ConfigError('--region applies to --refresh-prices only; a scenario\'s region comes from its config');
  if (!o.scenario) throw new ConfigError('no scenario given: pass --scenario <name> (or --refresh-prices)');
  const scenario = resolveScenario({ scenario: o.scenario, envName: o.envName }, undefined, '--scenario');
  const temporalOnly = { '--tx-rate': o.txRate, '--load-hours': o.loadHours };
  const folioOnly = { '--observed-acu': o.observedAcu };
  const [kind, own, other] = scenario.family === 'folio' ? ['FOLIO phase', folioOnly, temporalOnly] : ['Temporal preset', temporalOnly, folioOnly];
  const misplaced = Object.entries(other).find(([, v]) => v !== undefined);
  if (misplaced) throw new ConfigError(`${misplaced[0]} does not apply to ${scenario.name} (a ${kind}; valid here: ${Object.keys(own).join(', ')})`);

  let transactionsPerSecond = numberOption('--tx-rate', o.txRate, { min: 0, max: 1_000_000 });
  let observedAverageAcu = numberOption('--observed-acu', o.observedAcu, { min: 0, max: 256 });
  let observedFrom = observedAverageAcu === undefined ? undefined : '--observed-acu';
  if (o.report) {
    // The report's figure and a figure given by hand would be two answers to one question.
    const byHand = Object.entries({ '--tx-rate': o.txRate, '--observed-acu': o.observedAcu }).find(([, v]) => v !== undefined);
    if (byHand) throw new ConfigError(`${byHand[0]} and --report both say what the load was (valid: one of them)`);
    const report = readReport(o.report, '--report');
    if (report.family !== scenario.family) throw new ConfigError(`${o.report} is a ${report.family} report; ${scenario.name} needs a ${scenario.family} report`);
    if (report.scenario !== scenario.name)
      throw new ConfigError(`${o.report} is a report of ${report.scenario}, not of ${scenario.name}: its load is another phase's (valid: --scenario ${report.scenario}, or a report of ${scenario.name})`);
    if (report.family === 'temporal' && transactionsPerSecond === undefined) {
      const perMinute = report.metrics.transactions.totalPerMinute.average;
      if (perMinute === null) throw new ConfigError(`${o.report} has no DSQL transaction rate (no data in its window)`);
      transactionsPerSecond = perMinute / 60;
    }
    if (report.family === 'folio' && observedAverageAcu === undefined && scenario.family === 'folio' && scenario.phase.offload.serverless) {
      if (report.metrics.acu?.average == null) throw new ConfigError(`${o.report} has no Serverless v2 capacity (no data in its window)`);
      observedAverageAcu = report.metrics.acu!.average!;
      observedFrom = `${report.scenario}, ${[report.window.start, report.window.end].map((t) => t.replace(/\.000Z$/, 'Z')).join(' to ')}`;
    }
  }
  if (scenario.family === 'folio' && observedAverageAcu !== undefined) {
    const range = scenario.phase.offload.serverless;
    if (!range) throw new ConfigError(`--observed-acu applies to a Serverless v2 offload cluster; ${scenario.name}'s is ${describeOffload(scenario.phase.offload)} (valid: a phase whose offload is serverless)`);
    const { min, max } = range;
    if (observedAverageAcu < min || observedAverageAcu > max)
      throw new ConfigError(`${observedFrom === '--observed-acu' ? '--observed-acu' : `the average ACU of ${o.report}`} ${observedAverageAcu} is outside ${scenario.name}'s range (valid: ${min}-${max} ACU, the phase's Serverless v2 range)`);
  }
  const loadHoursPerDay = numberOption('--load-hours', o.loadHours, { min: 0, max: 24 });
  const estimate = costOf(scenario, loadPrices(scenario.env.region), {
    transactionsPerSecond,
    observedAverageAcu,
    observedFrom,
    ...(loadHoursPerDay === undefined ? {} : { assumptions: { loadHoursPerDay } }),
  });
  process.stdout.write(o.json ? `${JSON.stringify(estimate, null, 2)}\n` : renderCost(estimate));
  return 0;
}

void runCommand(() => main(program.parse().opts<Options>()));
