import type { CommandIO } from '../../lib/commands/shared/cli';

export interface RecordingIO extends CommandIO {
  readonly notes: string[];
  readonly statuses: string[];
  /** What the command printed before its long wait. */
  readonly printedEarly: string[];
  /** The line the command would show on Ctrl-C now. */
  interrupted(): string | undefined;
}

/** A CommandIO that records what a run function tells its user, for a test of the command's flow. */
export function recordingIO(): RecordingIO {
  const notes: string[] = [];
  const statuses: string[] = [];
  const printedEarly: string[] = [];
  let running: (() => string | undefined) | undefined;
  return {
    notes,
    statuses,
    printedEarly,
    note: (line) => void notes.push(line),
    status: { update: (text) => void statuses.push(text), done: () => undefined },
    onInterrupt: (r) => void (running = r),
    early: (text) => void printedEarly.push(text),
    interrupted: () => running?.(),
  };
}
