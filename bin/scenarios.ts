#!/usr/bin/env node
/** Lists the scenarios in config/, and keeps the README's scenario table in step with them. */
import { ConfigError, loadCatalog } from '../config';
import { runCommand, newCommand } from '../lib/commands/shared/cli';
import { readTextFile, writableFile, writeOutput } from '../lib/commands/shared/files';
import { generatedSections, withScenarioTables } from '../lib/commands/scenarios/scenario-table';

const program = newCommand('scenarios')
  .description('Print the scenario tables generated from config/')
  .option('--update <file>', 'rewrite the generated section of a markdown file')
  .option('--check <file>', 'exit 1 if the generated section of a markdown file is out of date');

void runCommand(async () => {
  const o = program.parse().opts<{ update?: string; check?: string }>();
  if (o.update !== undefined && o.check !== undefined) throw new ConfigError('--update and --check cannot be combined (valid: one of them, or neither to print the tables)');
  const tables = generatedSections(loadCatalog());
  if (o.update !== undefined) {
    const file = writableFile('--update', o.update);
    writeOutput(file, withScenarioTables(readTextFile('--update', o.update), tables, `--update "${o.update}"`));
  } else if (o.check !== undefined) {
    const doc = readTextFile('--check', o.check);
    if (withScenarioTables(doc, tables, `--check "${o.check}"`) !== doc) throw new ConfigError(`the scenario table in ${o.check} is out of date; run: npm run scenarios -- --update ${o.check}`);
  } else {
    process.stdout.write(`${tables.folio}\n\n${tables.temporal}\n`);
  }
});
