import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

/*
 * The layout's rules (.dependency-cruiser.cjs) over the whole tree: no import circles, config/
 * imports nothing of the project, the app never imports the commands, the product never
 * imports tests or entry points, nothing at run time comes from a devDependency, no orphan.
 */
const ROOT = join(__dirname, '..');
/** dependency-cruiser's own cache, by file content: a run with few changed files reads the rest. */
const CACHE = ['--cache', join(ROOT, 'node_modules/.cache/db-bench-infra/depcruise'), '--cache-strategy', 'content'];

test('dependency-cruiser finds no violation of the layout rules', async () => {
  const { stdout } = await promisify(execFile)(join(ROOT, 'node_modules/.bin/depcruise'), ['bin', 'lib', 'config', 'scripts', 'test', '--output-type', 'json', ...CACHE], {
    cwd: ROOT,
    maxBuffer: 256 * 1024 * 1024,
  }).catch((e) => e);
  const { summary } = JSON.parse(stdout);
  expect(summary.totalCruised).toBeGreaterThan(100);
  expect(summary.violations.map((v: { rule: { name: string }; from: string; to: string }) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
}, 60_000);
