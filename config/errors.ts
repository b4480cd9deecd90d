import { distance } from 'fastest-levenshtein';

/** A problem in config or in what the user passed: shown as one line, never as a stack trace. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * `(did you mean "test12"?)` when a candidate is close enough to be a plausible typo. Ties in
 * edit distance go to the candidate that is the same once dashes, dots and case are set aside
 * (`temporal150wps` is `temporal-150wps`, not `temporal-50wps`), then to the one listed first.
 */
export function didYouMean(value: string, candidates: readonly string[]): string {
  if (candidates.length === 0) return '';
  const plain = (x: string) => x.toLowerCase().replace(/[^a-z0-9]/g, '');
  const ranked = candidates
    .map((c) => ({ c, d: distance(value, c), same: plain(c) === plain(value) ? 0 : 1 }))
    // Stable: other ties keep the candidates' own order.
    .sort((a, b) => a.same - b.same || a.d - b.d);
  const best = ranked[0];
  return best.same === 0 || best.d <= Math.max(2, Math.floor(value.length / 3)) ? ` (did you mean "${best.c}"?)` : '';
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
