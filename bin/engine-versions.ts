#!/usr/bin/env node
/** The Aurora PostgreSQL versions config checks against, per region, and their refresh from RDS. */
import { region } from '../config/fields';
import { ConfigError } from '../config';
import { rdsClient } from '../lib/commands/aws/clients';
import { endpointUrl, newCommand, runCommand } from '../lib/commands/shared/cli';
import { runEngineVersions } from '../lib/commands/engine-versions/run-engine-versions';

const program = newCommand('engine-versions')
  .description(
    'The Aurora PostgreSQL versions each region offers, with their Serverless v2 range and instance classes: what config refuses\n' +
      'an engine version, an ACU range or an instance class against (config/engine-versions/<region>.json). --refresh reads them from RDS.',
  )
  .option('--refresh', 'rewrite the files from DescribeDBEngineVersions and DescribeOrderableDBInstanceOptions (needs AWS credentials)')
  .option('--region <region>', 'one region (default: every region with a file)')
  .option('--endpoint-url <url>', 'an AWS-API-compatible endpoint instead of AWS (a local emulator)', endpointUrl)
  .addHelpText('after', '\nExamples:\n  npm run engine-versions\n  npm run engine-versions -- --refresh --region eu-west-1');

void runCommand(async () => {
  const o = program.parse().opts<{ refresh?: boolean; region?: string; endpointUrl?: string }>();
  if (o.region !== undefined && !region.safeParse(o.region).success) throw new ConfigError(`--region "${o.region}" is not an AWS region (valid: a region name such as eu-west-1)`);
  if (o.endpointUrl !== undefined && !o.refresh) throw new ConfigError('--endpoint-url applies to --refresh only (valid: add --refresh, or leave it out)');
  const today = new Date().toISOString().slice(0, 10);
  process.stdout.write(await runEngineVersions({ refresh: o.refresh === true, region: o.region }, (r) => rdsClient({ region: r, endpoint: o.endpointUrl }), today));
});
