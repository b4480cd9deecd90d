import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { page, walkthroughSteps } from '../support/manual';
import { tempDir } from '../support/temp-dir';

/*
 * The walkthroughs of docs/configuration.md and docs/families.md, checked fast: each page's
 * diffs still apply, in page order, to the files as they stand, or are already applied (a tree
 * where a user followed the page). The whole walkthroughs run in the integration suite
 * (test/integration/docs/walkthrough.test.ts and new-family.test.ts).
 */

const ROOT = join(__dirname, '../..');
const patchesOf = (path: string) => walkthroughSteps(page(path)).flatMap((s) => (s.kind === 'patch' ? [s.patch] : []));
const patches = patchesOf('docs/configuration.md');
const familyPatches = patchesOf('docs/families.md');
const fileOf = (patch: string) => /^--- a\/(\S+)$/m.exec(patch)![1];

/** The patches applied one after another to copies of the files they touch; each one's exit status and git's words. */
function applied(all: readonly string[]): { file: string; status: number | null; stderr: string }[] {
  const dir = tempDir('walkthrough-patches-');
  for (const file of new Set(all.map(fileOf))) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  return all.map((patch) => {
    const r = spawnSync('git', ['apply', '-'], { cwd: dir, input: patch, encoding: 'utf8' });
    // Already applied: the page was followed in this tree.
    const done = r.status !== 0 && spawnSync('git', ['apply', '--reverse', '--check', '-'], { cwd: dir, input: patch }).status === 0;
    return { file: fileOf(patch), status: done ? 0 : r.status, stderr: done ? '' : r.stderr };
  });
}

test.each([
  ['docs/configuration.md', patches],
  ['docs/families.md', familyPatches],
])('every diff of the walkthrough of %s applies, in order, to the files as they stand', (_page, all) => {
  expect(all.length).toBeGreaterThan(0);
  for (const r of applied(all)) expect(r).toEqual({ file: r.file, status: 0, stderr: '' });
});

test('a diff whose context the file no longer has is refused', () => {
  const stale = patches[0].replace(/^ (.*)$/m, ' $1 // changed since');
  expect(applied([stale])[0].status).not.toBe(0);
});

test('a diff already applied passes: the page followed leaves npm test green', () => {
  const twice = applied([...patches, ...patches]);
  expect(twice.map((r) => r.status)).toEqual(twice.map(() => 0));
});
