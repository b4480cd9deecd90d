import { CommandFailure, type CommandIO, durationOption, EXIT_TIMEOUT, WAIT_BOUNDS } from './cli';

/** How a command waits: injectable so that tests run the loop without real time passing. */
export interface Waiting {
  readonly timeoutSeconds: number;
  readonly intervalSeconds?: number;
  readonly onProgress?: (text: string) => void;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

export interface Check {
  readonly done: boolean;
  /** Where things stand, for the progress line and the timeout message. */
  readonly text: string;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Polls `check` until it is done. Past the timeout it fails with EXIT_TIMEOUT and says what
 * it was waiting for and where things stood; nothing is undone.
 */
export async function waitUntil<C extends Check>(what: string, check: () => Promise<C>, w: Waiting): Promise<C> {
  const now = w.now ?? Date.now;
  const sleep = w.sleep ?? realSleep;
  const deadline = now() + w.timeoutSeconds * 1000;
  for (;;) {
    const c = await check();
    w.onProgress?.(`${what}: ${c.text}`);
    if (c.done) return c;
    if (now() >= deadline) throw new CommandFailure(`timed out after ${w.timeoutSeconds} s waiting for ${what}; last seen: ${c.text}`, EXIT_TIMEOUT);
    await sleep((w.intervalSeconds ?? 10) * 1000);
  }
}

/** A command's waiting from its --timeout and --interval, its progress shown on `io`, its clock injectable. */
export function commandWaiting(timeout: string, interval: string, io: CommandIO, clock: Pick<Waiting, 'sleep' | 'now'>): Waiting {
  return {
    timeoutSeconds: durationOption('--timeout', timeout, 1, WAIT_BOUNDS.timeout),
    intervalSeconds: durationOption('--interval', interval, 1, WAIT_BOUNDS.interval),
    onProgress: io.status.update,
    sleep: clock.sleep,
    now: clock.now,
  };
}
