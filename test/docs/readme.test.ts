import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog, resolveScenario } from '../../config';
import { generatedSections, scenarioTable, temporalScenarioTable, withScenarioTables } from '../../lib/commands/scenarios/scenario-table';
import { CONTROL_TOWER_RULES } from '../../lib/constructs/lint-acknowledgements';
import { SUPPORTED_NODE_MAJORS } from '../support/node-versions';

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
  expect(table).toContain('| `temporal-150wps` | Aurora DSQL | 10 × m7g.2xlarge | 0–4 × m7g.2xlarge | 8 × 4/8 | 6 × 1/2 | 4 × 2/4 | 2 × 0.5/1 | 6 × 2/4 | 3 × m6g.large.search | 150/s for 5m |');
});

test("every bootstrap line names the region its scenario's family deploys to, and both families have one", () => {
  const lines = [...README.matchAll(/^npx cdk bootstrap -c scenario=(\S+)\s+# (.*)$/gm)];
  const families = new Set<string>();
  for (const [line, name, comment] of lines) {
    const s = resolveScenario({ scenario: name });
    families.add(s.family);
    expect({ line, region: /bootstraps ([a-z]+-[a-z]+-\d)/.exec(comment)?.[1] }).toEqual({ line, region: s.env.region });
  }
  expect([...families].sort()).toEqual(['folio', 'temporal']);
  // The prerequisites name the same commands.
  for (const family of ['baseline', 'temporal-25wps']) expect(README).toContain(`\`npx cdk bootstrap -c scenario=${family}\` (${resolveScenario({ scenario: family }).family === 'folio' ? 'FOLIO' : 'Temporal'}, ${resolveScenario({ scenario: family }).env.region})`);
});

test('the Control Tower table lists exactly the controls the app acknowledges', () => {
  const section = README.slice(README.indexOf('## Accounts governed by AWS Control Tower'), README.indexOf('## Companion commands'));
  const listed = [...section.matchAll(/^\| (CT\.[A-Z0-9]+\.PR\.\d+) \|/gm)].map((m) => m[1]);
  expect(listed).toEqual(Object.keys(CONTROL_TOWER_RULES));
});

test("the README's counts are the code's", () => {
  const catalog = loadCatalog();
  const rows = readFileSync(join(__dirname, '../bad-input.test.ts'), 'utf8').match(/^ {2}(config|command|spawned|synth|reportWindowRow)\(/gm)!.length;
  expect(README).toContain(`(\`test/bad-input.test.ts\`, ${rows} rows)`);
  const phases = catalog.folio.phases.length;
  const engines = catalog.temporal.scenarios.map((s) => s.store.engine);
  const samePairs = engines.reduce((n, e) => n + engines.filter((x) => x === e).length - 1, 0);
  const presets = catalog.temporal.scenarios.length;
  expect(README).toContain(
    `all ${phases * (phases - 1)} ordered pairs of phases and all ${samePairs} pairs of Temporal presets that share a store (the other ${presets * (presets - 1) - samePairs}, between stores, \`plan\` refuses)`,
  );
  // The admin secret and one per module.
  expect(README).toContain(`per secret (${1 + catalog.folio.modules.length} secrets)`);
});

test('the README documents the offline try of report and bench, and the script exists', () => {
  expect(README).toContain('npm run try:offline');
  expect(JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')).scripts['try:offline']).toBe('node --import tsx scripts/try-offline.ts');
});

test("every path in the README's layout exists", () => {
  const block = /## Layout\n\n```\n([\s\S]*?)```/.exec(README)![1];
  const paths: string[] = [];
  let parent = '';
  for (const line of block.split('\n')) {
    const m = /^( *)(\S+(?:, \S+)*)\s{2,}/.exec(line) ?? /^( *)(\S+)$/.exec(line);
    if (!m) continue;
    const names = m[2].split(', ');
    if (m[1].length === 0) parent = names[0].endsWith('/') ? names[0] : '';
    for (const name of names) if (!name.includes('<')) paths.push(m[1].length ? parent + name : name);
  }
  expect(paths.length).toBeGreaterThan(40);
  expect(paths.filter((p) => !existsSync(join(__dirname, '../..', p)))).toEqual([]);
});

test('the Node.js versions engines declares are the ones CI tests and the README names', () => {
  const majors = SUPPORTED_NODE_MAJORS;
  expect(majors.length).toBeGreaterThanOrEqual(2);
  const ci = readFileSync(join(__dirname, '../../.ci/run'), 'utf8');
  for (const major of majors) {
    expect(ci).toContain(`npm run test:node -- ${major}`);
    expect(README).toContain(`Node.js ${majors.slice(0, -1).join(', ')} or ${majors.at(-1)}`);
  }
});
