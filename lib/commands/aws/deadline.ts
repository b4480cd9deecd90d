import { AsyncLocalStorage } from 'node:async_hooks';
import { ConfigError } from '../../../config';

/*
 * Every AWS call a command makes ends by itself: an endpoint that accepts a connection and never
 * answers (a black-holed proxy, a half-open VPC endpoint, a stuck emulator) fails the call with one
 * line naming the call and the endpoint, and the command exits 2. No SDK import here: the command
 * line loads this before it knows whether it will call AWS at all.
 */

/** The variable that sets how long one AWS call may take, retries included (seconds); for a slow link, or a test. */
export const CALL_SECONDS_VARIABLE = 'DB_BENCH_AWS_CALL_SECONDS';

/**
 * The SDK's own timeouts, per attempt (`connect`: the TCP connection; `attempt`: the request and
 * its answer), and the default for the whole call: a throttled call's eight adaptive attempts back
 * off about 13 s in all, so a call past a minute is an endpoint that does not answer. A deploy's
 * attempts (the toolkit's: an asset upload among them) may take longer each.
 */
export const AWS_TIMEOUTS = { connectSeconds: 5, attemptSeconds: 20, deployAttemptSeconds: 120, callSeconds: 60 } as const;

/** The SDK's request handler settings for attempts of `attemptSeconds` at most: past it, an attempt fails (and is retried) rather than only warned of. */
export const requestHandlerSettings = (attemptSeconds: number) => ({
  connectionTimeout: AWS_TIMEOUTS.connectSeconds * 1000,
  requestTimeout: attemptSeconds * 1000,
  throwOnRequestTimeout: true,
});

/** How long one call may take: the variable's value if set, else AWS_TIMEOUTS.callSeconds; a bad value is one line. */
export function callSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[CALL_SECONDS_VARIABLE];
  if (raw === undefined) return AWS_TIMEOUTS.callSeconds;
  const s = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(s) || s < 1 || s > 3600)
    throw new ConfigError(
      `${CALL_SECONDS_VARIABLE}="${raw}" is not valid (valid: seconds one AWS call may take, from 1 to 3600; unset: ${AWS_TIMEOUTS.callSeconds})`,
    );
  return s;
}

/** An AWS call that got no answer in time, or could not reach its endpoint: what the command says, and exits 2 for. */
export class AwsNoAnswer extends Error {
  override name = 'AwsNoAnswer';
}

/** A wait's end, when it comes before a call's own: the call fails as the wait does (the command's --timeout). */
export interface WaitDeadline {
  /** Epoch ms. */
  readonly at: number;
  /** What passing it throws, given the call still unanswered (`ecs:ListTasks at <endpoint>`). */
  readonly expired: (call: string) => Error;
}

const waits = new AsyncLocalStorage<WaitDeadline>();

/** Runs `body` with every AWS call in it ending by `deadline` at the latest. */
export const withinWait = <T>(deadline: WaitDeadline, body: () => Promise<T>): Promise<T> => {
  const outer = waits.getStore();
  return waits.run(outer && outer.at < deadline.at ? outer : deadline, body);
};

/** The calls in flight, so that a command that has ended (an error, a timeout) abandons the ones it left. */
const inFlight = new Set<AbortController>();

/** Aborts every call still in flight: the command has decided, and an unanswered socket must not keep the process alive. */
export function abandonAwsCalls(): void {
  for (const c of inFlight) c.abort(new AwsNoAnswer('abandoned: the command has ended'));
  inFlight.clear();
}

/** Connection errors Node raises for an endpoint that is not there or went away. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EPIPE']);

/** Whether an error says the endpoint was not reached or did not answer (rather than answering no). */
function unreachable(e: unknown): boolean {
  if (!(e instanceof Error) || '$response' in e) return false;
  const code = (e as { code?: unknown }).code;
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || (typeof code === 'string' && UNREACHABLE.has(code))) return true;
  // The SDK's retry wraps an error from another realm (a VM context) as text, its code only in the message.
  const wrapped = /^AWS SDK error wrapper for \w*Error: .*\b(E[A-Z_]+)\b/.exec(e.message);
  return wrapped !== null && UNREACHABLE.has(wrapped[1]);
}

/** What Node said of a connection, as one line. */
const said = (e: Error) => `${e.name === 'Error' ? '' : `${e.name}: `}${e.message.replace(/^AWS SDK error wrapper for \w*Error: /, '')}`;

/**
 * Runs one AWS call (`call`, as IAM names it; `where`, the endpoint or the service and region)
 * with a signal its HTTP request honours, ending it by the call's deadline or the enclosing wait's,
 * whichever is first. A call that times out or cannot reach its endpoint fails with one line.
 */
export async function withDeadline<T>(call: string, where: string, send: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const seconds = callSeconds();
  const wait = waits.getStore();
  const ownEnd = Date.now() + seconds * 1000;
  const waitEnds = wait !== undefined && wait.at < ownEnd;
  const controller = new AbortController();
  const ms = Math.max(0, (waitEnds ? wait.at : ownEnd) - Date.now());
  const named = `${call} at ${where}`;
  const late = () =>
    waitEnds
      ? wait.expired(named)
      : new AwsNoAnswer(
          `AWS did not answer ${named} within ${seconds} s (check the endpoint and the network; ${CALL_SECONDS_VARIABLE} sets how long a call may take)`,
        );
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const e = late();
      controller.abort(e);
      reject(e);
    }, ms);
  });
  inFlight.add(controller);
  try {
    return await Promise.race([send(controller.signal), expired]);
  } catch (e) {
    if (controller.signal.aborted && controller.signal.reason instanceof Error) throw controller.signal.reason;
    if (unreachable(e)) throw new AwsNoAnswer(`AWS could not be reached for ${named}: ${said(e as Error)}`);
    throw e;
  } finally {
    clearTimeout(timer);
    inFlight.delete(controller);
  }
}
