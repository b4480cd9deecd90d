import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog } from '../../config';
import { generatedSections, scenarioTable, temporalScenarioTable, withScenarioTables } from '../../config/scenario-table';

const README = readFileSync(join(__dirname, '../../README.md'), 'utf8');

test("the README's scenario tables are the ones config generates", () => {
  expect(withScenarioTables(README, generatedSections(loadCatalog()))).toBe(README);
});

test('the README opens with the two fresh-machine commands, and CI runs the test one', () => {
  const [synth, tests] = README.split('\n').slice(1, 3);
  expect(synth).toMatch(/^npm run setup && npx cdk synth -c scenario=\S+/);
  expect(tests).toMatch(/^npm run setup && npm test\b/);
  const ci = readFileSync(join(__dirname, '../../.ci/run'), 'utf8');
  expect(ci).toContain('npm run setup && npm test');
});

test('the table lists every phase', () => {
  const table = scenarioTable(loadCatalog());
  for (const p of loadCatalog().folio.phases) expect(table).toContain(`| \`${p.name}\` |`);
});

test('the Temporal table lists every preset with its seed numbers', () => {
  const table = temporalScenarioTable(loadCatalog());
  for (const s of loadCatalog().temporal.scenarios) expect(table).toContain(`| \`${s.name}\` |`);
  expect(table).toContain('| `temporal-150wps` | 10 × m7g.2xlarge | 0–4 × m7g.2xlarge | 8 × 4/8 | 6 × 1/2 | 4 × 2/4 | 2 × 0.5/1 | 6 × 2/4 | 3 × m6g.large.search | 150/s for 5m |');
});
