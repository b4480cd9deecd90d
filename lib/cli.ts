import { ConfigError } from '../config';

/*
 * What every companion command shares: one line and exit code 1 for a mistake in what the
 * user passed or configured, one line and exit code 2 for an AWS error (credentials,
 * permissions, a missing resource), one line and the failure's own code when the command ran
 * but its outcome is a no, and the stack trace only for a bug.
 */

export const EXIT_USAGE = 1;
export const EXIT_AWS = 2;
/** `plan`: a stateful resource would be replaced or destroyed. */
export const EXIT_UNSAFE = 3;
/** `bench`: a wait ran past its --timeout. */
export const EXIT_TIMEOUT = 4;
/** `bench`: AWS did what was asked, and the outcome is a failure (a task stopped with an error, a cluster not ACTIVE). */
export const EXIT_FAILED = 5;

/** A command's outcome that is a no, with the exit code that says which. */
export class CommandFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: typeof EXIT_UNSAFE | typeof EXIT_TIMEOUT | typeof EXIT_FAILED,
  ) {
    super(message);
    this.name = 'CommandFailure';
  }
}

export async function runCommand(main: () => Promise<number | void>): Promise<void> {
  try {
    process.exitCode = (await main()) ?? 0;
  } catch (e) {
    if (e instanceof ConfigError || e instanceof CommandFailure) {
      process.stderr.write(`error: ${e.message}\n`);
      process.exitCode = e instanceof CommandFailure ? e.exitCode : EXIT_USAGE;
    } else if (isAwsError(e)) {
      process.stderr.write(`error: AWS ${e.name}: ${e.message.split('\n')[0]}\n`);
      process.exitCode = EXIT_AWS;
    } else {
      throw e;
    }
  }
}

/** Errors the SDK raises for what the account, network or credentials did, not for a bug. */
function isAwsError(e: unknown): e is Error {
  if (!(e instanceof Error)) return false;
  if ('$metadata' in e || e.name === 'CredentialsProviderError' || e.name === 'TimeoutError') return true;
  const code = (e as { code?: unknown }).code;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND';
}

/** A status line rewritten in place on a terminal; silent when stderr is a file or pipe. */
export function progress(stream: NodeJS.WriteStream = process.stderr): { update(text: string): void; done(): void } {
  let shown = false;
  return {
    update(text) {
      if (!stream.isTTY) return;
      stream.write(`\r\x1b[2K${text}`);
      shown = true;
    },
    done() {
      if (shown) stream.write('\r\x1b[2K');
    },
  };
}

/**
 * A numeric option within [min, max], or one ConfigError line naming the option, what it got
 * and what is valid. Undefined when the option was not given.
 */
export function numberOption(name: string, raw: string | undefined, o: { min: number; max: number; integer?: boolean; what?: string }): number | undefined {
  if (raw === undefined) return undefined;
  const v = Number(raw);
  const ok = raw.trim() !== '' && Number.isFinite(v) && v >= o.min && v <= o.max && (!o.integer || Number.isInteger(v));
  if (!ok) throw new ConfigError(`${name} "${raw}" is not valid (valid: ${o.what ?? (o.integer ? 'a whole number' : 'a number')} from ${o.min} to ${o.max})`);
  return v;
}
