#!/usr/bin/env node
/** What a first deploy of a scenario needs that CloudFormation does not create, checked before `cdk deploy`. */
import { entryPoint, EXIT_FAILED, newCommand, runCommand, sharedOption } from '../lib/commands/shared/cli';
import { type PreflightOptions, runPreflight } from '../lib/commands/preflight/run-preflight';

const program = newCommand('preflight', { aws: true, [EXIT_FAILED]: 'something the deploy needs is missing (the table names what supplies it)' })
  .description(
    "Checks, before a deploy, what the scenario's stacks need and CloudFormation does not create: the CDK bootstrap of its account\n" +
      'and region (at the version its templates require), every ECR image config names, Docker for an image built as a CDK asset,\n' +
      "and OpenSearch's service-linked role (Temporal). Prints a table with the command that supplies each missing piece.",
  )
  .addOption(sharedOption.scenario('a FOLIO phase or a Temporal preset').makeOptionMandatory())
  .addOption(sharedOption.envName())
  .addOption(sharedOption.endpointUrl())
  .addOption(sharedOption.json('print the checks as JSON'))
  .addHelpText('after', '\nExamples:\n  npm run preflight -- --scenario temporal-25wps\n  npm run preflight -- --scenario baseline');

entryPoint(() => runCommand(() => runPreflight(program.parse().opts<PreflightOptions>())));
