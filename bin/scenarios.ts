#!/usr/bin/env node
/** Lists the scenarios in config/, and keeps the README's scenario table in step with them. */
import { readFileSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { exitOnConfigError, loadCatalog } from '../config';
import { scenarioTable, withScenarioTable } from '../config/scenario-table';

const program = new Command('scenarios')
  .description('Print the scenario table generated from config/')
  .option('--update <file>', 'rewrite the generated section of a markdown file')
  .option('--check <file>', 'exit 1 if the generated section of a markdown file is out of date')
  .parse();
const opts = program.opts<{ update?: string; check?: string }>();

const table = scenarioTable(exitOnConfigError(() => loadCatalog()));
if (opts.update) {
  writeFileSync(opts.update, withScenarioTable(readFileSync(opts.update, 'utf8'), table));
} else if (opts.check) {
  const doc = readFileSync(opts.check, 'utf8');
  if (withScenarioTable(doc, table) !== doc) {
    process.stderr.write(`error: the scenario table in ${opts.check} is out of date; run: npm run scenarios -- --update ${opts.check}\n`);
    process.exit(1);
  }
} else {
  process.stdout.write(`${table}\n`);
}
