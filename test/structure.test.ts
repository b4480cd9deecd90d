import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { synthSources } from './support/synth-cache';

/*
 * The layout's rules (.dependency-cruiser.cjs) over the whole tree: no import circles, config/
 * imports nothing of the project, the app never imports the commands, the product never
 * imports tests or entry points, nothing at run time comes from a devDependency, no orphan.
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

/** A small tree that breaks each layering rule once: the rules must name every break. */
test.concurrent(
  'the layering rules refuse a helper importing a stack, a stack importing the assembly, the app importing a command, the harness importing a test, an entry point holding a flow, and commands sharing outside shared/',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'layout-'));
    try {
      copyFileSync(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true } }));
      const files: Record<string, string> = {
        'bin/app.ts': "import '../lib/assembly/app';",
        'lib/assembly/app.ts': "import '../a-stack';",
        'lib/a-stack.ts': "import './assembly/app'; import './constructs/thing';",
        'lib/constructs/thing.ts': "import '../a-stack'; import '../contract/names';",
        'lib/contract/names.ts': "import '../constructs/thing'; import '../commands/cmd';",
        'lib/commands/cmd.ts': 'export const x = 1;',
        'bin/report.ts': "import '../lib/commands/report/run-report'; import '../lib/commands/report/window';",
        'lib/commands/report/run-report.ts': "import './window'; import '../bench/fleet'; import '../cost/cost-model'; import '../shared/waiting';",
        'lib/commands/report/window.ts': 'export const w = 1;',
        'lib/commands/bench/fleet.ts': 'export const f = 1;',
        'lib/commands/cost/cost-model.ts': 'export const c = 1;',
        'lib/commands/shared/waiting.ts': "import '../bench/fleet'; import type {} from '../report/window';",
        'scripts/bench.ts': "import '../harness/server';",
        'harness/server.ts': "import '../test/support/helper';",
        'test/support/helper.ts': 'export const y = 1;',
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(dir, path, '..'), { recursive: true });
        writeFileSync(join(dir, path), `${text}\nexport {};\n`);
      }
      const result = await depcruise(['bin', 'lib', 'harness', 'scripts', 'test'], dir);
      const broken = new Set(
        result.summary.violations.map((v: { rule: { name: string }; from: string; to: string }) => `${v.rule.name}: ${v.from} -> ${v.to}`),
      );
      for (const expected of [
        'helpers-never-import-stacks: lib/constructs/thing.ts -> lib/a-stack.ts',
        'stacks-never-import-the-assembly: lib/a-stack.ts -> lib/assembly/app.ts',
        'the-contract-holds-no-constructs: lib/contract/names.ts -> lib/constructs/thing.ts',
        'the-app-never-imports-commands: lib/contract/names.ts -> lib/commands/cmd.ts',
        'only-tests-import-tests: harness/server.ts -> test/support/helper.ts',
        'entry-points-only-declare: bin/report.ts -> lib/commands/report/window.ts',
        'commands-share-through-shared: lib/commands/report/run-report.ts -> lib/commands/bench/fleet.ts',
        'commands-share-through-shared: lib/commands/report/run-report.ts -> lib/commands/cost/cost-model.ts',
        'shared-runs-no-command: lib/commands/shared/waiting.ts -> lib/commands/bench/fleet.ts',
      ]) {
        expect(broken).toContain(expected);
      }
      // What the rules allow: a flow from its entry point, a command's own modules and shared/, a type from shared.
      for (const allowed of [
        'entry-points-only-declare: bin/report.ts -> lib/commands/report/run-report.ts',
        'commands-share-through-shared: lib/commands/report/run-report.ts -> lib/commands/report/window.ts',
        'commands-share-through-shared: lib/commands/report/run-report.ts -> lib/commands/shared/waiting.ts',
        'shared-runs-no-command: lib/commands/shared/waiting.ts -> lib/commands/report/window.ts',
      ]) {
        expect(broken).not.toContain(allowed);
      }
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

/** The synth cache is keyed by the files synth reads: every module the app loads must be one of them, or a change to it would reuse stale templates. */
test.concurrent(
  "the synth cache's key covers every module bin/app.ts loads",
  async () => {
    const loaded = (
      (await depcruise(['bin/app.ts', '--do-not-follow', 'node_modules', ...cache('depcruise-app')])).modules as {
        source: string;
        coreModule?: boolean;
        couldNotResolve?: boolean;
      }[]
    )
      .map((m) => m.source)
      .filter((m) => !m.startsWith('node_modules/') && /\.(ts|js)$/.test(m));
    expect(loaded.length).toBeGreaterThan(30);
    const covered = new Set(synthSources());
    expect(loaded.filter((m) => !covered.has(m))).toEqual([]);
  },
  60_000,
);

/** A module's file name says what it is: two in the product with one name would be two answers to "where is X?". */
function sharedFileNames(paths: readonly string[]): string[] {
  const byName = new Map<string, string[]>();
  for (const p of paths) byName.set(p.split('/').pop()!, [...(byName.get(p.split('/').pop()!) ?? []), p]);
  return [...byName.values()].filter((ps) => ps.length > 1).map((ps) => ps.join(' and '));
}

test('no two modules of the product (lib/, config/, harness/) share a file name; entry points are named by their command', async () => {
  const { stdout } = await promisify(execFile)('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'lib', 'config', 'harness'], { cwd: ROOT });
  // A Lambda handler's file is named by its asset directory (lib/constructs/<construct>/handler.js).
  const modules = stdout.split('\n').filter((p) => p.endsWith('.ts'));
  expect(modules.length).toBeGreaterThan(100);
  expect(sharedFileNames(modules)).toEqual([]);
  expect(sharedFileNames(['lib/commands/plan/transition-plan.ts', 'lib/commands/move/plan.ts', 'lib/commands/report/plan.ts'])).toEqual([
    'lib/commands/move/plan.ts and lib/commands/report/plan.ts',
  ]);
});
