import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTextFile, shownPath, writableDir, writableFile, writeOutput } from '../../../../lib/commands/shared/files';

/* Paths are the user's: from where they ran `npm run` (INIT_CWD), and nothing is created before there is something to write. */
const root = mkdtempSync(join(tmpdir(), 'files-'));
const sub = join(root, 'sub');
mkdirSync(sub);
writeFileSync(join(root, 'run.json'), '{"a":1}');
const before = process.env.INIT_CWD;
beforeEach(() => (process.env.INIT_CWD = sub));
afterAll(() => {
  if (before === undefined) delete process.env.INIT_CWD;
  else process.env.INIT_CWD = before;
  rmSync(root, { recursive: true, force: true });
});

test('a relative path resolves from where the user ran the command, not from the repository root', () => {
  expect(readTextFile('--run', '../run.json')).toBe('{"a":1}');
  expect(() => readTextFile('--run', 'run.json')).toThrow('--run "run.json": cannot read it (no such file or directory)');
  expect(writableFile('--out', 'out/run.json')).toBe(join(sub, 'out/run.json'));
  expect(shownPath(join(sub, 'out/run.json'))).toBe('out/run.json');
});

test('checking where output goes creates nothing; the write creates the directory', () => {
  const dir = writableDir('--out', 'reports/test10');
  expect(dir).toBe(join(sub, 'reports/test10'));
  expect(existsSync(join(sub, 'reports'))).toBe(false);
  writeOutput(join(dir, 'report.md'), '# r\n');
  expect(readFileSync(join(sub, 'reports/test10/report.md'), 'utf8')).toBe('# r\n');
});

test('a place under a file, or a directory where a file goes, is refused before anything runs', () => {
  writeFileSync(join(sub, 'plain.txt'), 'x');
  expect(() => writableDir('--out', 'plain.txt/reports')).toThrow('--out "plain.txt/reports": cannot write there (a part of the path is a file)');
  mkdirSync(join(sub, 'adir'));
  expect(() => writableFile('--out', 'adir')).toThrow('--out "adir": cannot write it (a directory, not a file)');
});
