#!/usr/bin/env node
/** The Aurora PostgreSQL versions config checks against, per region, and their refresh from RDS. */
import { type EngineVersionsOptions, runEngineVersions } from '../lib/commands/engine-versions/run-engine-versions';
import { entryPoint, newCommand, runCommand, sharedOption } from '../lib/commands/shared/cli';

const program = newCommand('engine-versions', { aws: true })
  .description(
    'The Aurora PostgreSQL versions each region offers, with their Serverless v2 range and instance classes: what config refuses\n' +
      'an engine version, an ACU range or an instance class against (config/engine-versions/<region>.json). --refresh reads them from RDS.',
  )
  .option('--refresh', 'rewrite the files from DescribeDBEngineVersions and DescribeOrderableDBInstanceOptions (needs AWS credentials)')
  .option('--region <region>', 'one region (default: every region with a file)')
  .addOption(sharedOption.endpointUrl())
  .addOption(sharedOption.json("print each region's file as JSON"))
  .addHelpText('after', '\nExamples:\n  npm run engine-versions\n  npm run engine-versions -- --refresh --region eu-west-1');

entryPoint(() => runCommand(() => runEngineVersions(program.parse().opts<EngineVersionsOptions>())));
