import { withinWait } from '../aws/deadline';
import { CommandFailure, type CommandIO, EXIT_TIMEOUT } from './cli';
import { durationOption, WAIT_BOUNDS } from './option-values';

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
  let last = 'nothing yet';
  for (;;) {
    // An AWS call still unanswered at the timeout ends the wait as the timeout does (a last look after it has its own deadline).
    const left = deadline - now();
    const c = await (left > 0
      ? withinWait({ at: Date.now() + left, expired: (call) => timedOut(w.timeoutSeconds, what, `${last}; ${call} unanswered`) }, check)
      : check());
    last = c.text;
    w.onProgress?.(`${what}: ${c.text}`);
    if (c.done) return c;
    if (now() >= deadline) throw timedOut(w.timeoutSeconds, what, c.text);
    await sleep((w.intervalSeconds ?? 10) * 1000);
  }
}

const timedOut = (seconds: number, what: string, seen: string) =>
  new CommandFailure(`timed out after ${seconds} s waiting for ${what}; last seen: ${seen}`, EXIT_TIMEOUT);

/** Runs `body`, its AWS calls ending within `seconds` (a command's --timeout where it waits for nothing else), as a timeout. */
export const withinTimeout = <T>(seconds: number, what: string, body: () => Promise<T>): Promise<T> =>
  withinWait({ at: Date.now() + seconds * 1000, expired: (call) => timedOut(seconds, what, `${call} unanswered`) }, body);

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
