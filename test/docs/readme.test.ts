import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog } from '../../config';
import { scenarioTable, withScenarioTable } from '../../config/scenario-table';

const README = readFileSync(join(__dirname, '../../README.md'), 'utf8');

test("the README's scenario table is the one config generates", () => {
  expect(withScenarioTable(README, scenarioTable(loadCatalog()))).toBe(README);
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
