import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TSC as TYPE_CHECKER, typecheck, typecheckKey } from '../../harness/typecheck';
import { tempDir } from '../support/temp-dir';

/* `npm run typecheck` skips tsc only when nothing tsc reads has changed since it passed. */

const ROOT = join(__dirname, '../..');
const TSC = [process.execPath, TYPE_CHECKER, '--noEmit'];
/** A command that would fail: run, it proves the check ran; skipped, it proves it did not. */
const FAILS = ['sh', '-c', 'exit 3'];
const PASSES = ['true'];

function project(): { root: string; stamp: string } {
  const root = tempDir('typecheck-');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ['src/**/*.ts'] }));
  writeFileSync(join(root, 'package-lock.json'), '{}');
  writeFileSync(join(root, 'src/a.ts'), 'export const a: number = 1;\n');
  return { root, stamp: join(root, 'cache/typecheck.pass') };
}

test('a pass is recorded, and the same inputs skip the check; a failure is not, and runs again', () => {
  const { root, stamp } = project();
  expect(typecheck(root, stamp, PASSES)).toBe(0);
  expect(readFileSync(stamp, 'utf8')).toBe(typecheckKey(root));
  expect(typecheck(root, stamp, FAILS)).toBe(0);
  writeFileSync(join(root, 'src/a.ts'), 'export const a: number = 2;\n');
  expect(typecheck(root, stamp, FAILS)).toBe(3);
  expect(typecheck(root, stamp, FAILS)).toBe(3);
});

test.each([
  ['an included file changes', (root: string) => writeFileSync(join(root, 'src/a.ts'), 'export const a = 1;\n')],
  ['an included file is added', (root: string) => writeFileSync(join(root, 'src/b.ts'), '')],
  ['a file is added in a nested folder', (root: string) => (mkdirSync(join(root, 'src/deep')), writeFileSync(join(root, 'src/deep/c.ts'), ''))],
  ['tsconfig.json changes', (root: string) => writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: {}, include: ['src/**/*.ts'] }))],
  ['the lock file changes (the declarations tsc reads)', (root: string) => writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion":3}')],
])('the check runs again when %s', (_, change) => {
  const { root, stamp } = project();
  expect(typecheck(root, stamp, PASSES)).toBe(0);
  change(root);
  expect(typecheck(root, stamp, FAILS)).toBe(3);
});

test('a file edited while the check ran records no pass', () => {
  const { root, stamp } = project();
  const edits = ['sh', '-c', "echo 'export const a: number = 5;' > src/a.ts"];
  expect(typecheck(root, stamp, edits)).toBe(0);
  expect(typecheck(root, stamp, FAILS)).toBe(3);
});

test('a file outside what tsconfig.json includes does not run it again', () => {
  const { root, stamp } = project();
  expect(typecheck(root, stamp, PASSES)).toBe(0);
  writeFileSync(join(root, 'notes.md'), 'x');
  expect(typecheck(root, stamp, FAILS)).toBe(0);
});

test('an include entry it cannot read is refused, not skipped', () => {
  const { root, stamp } = project();
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ include: ['src/*.ts'] }));
  expect(() => typecheck(root, stamp, PASSES)).toThrow('tsconfig.json includes "src/*.ts"');
});

test('the type checker passes a sound project; its type error fails it, and no pass is recorded', () => {
  const sound = project();
  expect(typecheck(sound.root, sound.stamp, TSC)).toBe(0);
  const { root, stamp } = project();
  writeFileSync(join(root, 'src/a.ts'), "export const a: number = 'one';\n");
  expect(typecheck(root, stamp, TSC, 'ignore')).not.toBe(0);
  expect(() => readFileSync(stamp)).toThrow();
});

test("the type checker is TypeScript 7's native tsc", () => {
  expect(JSON.parse(readFileSync(join(TYPE_CHECKER, '../../package.json'), 'utf8')).version).toMatch(/^7\./);
});

test("the project's tsconfig.json is one it reads, and npm run typecheck is this", () => {
  expect(typecheckKey(ROOT)).toMatch(/^[0-9a-f]{64}$/);
  expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.typecheck).toBe('node --import tsx scripts/typecheck.ts');
});
