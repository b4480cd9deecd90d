import type { ChildProcess } from 'node:child_process';
import type { PostureProcess } from './task-posture';

/** SIGTERM, then SIGKILL after graceMs if the process is still there; resolves once it exited. */
export async function stopProcess(p: ChildProcess | PostureProcess, graceMs = 10_000): Promise<void> {
  const program =
    'sandbox' in p
      ? p
      : {
          running: () => p.exitCode === null && p.signalCode === null,
          exited: new Promise<void>((resolve) => (p.exitCode === null && p.signalCode === null ? p.once('exit', () => resolve()) : resolve())),
          kill: (signal: NodeJS.Signals) => p.kill(signal),
        };
  if (!program.running()) return;
  program.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  if ((await Promise.race([program.exited, late])) === 'late') {
    program.kill('SIGKILL');
    await program.exited;
  }
  clearTimeout(timer);
}
