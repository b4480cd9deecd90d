import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** A program run under a task's posture, as far as stopping it goes (task-posture.ts's PostureProcess). */
interface SandboxedProgram {
  readonly sandbox: ChildProcess;
  running(): boolean;
  readonly exited: Promise<unknown>;
  kill(signal: NodeJS.Signals): void;
}

/** SIGTERM, then SIGKILL after graceMs if the process is still there; resolves once it exited. */
export async function stopProcess(p: ChildProcess | SandboxedProgram, graceMs = 10_000): Promise<void> {
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

/** How long after a process's exit its output pipes are waited for. */
const OUTPUT_DRAIN_MS = 5_000;

/**
 * A child's exit (when it happened), resolved once its output is read to the end: on a busy
 * machine its last lines can still be in the pipes at 'exit' (a mover's last line, a
 * generator's result, the FATAL a server sent as it ended a session). A descendant left holding
 * the pipes open (a load generator outliving a killed campaign) is waited for only drainMs.
 */
export function exitWithOutput(child: ChildProcess, drainMs = OUTPUT_DRAIN_MS): Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }> {
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      const at = Date.now();
      const end = () => resolve({ code, signal, at });
      const late = setTimeout(end, drainMs);
      child.once('close', () => {
        clearTimeout(late);
        end();
      });
    }),
  );
}

/**
 * Polls check every 250 ms until it holds; throws with what failed() says as soon as it says
 * anything (the process died, with its output), or once timeoutMs has passed.
 */
export async function waitFor(what: string, timeoutMs: number, check: () => Promise<boolean>, failed: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const why = failed();
    if (why) throw new Error(`${what}: ${why}`);
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The last lines of a process's log file, for a failure's message. */
export function tailOf(file: string, lines = 30): string {
  return existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') : '(no output)';
}
