import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonFile, writeFileAtomically } from '../../config/json-file';
import { tempDir } from '../support/temp-dir';

/*
 * The JSON files config and the commands read: each way a file can be wrong is one line naming
 * it, never a stack trace or a hang; and a file written is whole or not there.
 */

const dir = tempDir('json-file-');
const at = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const refusal = (path: string) => {
  try {
    readJsonFile(path, `config/prices/${path.split('/').pop()}`, 'a price file');
  } catch (e) {
    return (e as Error).message;
  }
  return 'read';
};

test('a price file emptied or cut short by an interrupted refresh: one line, not JSON', () => {
  expect(refusal(at('empty.json', ''))).toBe('config/prices/empty.json: not JSON (Unexpected end of JSON input) (valid: a price file)');
  expect(refusal(at('cut.json', '{"region": "us-east-1", "prices": {'))).toMatch(/^config\/prices\/cut\.json: not JSON \(.*\) \(valid: a price file\)$/);
});

test('nested deeper than any file of the project: refused without running off the stack', () => {
  expect(refusal(at('deep.json', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`))).toBe(
    'config/prices/deep.json: nested more than 64 levels deep (valid: a price file)',
  );
  expect(refusal(at('fine.json', `${'['.repeat(64)}${']'.repeat(64)}`))).toBe('read');
});

test('a FIFO, a directory or a missing file: refused before anything is read (a FIFO would block)', () => {
  const fifo = join(dir, 'fifo.json');
  execFileSync('mkfifo', [fifo]);
  expect(refusal(fifo)).toBe('config/prices/fifo.json: cannot read it (not a regular file (a FIFO, socket or device))');
  expect(refusal(dir)).toMatch(/: cannot read it \(a directory, not a file\)$/);
  expect(refusal(join(dir, 'gone.json'))).toBe('config/prices/gone.json: cannot read it (no such file or directory)');
});

test("an editor's UTF-8 byte order mark is read past; UTF-16 and binary are named, not shown as invisible bytes", () => {
  const bytes = (name: string, content: Buffer) => {
    writeFileSync(join(dir, name), content);
    return join(dir, name);
  };
  expect(refusal(bytes('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a": 1}')])))).toBe('read');
  expect(refusal(bytes('utf16le.json', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"a": 1}', 'utf16le')])))).toBe(
    'config/prices/utf16le.json: cannot read it (UTF-16 text; valid: UTF-8)',
  );
  expect(refusal(bytes('utf16be.json', Buffer.from([0xfe, 0xff, 0, 0x7b, 0, 0x7d])))).toBe(
    'config/prices/utf16be.json: cannot read it (UTF-16 text; valid: UTF-8)',
  );
  expect(refusal(bytes('nobom.json', Buffer.from('{"a": 1}', 'utf16le')))).toBe(
    'config/prices/nobom.json: cannot read it (NUL bytes: UTF-16 without a byte order mark, or not text; valid: UTF-8)',
  );
});

test('a symbolic link that loops is named as one', () => {
  const loop = join(dir, 'loop.json');
  symlinkSync(loop, loop);
  expect(refusal(loop)).toBe('config/prices/loop.json: cannot read it (a symbolic link that loops)');
});

test('a file is written whole, through a temporary file that does not stay', () => {
  const path = at('prices.json', '{"old": true}\n');
  writeFileAtomically(path, '{"new": true}\n');
  expect(readFileSync(path, 'utf8')).toBe('{"new": true}\n');
  expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  // A write that cannot happen leaves the old file as it was.
  expect(() => writeFileAtomically(join(dir, 'no-such-dir', 'x.json'), '{}')).toThrow(/ENOENT/);
  expect(readFileSync(path, 'utf8')).toBe('{"new": true}\n');
});
