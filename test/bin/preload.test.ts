import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/* What every entry point is started with (package.json, cdk.json): `node --import tsx --import ./bin/preload.ts`. */
const ROOT = join(__dirname, '../..');
// tsx as `--import tsx` finds it from the repository; here the cwd is a scratch directory.
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx', require(join(ROOT, 'node_modules/tsx/package.json')).exports['.'])).href;
const dir = mkdtempSync(join(tmpdir(), 'preload-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(files: Record<string, string>, entry: string) {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const r = await promisify(execFile)(process.execPath, ['--import', TSX, '--import', pathToFileURL(join(ROOT, 'bin/preload.ts')).href, join(dir, entry)], {
    cwd: dir,
  }).catch((e) => e);
  return { status: r.code ?? 0, stderr: String(r.stderr) };
}

test('a TypeScript syntax error in a module the entry loads (a typo in config) is one line: file:line:column and the message', async () => {
  const r = await run(
    { 'config.ts': 'export const config = {\n  rate: 150,,\n};\n', 'entry.ts': "import { config } from './config';\nconsole.log(config);\n" },
    'entry.ts',
  );
  expect(r).toEqual({ status: 1, stderr: 'error: config.ts:2:13: Expected identifier but found "," (TypeScript syntax; fix the file and run again)\n' });
});

test('any other uncaught error is a bug and keeps its stack trace', async () => {
  const r = await run({ 'bug.ts': "function broken(): never {\n  throw new TypeError('a bug');\n}\nbroken();\n" }, 'bug.ts');
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/^TypeError: a bug\n\s+at broken /);
});
