import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { removeOldCaches } from './synth-cache';
import { tempDir } from './temp-dir';

/* The synth cache's directory keeps today's cache and the builds still running (./synth-cache.ts). */

test("an old cache, and a build whose process has ended, are removed; today's cache and a running build stay", () => {
  const root = tempDir('synth-cache-');
  const ended = spawnSync('true').pid;
  for (const name of ['today', 'yesterday', `today.${process.pid}.tmp`, `yesterday.${ended}.tmp`, `today.${ended}.tmp`]) mkdirSync(join(root, name));
  removeOldCaches(root, 'today');
  expect(readdirSync(root).sort()).toEqual(['today', `today.${process.pid}.tmp`]);
});
