import { type ChildProcess, type SpawnOptions, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitWithOutput } from './processes';

/*
 * Each program the local suite runs, run under its task's posture: the container's user, a
 * read-only root file system, and only the task definition's writable mount points writable.
 * task-postures.json holds what the rendered task definitions say (test/harness/task-postures.test.ts
 * keeps it equal to every scenario's templates). bubblewrap stands in for the container runtime:
 * a user namespace, so no daemon and no root; the network stays the machine's, where the local
 * stand-ins give each task its address. A program that writes outside its mounts, or needs
 * root's capabilities, fails here as it would on its first deploy.
 */

export interface TaskPosture {
  /** uid[:gid]; undefined: the image's own user, root for every image here that names none. */
  readonly user?: string;
  readonly readonlyRootFilesystem: boolean;
  /** The container paths of its writable mount points. */
  readonly writable: readonly string[];
}

/** The programs the local suite runs, each named by the task (family, or role) that runs it on AWS. */
export const TASK_PROGRAMS = [
  'temporal-schema',
  'temporal-history',
  'temporal-matching',
  'temporal-frontend',
  'temporal-worker',
  'temporal-ui',
  'benchmark-worker',
  'benchmark-generator',
  'store-probe',
  'folio-schema-mover',
] as const;
export type TaskProgram = (typeof TASK_PROGRAMS)[number];

export const TASK_POSTURES_FILE = join(__dirname, 'task-postures.json');
let postures: Record<TaskProgram, TaskPosture> | undefined;

export function taskPosture(program: TaskProgram): TaskPosture {
  postures ??= JSON.parse(readFileSync(TASK_POSTURES_FILE, 'utf8')) as Record<TaskProgram, TaskPosture>;
  return postures[program];
}

export interface Mounts {
  /** The host directory behind each writable container path: exactly the posture's (none given: a fresh one each, removed at exit, as a task's volume is). */
  readonly writable?: Readonly<Record<string, string>>;
  /** Host paths the program reads that a writable mount would hide (shown read-only, at the same path). */
  readonly inputs?: readonly string[];
  /** Host paths of stand-ins for what is outside the task and the program changes there (the routes a switch points), writable at the same path. */
  readonly outside?: readonly string[];
  /** A file shown as the task's /etc/hosts: a stand-in for the VPC's DNS (the names it resolves); rewritten in place, it is read anew. */
  readonly hosts?: string;
}

function ids(user: string | undefined): [string, string] {
  const [uid, gid = uid] = (user ?? '0:0').split(':');
  return [uid, gid];
}

/** bubblewrap's arguments for a posture; refuses mounts that are not exactly the posture's. */
export function sandboxArgs(posture: TaskPosture, mounts: Required<Pick<Mounts, 'writable'>> & Mounts): string[] {
  const asked = Object.keys(mounts.writable).sort();
  const declared = [...posture.writable].sort();
  if (asked.join() !== declared.join())
    throw new Error(`the task definition makes ${declared.join(', ') || 'nothing'} writable; the harness mounts ${asked.join(', ') || 'nothing'}`);
  const [uid, gid] = ids(posture.user);
  return [
    // A program outlives no test: bubblewrap's death kills it.
    '--die-with-parent',
    '--unshare-user',
    '--uid',
    uid,
    '--gid',
    gid,
    // Fewer than Docker gives a root container, none of which a program here needs.
    '--cap-drop',
    'ALL',
    posture.readonlyRootFilesystem ? '--ro-bind' : '--bind',
    '/',
    '/',
    '--dev',
    '/dev',
    ...Object.entries(mounts.writable).flatMap(([path, host]) => ['--bind', host, path]),
    ...(mounts.inputs ?? []).flatMap((p) => ['--ro-bind', p, p]),
    ...(mounts.outside ?? []).flatMap((p) => ['--bind', p, p]),
    ...(mounts.hosts ? ['--ro-bind', mounts.hosts, '/etc/hosts'] : []),
  ];
}

/** A program under its posture: bubblewrap's process, and the program's own pid and signals (bubblewrap forwards none). */
export interface PostureProcess {
  /** bubblewrap's process: the program's stdio, and an exit that follows the program's. */
  readonly sandbox: ChildProcess;
  /** The program's pid on this machine (it leads its own process group, as a container's first process does). */
  readonly pid: number;
  kill(signal: NodeJS.Signals): void;
  running(): boolean;
  /** Its exit as a shell reports it: bubblewrap says 128 + n for a program ended by signal n. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

const SIGNALS = Object.entries(constants.signals) as [NodeJS.Signals, number][];

let checked = false;
function requireBubblewrap(): void {
  if (checked) return;
  try {
    execFileSync('bwrap', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('bubblewrap (bwrap) is not installed: npm run setup:integration installs it');
  }
  checked = true;
}

function comm(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Starts `command args` under `posture`; resolves once the program runs (bubblewrap has exec'd it). */
export async function spawnInPosture(
  posture: TaskPosture,
  mounts: Mounts,
  command: string,
  args: readonly string[],
  options: Omit<SpawnOptions, 'stdio' | 'detached'> & { stdio?: [unknown, unknown, unknown] },
): Promise<PostureProcess> {
  requireBubblewrap();
  const scratch = mounts.writable ? [] : posture.writable.map(() => mkdtempSync(join(tmpdir(), 'task-scratch-')));
  const bound = { ...mounts, writable: mounts.writable ?? Object.fromEntries(posture.writable.map((p, i) => [p, scratch[i]])) };
  const stdio = [...(options.stdio ?? ['ignore', 'pipe', 'pipe']), 'pipe'] as SpawnOptions['stdio'];
  const sandbox = spawn('bwrap', [...sandboxArgs(posture, bound), '--new-session', '--info-fd', '3', '--', command, ...args], { ...options, stdio });
  const exited = exitWithOutput(sandbox).then(({ code, signal, at }) => {
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
    const bySignal = code !== null && code > 128 ? SIGNALS.find(([, n]) => n === code - 128) : undefined;
    return bySignal ? { code: null, signal: bySignal[0], at } : { code, signal, at };
  });
  const pid = await new Promise<number>((resolve, reject) => {
    let info = '';
    const infoFd = sandbox.stdio[3]!;
    infoFd.on('data', (d) => {
      info += d;
      const m = /"child-pid":\s*(\d+)/.exec(info);
      if (m) resolve(Number(m[1]));
    });
    infoFd.once('close', () => reject(new Error(`bubblewrap did not start ${command} (exit ${sandbox.exitCode ?? sandbox.signalCode})`)));
    sandbox.once('error', reject);
  });
  let done = false;
  void exited.then(() => (done = true));
  // bubblewrap names the pid while it is still setting up: a signal then would reach bubblewrap, not the program.
  while (!done && comm(pid) === 'bwrap') await new Promise((r) => setTimeout(r, 2));
  return {
    sandbox,
    pid,
    kill: (signal) => {
      try {
        if (!done) process.kill(pid, signal);
      } catch (e) {
        // Gone between its exit and bubblewrap's: nothing to signal.
        if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
      }
    },
    running: () => !done,
    exited,
  };
}

/** Runs `command args` under `posture` to its end: its output, or an error with it when it exits other than 0. */
export async function runInPosture(
  posture: TaskPosture,
  mounts: Mounts,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ stdout: string; stderr: string }> {
  const p = await spawnInPosture(posture, mounts, command, args, { env });
  let stdout = '';
  let stderr = '';
  p.sandbox.stdout?.on('data', (d) => (stdout += d));
  p.sandbox.stderr?.on('data', (d) => (stderr += d));
  const { code, signal } = await p.exited;
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code ?? signal}:\n${stderr}${stdout}`);
  return { stdout, stderr };
}

/**
 * How a running process differs from a posture, read from /proc as this machine sees it: its
 * user (the namespace's mapping), whether its root is read-only, and what it may write outside
 * /dev (a container's /dev is writable too). Empty when it runs as the task definition says.
 */
export function postureDifferences(pid: number, posture: TaskPosture): string[] {
  const mapped = (file: string) => readFileSync(`/proc/${pid}/${file}`, 'utf8').trim().split(/\s+/)[0];
  const user = `${mapped('uid_map')}:${mapped('gid_map')}`;
  // The last mount at a path is the one in force.
  const mounts = new Map<string, boolean>();
  for (const line of readFileSync(`/proc/${pid}/mountinfo`, 'utf8').trim().split('\n')) {
    const [, , , , path, options] = line.split(' ');
    mounts.set(path, options.split(',').includes('rw'));
  }
  const writable = [...mounts].filter(([path, rw]) => rw && path !== '/' && path !== '/dev' && !path.startsWith('/dev/')).map(([path]) => path);
  const expected = ids(posture.user).join(':');
  return [
    ...(user === expected ? [] : [`runs as ${user}, not ${expected}`]),
    ...(mounts.get('/') === !posture.readonlyRootFilesystem ? [] : [`its root is ${mounts.get('/') ? 'writable' : 'read-only'}`]),
    ...(writable.sort().join() === [...posture.writable].sort().join()
      ? []
      : [`may write ${writable.join(', ') || 'nothing'}, not ${posture.writable.join(', ')}`]),
  ];
}
