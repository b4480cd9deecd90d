import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * Temporary directories a test file makes, removed when the file's tests are done: a run leaves
 * nothing behind in the temp dir. Jest evaluates this module once per test file.
 */

const made: string[] = [];

/** A new directory under the temp dir, named `<prefix>XXXXXX`, removed after this file's tests. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
