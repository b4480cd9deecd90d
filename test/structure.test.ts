import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MAX_FILE_LINES, MAX_FUNCTION_LINES, oversized, sourceFiles } from './support/source-size';
import { loadedModules, synthSources } from './support/synth-cache';

/*
 * The layout's rules (.dependency-cruiser.cjs) over the whole tree: no import circles, config/
 * imports nothing of the project, each family in its own folder reached through the registry,
 * the app never imports the commands, the product never imports tests or entry points,
 * nothing at run time comes from a devDependency, no orphan.
 */
const ROOT = join(__dirname, '..');
/** dependency-cruiser's own cache, by file content: a run with few changed files reads the rest. */
/** A cache per set of options: dependency-cruiser drops its cache when the options differ from the last run's. */
const cache = (name: string) => ['--cache', join(ROOT, 'node_modules/.cache/db-bench-infra', name), '--cache-strategy', 'content'];
const CACHE = cache('depcruise');

/** dependency-cruiser's JSON result (it exits non-zero when it finds violations, and still prints them). */
async function depcruise(args: readonly string[], cwd = ROOT): Promise<any> {
  const { stdout } = await promisify(execFile)(join(ROOT, 'node_modules/.bin/depcruise'), [...args, '--output-type', 'json'], {
    cwd,
    maxBuffer: 256 * 1024 * 1024,
  }).catch((e) => e);
  return JSON.parse(stdout);
}

test.concurrent(
  'dependency-cruiser finds no violation of the layout rules',
  async () => {
    const { summary } = await depcruise(['bin', 'lib', 'config', 'harness', 'scripts', 'test', ...CACHE]);
    expect(summary.totalCruised).toBeGreaterThan(100);
    expect(summary.violations.map((v: { rule: { name: string }; from: string; to: string }) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  },
  60_000,
);

/** A small tree that breaks each layering rule once: the rules must name every break, and allow what the layout allows. */
test.concurrent(
  'the layering rules refuse each break of the layout, and allow the paths it means',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'layout-'));
    try {
      copyFileSync(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true } }));
      const files: Record<string, string> = {
        'bin/app.ts': "import '../lib/assembly/app';",
        'lib/assembly/app.ts': "import '../a-stack'; import '../families';",
        'lib/families.ts': "import './folio/folio-family'; import './temporal/temporal-family';",
        'lib/folio/folio-family.ts': "import './constructs/pair';",
        'lib/temporal/temporal-family.ts': "import './commands/bench/fleet'; import './temporal-commands'; import './temporal-stacks';",
        'lib/temporal/temporal-commands.ts': "import './commands/cost/cost-part';",
        'lib/temporal/temporal-stacks.ts': "import '../temporal-dsql-stack';",
        'lib/temporal/commands/cost/cost-part.ts': "import type {} from '../report/view';",
        'lib/a-stack.ts': "import './assembly/app'; import './platform/constructs/thing';",
        'lib/platform/constructs/thing.ts': "import '../../a-stack'; import '../contract/names'; import '../../folio/constructs/pair';",
        'lib/platform/contract/names.ts': "import '../constructs/thing'; import '../../commands/cmd';",
        'lib/commands/cmd.ts': 'export const x = 1;',
        'lib/folio/constructs/pair.ts': "import '../../temporal/constructs/store'; import '../../platform/contract/names';",
        'lib/temporal/constructs/store.ts': "import '../commands/bench/fleet'; import '../temporal-commands';",
        'lib/hybrid-aurora-stack.ts': "import './folio/constructs/pair'; import './temporal/constructs/store';",
        'lib/observability-stack.ts': "import './platform/contract/names'; import './folio/constructs/pair';",
        'lib/temporal-dsql-stack.ts': "import './temporal/constructs/store'; import './folio/constructs/pair';",
        'bin/report.ts':
          "import '../lib/commands/report/run-report'; import '../lib/commands/report/window'; import '../lib/temporal/temporal-family'; import '../lib/temporal/temporal-commands';",
        'bin/bench.ts': "import '../lib/temporal/commands/bench/run-bench';",
        'lib/temporal/commands/bench/run-bench.ts':
          "import './fleet'; import '../shared/hibernated'; import '../report/view'; import '../../../commands/report/window'; import '../../../commands/shared/waiting';",
        'lib/temporal/commands/bench/fleet.ts': 'export const f = 1;',
        'lib/temporal/commands/shared/hibernated.ts': 'export const h = 1;',
        'lib/temporal/commands/report/view.ts': "import '../../../commands/report/window';",
        'lib/commands/report/run-report.ts':
          "import './window'; import '../cost/cost-model'; import '../shared/waiting'; import '../../families'; import '../../temporal/commands/report/view';",
        'lib/commands/report/window.ts': 'export const w = 1;',
        'lib/platform/family.ts': "import type { w } from '../commands/report/window'; export type W = typeof w;",
        'lib/commands/report/family-report.ts': "import type { W } from '../../platform/family'; export type V = W;",
        'lib/commands/cost/cost-model.ts':
          "import { Duration } from 'aws-cdk-lib'; import { Stack } from 'aws-cdk-lib/core'; import { z } from 'zod'; import '../../../config/zod'; export const c = [Duration, Stack, z];",
        'config/zod.ts': "import { z } from 'zod'; export { z };",
        'lib/commands/shared/waiting.ts': "import '../cost/cost-model'; import type {} from '../report/window';",
        'scripts/bench.ts': "import '../harness/server';",
        'harness/server.ts': "import '../test/support/helper';",
        'test/support/helper.ts': 'export const y = 1;',
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(dir, path, '..'), { recursive: true });
        writeFileSync(join(dir, path), `${text}\nexport {};\n`);
      }
      const result = await depcruise(['bin', 'config', 'lib', 'harness', 'scripts', 'test'], dir);
      const broken = new Set(
        result.summary.violations.map((v: { rule: { name: string }; from: string; to: string }) => `${v.rule.name}: ${v.from} -> ${v.to}`),
      );
      for (const expected of [
        'helpers-never-import-stacks: lib/platform/constructs/thing.ts -> lib/a-stack.ts',
        'stacks-never-import-the-assembly: lib/a-stack.ts -> lib/assembly/app.ts',
        'the-contract-holds-no-constructs: lib/platform/contract/names.ts -> lib/platform/constructs/thing.ts',
        'the-app-never-imports-commands: lib/platform/contract/names.ts -> lib/commands/cmd.ts',
        'the-platform-is-under-the-commands: lib/platform/contract/names.ts -> lib/commands/cmd.ts',
        'the-platform-is-under-the-commands: lib/platform/family.ts -> lib/commands/report/window.ts',
        'the-app-never-imports-commands: lib/temporal/constructs/store.ts -> lib/temporal/commands/bench/fleet.ts',
        'families-stay-apart: lib/folio/constructs/pair.ts -> lib/temporal/constructs/store.ts',
        'the-platform-knows-no-family: lib/platform/constructs/thing.ts -> lib/folio/constructs/pair.ts',
        'shared-code-reaches-a-family-through-the-registry: lib/observability-stack.ts -> lib/folio/constructs/pair.ts',
        'shared-code-reaches-a-family-through-the-registry: lib/commands/report/run-report.ts -> lib/temporal/commands/report/view.ts',
        'only-the-registry-imports-a-family: bin/report.ts -> lib/temporal/temporal-family.ts',
        'a-family-loads-its-own-parts: bin/report.ts -> lib/temporal/temporal-commands.ts',
        'the-app-never-imports-commands: lib/temporal/constructs/store.ts -> lib/temporal/temporal-commands.ts',
        'a-data-stack-wires-its-own-family: lib/hybrid-aurora-stack.ts -> lib/temporal/constructs/store.ts',
        'the-temporal-stack-wires-temporal: lib/temporal-dsql-stack.ts -> lib/folio/constructs/pair.ts',
        'only-tests-import-tests: harness/server.ts -> test/support/helper.ts',
        'entry-points-only-declare: bin/report.ts -> lib/commands/report/window.ts',
        'commands-share-through-shared: lib/commands/report/run-report.ts -> lib/commands/cost/cost-model.ts',
        'a-family-command-shares-through-shared: lib/temporal/commands/bench/run-bench.ts -> lib/temporal/commands/report/view.ts',
        'a-family-command-shares-through-shared: lib/temporal/commands/bench/run-bench.ts -> lib/commands/report/window.ts',
        'shared-runs-no-command: lib/commands/shared/waiting.ts -> lib/commands/cost/cost-model.ts',
        'cdk-by-module: lib/commands/cost/cost-model.ts -> aws-cdk-lib',
        'zod-through-config: lib/commands/cost/cost-model.ts -> zod',
      ]) {
        expect(broken).toContain(expected);
      }
      const allowed = [
        'lib/assembly/app.ts -> lib/families.ts',
        'lib/families.ts -> lib/folio/folio-family.ts',
        'lib/families.ts -> lib/temporal/temporal-family.ts',
        'lib/folio/folio-family.ts -> lib/folio/constructs/pair.ts',
        'lib/temporal/temporal-family.ts -> lib/temporal/commands/bench/fleet.ts',
        'lib/temporal/temporal-family.ts -> lib/temporal/temporal-commands.ts',
        'lib/temporal/temporal-family.ts -> lib/temporal/temporal-stacks.ts',
        'lib/temporal/commands/cost/cost-part.ts -> lib/temporal/commands/report/view.ts',
        'lib/folio/constructs/pair.ts -> lib/platform/contract/names.ts',
        'lib/hybrid-aurora-stack.ts -> lib/folio/constructs/pair.ts',
        'lib/temporal-dsql-stack.ts -> lib/temporal/constructs/store.ts',
        'bin/bench.ts -> lib/temporal/commands/bench/run-bench.ts',
        'bin/report.ts -> lib/commands/report/run-report.ts',
        'lib/temporal/commands/bench/run-bench.ts -> lib/temporal/commands/bench/fleet.ts',
        'lib/temporal/commands/bench/run-bench.ts -> lib/temporal/commands/shared/hibernated.ts',
        'lib/temporal/commands/bench/run-bench.ts -> lib/commands/shared/waiting.ts',
        'lib/temporal/commands/report/view.ts -> lib/commands/report/window.ts',
        'lib/commands/report/run-report.ts -> lib/commands/report/window.ts',
        'lib/commands/report/family-report.ts -> lib/platform/family.ts',
        'lib/commands/report/run-report.ts -> lib/commands/shared/waiting.ts',
        'lib/commands/report/run-report.ts -> lib/families.ts',
        'lib/commands/shared/waiting.ts -> lib/commands/report/window.ts',
        'lib/commands/cost/cost-model.ts -> aws-cdk-lib/core',
        'lib/commands/cost/cost-model.ts -> config/zod.ts',
        'config/zod.ts -> zod',
      ];
      // Only the circles this tree draws on purpose (a stack and the assembly, a construct and a contract) may name them.
      const refused = (edge: string) =>
        [...(broken as Set<string>)].filter((b) => b.endsWith(`: ${edge}`) && !b.startsWith('no-circular:') && !b.startsWith('no-orphans:'));
      expect(allowed.flatMap(refused)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  60_000,
);

/** knip over the project: no export that nothing imports (knip.json names the entry points). */
test.concurrent(
  'knip finds no unused export or exported type',
  async () => {
    const { stdout, stderr } = await promisify(execFile)(
      join(ROOT, 'node_modules/.bin/knip'),
      ['--reporter', 'compact', '--no-progress', '--cache', '--cache-location', join(ROOT, 'node_modules/.cache/db-bench-infra/knip')],
      { cwd: ROOT },
    ).catch((e) => e);
    expect(`${stdout}${stderr}`.trim()).toBe('');
  },
  60_000,
);

test.concurrent(
  'knip refuses an export nothing imports',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'knip-'));
    try {
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'probe', private: true }));
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true } }));
      const config = JSON.parse(readFileSync(join(ROOT, 'knip.json'), 'utf8'));
      writeFileSync(join(dir, 'knip.json'), JSON.stringify({ ...config, entry: ['bin/*.ts'], project: ['**/*.ts'] }));
      mkdirSync(join(dir, 'bin'));
      mkdirSync(join(dir, 'lib'));
      writeFileSync(join(dir, 'bin/app.ts'), "import { used } from '../lib/helpers';\nconsole.log(used);\n");
      writeFileSync(join(dir, 'lib/helpers.ts'), 'export const used = 1;\nexport const forgotten = 2;\nexport type Forgotten = { a: number };\n');
      const { stdout } = await promisify(execFile)(join(ROOT, 'node_modules/.bin/knip'), ['--reporter', 'compact', '--no-progress'], { cwd: dir }).catch(
        (e) => e,
      );
      expect(stdout).toContain('lib/helpers.ts: forgotten');
      expect(stdout).toContain('lib/helpers.ts: Forgotten');
      expect(stdout).not.toMatch(/: used\b/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  60_000,
);

/**
 * The synth cache is keyed by the files synth reads: every module the app loads must be one of
 * them, or a change to it would reuse stale templates. Loaded for real: the cache's worker
 * synthesizes every scenario and records each module it loaded (loadedModules); what bin/app.ts
 * imports beyond that (the CLI's arguments read: lib/assembly/cli-context.ts) is in the key too.
 * A command's module, which the key leaves out, is loaded lazily by the command that calls it,
 * never by synth.
 */
test("the synth cache's key covers every module bin/app.ts loads", () => {
  const loaded = loadedModules()!;
  expect(loaded).toEqual(expect.arrayContaining(['lib/hybrid-aurora-stack.ts', 'lib/temporal-dsql-stack.ts', 'lib/observability-stack.ts']));
  expect(loaded.length).toBeGreaterThan(30);
  const imports = [...readFileSync(join(ROOT, 'bin/app.ts'), 'utf8').matchAll(/from '(\.[^']+)'/g)].map(([, from]) => {
    const path = join('bin', from).replace(/\\/g, '/');
    return [`${path}.ts`, `${path}/index.ts`].find((f) => existsSync(join(ROOT, f))) ?? path;
  });
  expect(imports.length).toBeGreaterThanOrEqual(3);
  const covered = new Set(synthSources());
  expect([...loaded, ...imports, 'bin/app.ts'].filter((m) => !covered.has(m))).toEqual([]);
  // The worker builds the app as bin/app.ts does: its stacks' modules are all among what it loaded.
  expect(imports.filter((m) => !loaded.includes(m))).toEqual(['lib/assembly/cli-context.ts']);
});

/** A module's file name says what it is: two in the product with one name would be two answers to "where is X?". */
function sharedFileNames(paths: readonly string[]): string[] {
  const byName = new Map<string, string[]>();
  for (const p of paths) byName.set(p.split('/').pop()!, [...(byName.get(p.split('/').pop()!) ?? []), p]);
  return [...byName.values()].filter((ps) => ps.length > 1).map((ps) => ps.join(' and '));
}

test('no two modules of the product (lib/, config/, harness/) share a file name; entry points are named by their command', () => {
  // Read from the tree, not from git: a source export without .git runs the same tests.
  // A Lambda handler's file is named by its asset directory (lib/<family>/constructs/<construct>/handler.js).
  const modules = ['lib', 'config', 'harness'].flatMap((top) =>
    (readdirSync(join(ROOT, top), { recursive: true }) as string[]).filter((p) => p.endsWith('.ts')).map((p) => `${top}/${p}`),
  );
  expect(modules.length).toBeGreaterThan(100);
  expect(sharedFileNames(modules)).toEqual([]);
  expect(sharedFileNames(['lib/commands/plan/transition-plan.ts', 'lib/folio/commands/move/plan.ts', 'lib/commands/report/plan.ts'])).toEqual([
    'lib/folio/commands/move/plan.ts and lib/commands/report/plan.ts',
  ]);
});

/** Functions a screen long, files read whole: the product's folders, with no exemption. */
test('no function over 80 lines and no file over 400 lines in lib/, config/, bin/, harness/ and scripts/', () => {
  const files = sourceFiles(ROOT).filter((f) => f.endsWith('.ts'));
  expect(files.length).toBeGreaterThan(200);
  expect(files.flatMap((f) => oversized(f, readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
});

test('the size rule names a function one line too long and a file one line too long, and passes both at the bound', () => {
  const fn = (lines: number) => `function long() {\n${'  x();\n'.repeat(lines - 2)}}\n`;
  expect(oversized('a.ts', fn(MAX_FUNCTION_LINES))).toEqual([]);
  expect(oversized('a.ts', fn(MAX_FUNCTION_LINES + 1))).toEqual([`a.ts:1 long (${MAX_FUNCTION_LINES + 1} lines)`]);
  expect(oversized('b.ts', `const f = () => {\n${'  x();\n'.repeat(MAX_FUNCTION_LINES - 1)}};\n`)).toEqual([`b.ts:1 f (${MAX_FUNCTION_LINES + 1} lines)`]);
  expect(oversized('c.ts', 'x();\n'.repeat(MAX_FILE_LINES))).toEqual([]);
  expect(oversized('c.ts', 'x();\n'.repeat(MAX_FILE_LINES + 1))).toEqual([`c.ts (${MAX_FILE_LINES + 1} lines)`]);
});
