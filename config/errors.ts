import { closest, distance } from 'fastest-levenshtein';

/** A problem in config or in what the user passed: shown as one line, never as a stack trace. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** `(did you mean "test12"?)` when a candidate is close enough to be a plausible typo. */
export function didYouMean(value: string, candidates: readonly string[]): string {
  if (candidates.length === 0) return '';
  const best = closest(value, [...candidates]);
  return distance(value, best) <= Math.max(2, Math.floor(value.length / 3)) ? ` (did you mean "${best}"?)` : '';
}

/**
 * Runs `fn`; a ConfigError becomes one line on stderr and exit code 1. Anything else is a bug
 * and keeps its stack trace.
 */
export function exitOnConfigError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`error: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
}
