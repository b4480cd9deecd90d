#!/usr/bin/env node
/** Lists the scenarios in config/, and keeps a document's scenario tables in step with them. */
import { runScenarios, type ScenariosOptions } from '../lib/commands/scenarios/run-scenarios';
import { entryPoint, newCommand, runCommand } from '../lib/commands/shared/cli';

const program = newCommand('scenarios', { aws: false })
  .description('Print the scenario tables generated from config/')
  .option('--update <file>', 'rewrite the generated section of a markdown file')
  .option('--check <file>', 'exit 1 if the generated section of a markdown file is out of date');

entryPoint(() => runCommand(() => runScenarios(program.parse().opts<ScenariosOptions>())));
