#!/usr/bin/env node
/** Lists the scenarios in config/, and keeps the README's scenario table in step with them. */
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { exitOnConfigError, loadCatalog } from '../config';
import { generatedSections, withScenarioTables } from '../lib/commands/scenario-table';
import { readTextFile, writableFile } from '../lib/commands/files';

const program = new Command('scenarios')
  .description('Print the scenario tables generated from config/')
  .option('--update <file>', 'rewrite the generated section of a markdown file')
  .option('--check <file>', 'exit 1 if the generated section of a markdown file is out of date')
  .parse();
const opts = program.opts<{ update?: string; check?: string }>();

const tables = generatedSections(exitOnConfigError(() => loadCatalog()));
if (opts.update) {
  const file = opts.update;
  const doc = exitOnConfigError(() => readTextFile('--update', writableFile('--update', file)));
  writeFileSync(file, withScenarioTables(doc, tables));
} else if (opts.check) {
  const file = opts.check;
  const doc = exitOnConfigError(() => readTextFile('--check', file));
  if (withScenarioTables(doc, tables) !== doc) {
    process.stderr.write(`error: the scenario table in ${opts.check} is out of date; run: npm run scenarios -- --update ${opts.check}\n`);
    process.exit(1);
  }
} else {
  process.stdout.write(`${tables.folio}\n\n${tables.temporal}\n`);
}
