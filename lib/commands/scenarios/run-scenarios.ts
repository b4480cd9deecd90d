import { ConfigError, loadCatalog } from '../../../config';
import type { CommandOutput } from '../shared/cli';
import { readTextFile, writableFile, writeOutput } from '../shared/files';
import { generatedSections, scenariosByFamily, withScenarioTables } from './scenario-table';

/* `npm run scenarios`: the scenario tables config generates, printed, or kept in step in a markdown file. */

export interface ScenariosOptions {
  readonly update?: string;
  readonly check?: string;
  readonly json?: boolean;
}

export async function runScenarios(o: ScenariosOptions): Promise<CommandOutput> {
  if (o.update !== undefined && o.check !== undefined)
    throw new ConfigError('--update and --check cannot be combined (valid: one of them, or neither to print the tables)');
  if (o.json && (o.update !== undefined || o.check !== undefined))
    throw new ConfigError(`--json prints the scenarios; it does not go with ${o.update !== undefined ? '--update' : '--check'} (valid: --json alone)`);
  const catalog = loadCatalog();
  if (o.json) return { stdout: `${JSON.stringify(scenariosByFamily(catalog), null, 2)}\n` };
  const tables = generatedSections(catalog);
  if (o.update !== undefined) {
    const file = writableFile('--update', o.update);
    writeOutput(file, withScenarioTables(readTextFile('--update', o.update), tables, `--update "${o.update}"`));
    return { stdout: '' };
  }
  if (o.check !== undefined) {
    const doc = readTextFile('--check', o.check);
    if (withScenarioTables(doc, tables, `--check "${o.check}"`) !== doc)
      throw new ConfigError(`the scenario table in ${o.check} is out of date; run: npm run scenarios -- --update ${o.check}`);
    return { stdout: '' };
  }
  return {
    stdout: `${tables
      .filter((t) => t.name !== 'campaigns')
      .map((t) => t.table)
      .join('\n\n')}\n`,
  };
}
