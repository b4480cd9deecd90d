import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { binaries } from '../../../harness/binaries';
import { MOVER_SCRIPT_FILE } from '../../../harness/mover-script';
import { TASK_PROGRAMS, runInPosture, spawnInPosture, taskPosture } from '../../../harness/task-posture';
import { tempDir } from '../../support/temp-dir';

/*
 * The sandbox each local program runs in holds it to its task definition's posture: it is the
 * container's user with no capabilities, its writes to /tmp land in the task's own directory,
 * and a write anywhere else fails as a read-only root filesystem fails it on ECS.
 */

const PROBE = [
  'id -u',
  'id -g',
  "grep '^CapEff' /proc/self/status",
  'echo written > /tmp/probe && echo tmp: ok',
  // Each a place a program might write: the system, beside its own binary, another temporary directory.
  `for p in /etc/planted /planted "${dirname(binaries().benchmark)}/planted" /var/tmp/planted; do echo x 2>&1 > "$p" | sed 's/.*: //'; done`,
].join('; ');

test.each(TASK_PROGRAMS)('%s: its user, no capabilities, /tmp its own, every other write refused', async (program) => {
  const posture = taskPosture(program);
  const scratch = tempDir('posture-');
  const { stdout } = await runInPosture(posture, { writable: { '/tmp': scratch } }, '/bin/sh', ['-c', PROBE], { PATH: '/usr/bin:/bin' });
  const [uid, gid = uid] = (posture.user ?? '0:0').split(':');
  expect(stdout.trim().split('\n')).toEqual([uid, gid, 'CapEff:\t0000000000000000', 'tmp: ok', ...Array(4).fill('Read-only file system')]);
  expect(readFileSync(`${scratch}/probe`, 'utf8')).toBe('written\n');
  expect(existsSync('/etc/planted')).toBe(false);
});

test('planted: the schema mover, told to keep its working files outside /tmp, fails as its task would', async () => {
  // The mover makes its working directory with mktemp first thing: TMPDIR elsewhere is a write outside its mounts.
  await expect(
    runInPosture(taskPosture('folio-schema-mover'), { inputs: [MOVER_SCRIPT_FILE] }, 'sh', [MOVER_SCRIPT_FILE], { PATH: '/usr/bin:/bin', TMPDIR: '/var/tmp' }),
  ).rejects.toThrow(/exited 1:\n.*mktemp: failed to create directory via template '\/var\/tmp\/tmp\.X+': Read-only file system/);
});

test('a signal reaches the program itself, and its exit by signal reads as one', async () => {
  const p = await spawnInPosture(taskPosture('temporal-history'), {}, '/bin/sh', ['-c', 'trap "exit 7" TERM; echo trapped; while :; do sleep 0.05; done'], {});
  // The pid is the program's, leading its own process group (as a container's first process).
  expect(readFileSync(`/proc/${p.pid}/comm`, 'utf8').trim()).toBe('sh');
  // Signalled only once its trap is set: before that, on a busy machine, SIGTERM would end the shell by default.
  await new Promise<void>((resolve) => p.sandbox.stdout!.on('data', (d) => String(d).includes('trapped') && resolve()));
  p.kill('SIGTERM');
  expect(await p.exited).toMatchObject({ code: 7, signal: null });
  const q = await spawnInPosture(taskPosture('temporal-history'), {}, '/bin/sh', ['-c', 'while :; do sleep 0.05; done'], {});
  q.kill('SIGKILL');
  expect(await q.exited).toMatchObject({ code: null, signal: 'SIGKILL' });
  expect(q.running()).toBe(false);
});
