#!/usr/bin/env node
/** Lists the scenarios in config/, and keeps a document's scenario tables in step with them. */
import { runScenarios, type ScenariosOptions } from '../lib/commands/scenarios/run-scenarios';
import { entryPoint, newCommand, runCommand, sharedOption } from '../lib/commands/shared/cli';

const program = newCommand('scenarios', { aws: false })
  .description('Print the scenario tables generated from config/')
  .option('--update <file>', 'rewrite the generated section of a markdown file')
  .option('--check <file>', 'exit 1 if the generated section of a markdown file is out of date')
  .addOption(sharedOption.json('print every scenario as config resolves it, by family, as JSON'));

entryPoint(() => runCommand(() => runScenarios(program.parse().opts<ScenariosOptions>())));
