/* A command's status line while it waits: rewritten in place on a terminal, a line per change in a log. */

/** Progress lines on screen now, so that an error can clear them before it is printed. */
const shownProgress = new Set<() => void>();

/** Clears every progress line on screen (before an error or an interruption is printed). */
export function clearProgress(): void {
  for (const clear of [...shownProgress]) clear();
}

export interface ProgressOptions {
  /** Without a terminal: the most often a changed status is printed. */
  readonly minGapMs?: number;
  /** Without a terminal: an unchanged status is printed again this often. */
  readonly repeatMs?: number;
  readonly now?: () => number;
}

const elapsed = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return s < 60
    ? `${s}s`
    : s < 3600
      ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
      : `${Math.floor(s / 3600)}h${String(Math.floor(s / 60) % 60).padStart(2, '0')}m`;
};

/**
 * A status with the time elapsed since it started. On a terminal, one line rewritten in place
 * (and cleared before an error is printed); in a log or CI, a line of its own whenever the
 * status changes (at most every 10 s) and every minute while it does not.
 */
export function progress(stream: NodeJS.WriteStream = process.stderr, o: ProgressOptions = {}): { update(text: string): void; done(): void } {
  const now = o.now ?? Date.now;
  const started = now();
  let shown = false;
  let lastText: string | undefined;
  let lastAt = -Infinity;
  const clear = () => {
    if (shown) stream.write('\r\x1b[2K');
    shown = false;
    shownProgress.delete(clear);
  };
  return {
    update(text) {
      const t = now();
      if (stream.isTTY) {
        stream.write(`\r\x1b[2K${text} (${elapsed(t - started)})`);
        shown = true;
        shownProgress.add(clear);
        return;
      }
      const due = text === lastText ? t - lastAt >= (o.repeatMs ?? 60_000) : t - lastAt >= (o.minGapMs ?? 10_000);
      if (!due) return;
      stream.write(`[${elapsed(t - started)}] ${text}\n`);
      lastText = text;
      lastAt = t;
    },
    done: clear,
  };
}
