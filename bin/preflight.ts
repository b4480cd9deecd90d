#!/usr/bin/env node
/** What a first deploy of a scenario needs that CloudFormation does not create, checked before `cdk deploy`. */
import { entryPoint, endpointUrl, newCommand, runCommand } from '../lib/commands/shared/cli';
import { type PreflightOptions, runPreflight } from '../lib/commands/preflight/run-preflight';

const program = newCommand('preflight')
  .description(
    "Checks, before a deploy, what the scenario's stacks need and CloudFormation does not create: the CDK bootstrap of its account\n" +
      'and region (at the version its templates require), every ECR image config names, Docker for an image built as a CDK asset,\n' +
      "and OpenSearch's service-linked role (Temporal). Prints a table with the command that supplies each missing piece; exits 5 if any is missing.",
  )
  .requiredOption('-s, --scenario <name>', 'a FOLIO phase or a Temporal preset')
  .option('--env-name <name>', 'the envName the stacks are deployed with, if any')
  .option('--endpoint-url <url>', 'an AWS-API-compatible endpoint instead of AWS (a local emulator)', endpointUrl)
  .addHelpText('after', '\nExamples:\n  npm run preflight -- --scenario temporal-25wps\n  npm run preflight -- --scenario baseline');

entryPoint(() => runCommand(() => runPreflight(program.parse().opts<PreflightOptions>())));
