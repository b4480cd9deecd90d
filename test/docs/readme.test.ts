import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { loadCatalog, resolveScenario } from '../../config';
import { generatedSections, withScenarioTables } from '../../lib/commands/scenarios/scenario-table';
import { CONTROL_TOWER_RULES } from '../../lib/platform/constructs/lint-acknowledgements';
import { SUPPORTED_NODE_MAJORS } from '../support/node-versions';
import { sourceFiles } from '../support/source-size';
import { anchors, MANUAL, page, PAGES, README, section } from '../support/manual';

/*
 * The README and the pages under docs/ against the code: the generated tables, the counts and
 * the names they state, and every link between them.
 */

const ROOT = join(__dirname, '../..');

test('the README fits a few screens, and links every page under docs/', () => {
  expect(README.split('\n').length).toBeLessThanOrEqual(250);
  const pages = [...PAGES.keys()].filter((p) => p !== 'README.md');
  expect(pages.length).toBeGreaterThanOrEqual(8);
  for (const p of pages) expect(`${p}: ${README.includes(`](${p})`)}`).toBe(`${p}: true`);
});

test.each([...PAGES.keys()])('every relative link in %s resolves: the file exists, and so does the heading it names', (path) => {
  const text = page(path).replace(/```[\s\S]*?```/g, '');
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target)) continue;
    const [file, anchor] = target.split('#');
    const resolved = file ? normalize(join(dirname(path), file)) : path;
    if (!existsSync(join(ROOT, resolved))) broken.push(`${target}: no file ${resolved}`);
    else if (anchor && !anchors(file ? (PAGES.get(resolved) ?? readFileSync(join(ROOT, resolved), 'utf8')) : text).has(anchor)) broken.push(`${target}: no heading #${anchor} in ${resolved}`);
  }
  expect(broken).toEqual([]);
});

test('a link to a missing heading is found (the check can fail)', () => {
  expect(anchors(page('docs/folio.md')).has('switching-phases')).toBe(true);
  expect(anchors(page('docs/folio.md')).has('switching-phase')).toBe(false);
  expect(anchors('```\n# not a heading\n```\n## Cost: what a day costs\n')).toEqual(new Set(['cost-what-a-day-costs']));
});

/** A family's generated table, as `npm run scenarios` makes it. */
const tableOf = (family: string) => generatedSections(loadCatalog()).find((t) => t.name === family)!.table;

test("every page's scenario tables are the ones config generates, and each family's table is on its page", () => {
  const tables = generatedSections(loadCatalog());
  for (const [path, text] of PAGES) if (/<!-- (temporal-scenarios|scenarios|campaigns):start \(/.test(text)) expect(`${path}\n${withScenarioTables(text, tables)}`).toBe(`${path}\n${text}`);
  expect(tables.map((t) => t.name)).toEqual(['folio', 'temporal', 'campaigns']);
  expect(page('docs/folio.md')).toContain(tableOf('folio'));
  expect(page('docs/temporal.md')).toContain(tableOf('temporal'));
  expect(page('docs/campaigns.md')).toContain(tableOf('campaigns'));
});

test('the README opens with the two fresh-machine commands, and CI runs the test one', () => {
  const [synth, tests] = README.split('\n').slice(1, 3);
  expect(synth).toMatch(/^npm run setup && npx cdk synth -c scenario=\S+/);
  expect(tests).toMatch(/^npm run setup && npm test\b/);
  const ci = readFileSync(join(__dirname, '../../.ci/run'), 'utf8');
  expect(ci).toContain('npm run setup && npm test');
});

test('the table lists every phase', () => {
  const table = tableOf('folio');
  for (const p of loadCatalog().folio.phases) expect(table).toContain(`| \`${p.name}\` |`);
});

test('the Temporal table lists every preset with its seed numbers', () => {
  const table = tableOf('temporal');
  for (const s of loadCatalog().temporal.scenarios) expect(table).toContain(`| \`${s.name}\` |`);
  expect(table).toContain('| `temporal-150wps` | Aurora DSQL | 10 × m7g.2xlarge | 0–4 × m7g.2xlarge | 8 × 4/8 | 6 × 1/2 | 4 × 2/4 | 2 × 0.5/1 | 6 × 2/4 | 3 × m6g.large.search | 150/s for 5m |');
});

test("every bootstrap line names the region its scenario's family deploys to, and both families have one", () => {
  const lines = [...MANUAL.matchAll(/^npx cdk bootstrap -c scenario=(\S+)\s+# (.*)$/gm)];
  const families = new Set<string>();
  for (const [line, name, comment] of lines) {
    const s = resolveScenario({ scenario: name });
    families.add(s.family);
    expect({ line, region: /bootstraps ([a-z]+-[a-z]+-\d)/.exec(comment)?.[1] }).toEqual({ line, region: s.env.region });
  }
  expect([...families].sort()).toEqual(['folio', 'temporal']);
  // The README's first steps and the prerequisites name the same commands.
  for (const text of [README, page('docs/deploying.md')])
    for (const family of ['baseline', 'temporal-25wps'])
      expect(text).toContain(`\`npx cdk bootstrap -c scenario=${family}\` (${resolveScenario({ scenario: family }).family === 'folio' ? 'FOLIO' : 'Temporal'}, ${resolveScenario({ scenario: family }).env.region})`);
});

test('the Control Tower table lists exactly the controls the app acknowledges', () => {
  const listed = [...section(page('docs/deploying.md'), '## Accounts governed by AWS Control Tower').matchAll(/^\| (CT\.[A-Z0-9]+\.PR\.\d+) \|/gm)].map((m) => m[1]);
  expect(listed).toEqual(Object.keys(CONTROL_TOWER_RULES));
});

test("the manual's counts are the code's", () => {
  const catalog = loadCatalog();
  const rows = readFileSync(join(__dirname, '../bad-input.test.ts'), 'utf8').match(/^ {2}(config|command|spawned|synth|reportWindowRow)\(/gm)!.length;
  expect(page('docs/testing.md')).toContain(`(\`test/bad-input.test.ts\`, ${rows} rows)`);
  // Counted in the code, never on the page: a new scenario changes no count written here.
  expect(page('docs/testing.md')).toContain(
    'every pair of phases and every pair of Temporal presets that share a store (pairs between stores, `plan` refuses)',
  );
  // The admin secret and one per module.
  expect(page('docs/cost-and-capacity.md')).toContain(`per secret (${1 + catalog.folio.modules.length} secrets)`);
});

test('the manual documents the offline try of report and bench, and the script exists', () => {
  expect(page('docs/commands.md')).toContain('npm run try:offline');
  expect(JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')).scripts['try:offline']).toBe('node --import tsx scripts/try-offline.ts');
});

/** The paths of the layout's tree: a name indented under a directory is inside it. */
function layoutPaths(block: string): string[] {
  const paths: string[] = [];
  const parents: { indent: number; dir: string }[] = [];
  for (const line of block.split('\n')) {
    const m = /^( *)(\S+(?:, \S+)*)(?:\s{2,}|$)/.exec(line);
    if (!m || !m[2].includes('.') && !m[2].includes('/')) continue;
    const indent = m[1].length;
    while (parents.length && parents.at(-1)!.indent >= indent) parents.pop();
    const prefix = parents.at(-1)?.dir ?? '';
    const names = m[2].split(', ');
    for (const name of names) if (!name.includes('<') && !name.includes('*')) paths.push(prefix + name);
    if (names.length === 1 && names[0].endsWith('/')) parents.push({ indent, dir: prefix + names[0] });
  }
  return paths;
}

test("every path in the layout exists, nested paths included", () => {
  const block = /^```\n([\s\S]*?)```/m.exec(page('docs/layout.md'))![1];
  const paths = layoutPaths(block);
  expect(paths.length).toBeGreaterThan(40);
  expect(paths).toContain('lib/temporal/constructs/stack-scoped/history-store.ts');
  expect(paths.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  expect(layoutPaths('lib/\n  gone.ts   a file that is not there\n')).toEqual(['lib/', 'lib/gone.ts']);
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

test('every path of the project the manual names in code exists', () => {
  const named = new Set<string>();
  for (const [, span] of MANUAL.matchAll(/`([^`\s]+)`/g)) {
    const path = span.replace(/[.,:;)]+$/, '');
    if (/^(bin|config|lib|test|harness|scripts|docs|benchmark|docker)\/[\w./-]*$/.test(path) && !path.includes('<') && !/[*]/.test(path)) named.add(path);
  }
  expect(named.size).toBeGreaterThan(50);
  expect([...named].filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
});

test('every page of the manual stays a page a user reads: docs/testing.md at most 200 lines, every other at most 450', () => {
  expect.hasAssertions();
  for (const [path, text] of PAGES) {
    const lines = text.split('\n').length - 1;
    expect(`${path}: ${lines <= (path === 'docs/testing.md' ? 200 : 450) ? 'within' : `${lines} lines, past`} its cap`).toBe(`${path}: within its cap`);
  }
});

/** Whether the layout's text names a file: its name, its name without the extension as a list entry, or a pattern (`<command>/run-<command>.ts`, `temporal-*.ts`) it fits. */
function covers(block: string, file: string): boolean {
  const name = file.split('/').at(-1)!;
  const stem = name.replace(/\.\w+$/, '');
  const escape = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (new RegExp(`(^|[^\\w.-])${escape(name)}($|[^\\w-])`, 'm').test(block)) return true;
  if (new RegExp(`(^|[\\s,:(])${escape(stem)}($|[\\s,)])`, 'm').test(block)) return true;
  const patterns = [...block.matchAll(/[\w./-]*(?:<[a-z-]+>|\*)[\w./<>*-]*\.\w+/g)].map(
    ([p]) => new RegExp(`(^|/)${escape(p).replace(/<[a-z-]+>/g, '[\\w-]+').replace(/\\\*/g, '[\\w-]*')}$`),
  );
  return patterns.some((p) => p.test(file));
}

test('the layout covers every source file, by its name or a pattern it gives (and every path it names exists: above)', () => {
  const block = /^```\n([\s\S]*?)```/m.exec(page('docs/layout.md'))![1];
  const files = sourceFiles(ROOT);
  expect(files.length).toBeGreaterThan(200);
  expect(files.filter((f) => !covers(block, f))).toEqual([]);
  // The check can fail: a file the page does not name, and one a pattern covers.
  expect(covers('lib/\n  other.ts   x\n', 'lib/missing.ts')).toBe(false);
  expect(covers('  <command>/run-<command>.ts   x\n', 'lib/commands/cost/run-cost.ts')).toBe(true);
});
