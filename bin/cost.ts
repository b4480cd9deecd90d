#!/usr/bin/env node
import { type CostOptions, runCost } from '../lib/commands/cost/run-cost';
import { entryPoint, newCommand, runCommand, sharedOption } from '../lib/commands/shared/cli';

const program = newCommand('cost', { aws: true })
  .description(
    "A scenario's daily cost, line by line, in the shape of seed 000's Daily Cost Estimate: compute per ASG, DSQL, OpenSearch,\n" +
      "CloudWatch, Prometheus, NAT and endpoints (Temporal); the primary cluster's instances and the offload cluster's: provisioned, or\n" +
      'Serverless v2 at its floor, its ceiling and an observed average, each on its storage type (FOLIO). Prices come from config/prices/<region>.json; --refresh-prices updates them from the AWS Price List API.',
  )
  .addOption(sharedOption.scenario('a FOLIO phase or a Temporal preset'))
  .addOption(sharedOption.envName())
  .option('--tx-rate <per-second>', "Temporal: DSQL transactions per second under load (default: the preset's recorded rate, else target × tx per workflow)")
  .option('--load-hours <hours>', 'Temporal: hours a day the benchmark load runs (default: 24, as the seed extrapolates)')
  .option('--observed-acu <acu>', 'FOLIO: the average capacity of a run of a Serverless v2 offload cluster')
  .option('--report <report.json>', 'a report the report command wrote: its average tx rate (Temporal) or average ACU (FOLIO)')
  .addOption(sharedOption.json('print the estimate as JSON'))
  .option('--refresh-prices', 'update config/prices/<region>.json from the AWS Price List API, then exit')
  .option('--region <region>', 'with --refresh-prices: the region to refresh (default: every priced region)')
  .addOption(sharedOption.endpointUrl())
  .addHelpText(
    'after',
    '\nExamples:\n' +
      '  npm run cost -- --scenario temporal-150wps\n' +
      '  npm run cost -- --scenario test10 --report reports/test10-20260121T100000Z/report.json\n' +
      '  npm run cost -- --refresh-prices --region eu-west-1',
  );

entryPoint(() => runCommand(() => runCost(program.parse().opts<CostOptions>())));
