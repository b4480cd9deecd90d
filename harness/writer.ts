import { type ChildProcess, execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Postgres } from './postgres';

/*
 * A module that keeps writing while its schemas move: one write at a time, each to the server
 * a route file names (what a module's connection settings would say), retried until it is
 * acknowledged. A write whose session is ended (a fence lifting) or refused is tried again on
 * the route as it is then. What it measures is what a module would see: every write it was told
 * succeeded, and how long the longest one took, retries included.
 */

interface Acknowledged {
  /** The write's number, unique in this writer. */
  readonly n: number;
  /** The server that acknowledged it. */
  readonly on: string;
  /** What the statement returned. */
  readonly result: string;
  readonly ms: number;
}

export interface WriterResult {
  readonly acknowledged: readonly Acknowledged[];
  readonly longestMs: number;
  /** The median write: mostly this writer's own cost (a psql per write), which every figure carries. */
  readonly medianMs: number;
  readonly attempts: number;
}

export interface Writer {
  /** Stops after the write under way; every acknowledged write, and the longest one's time. */
  stop(): Promise<WriterResult>;
  /** Stops at once, as a module shut down: the write under way is never acknowledged. */
  kill(): Promise<WriterResult>;
}

export interface WriterOptions {
  readonly servers: Readonly<Record<string, Postgres>>;
  readonly database: string;
  /** A file holding the name of the server to write to. */
  readonly route: string;
  /** The statement for write `n`; its output is kept as the write's result. */
  readonly sql: (n: number) => string;
  /** Pause between writes (default 20 ms). */
  readonly intervalMs?: number;
}

export function startWriter(o: WriterOptions): Writer {
  const acknowledged: Acknowledged[] = [];
  let attempts = 0;
  let stopping = false;
  let killed = false;
  let current: ChildProcess | undefined;
  const write = (pg: Postgres, sql: string) =>
    new Promise<string>((resolve, reject) => {
      current = execFile(
        join(pg.bin, 'psql'),
        ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-At', '-h', '127.0.0.1', '-p', String(pg.port), '-U', pg.user, '-d', o.database, '-c', sql],
        { env: { ...process.env, PGPASSWORD: pg.password, PGAPPNAME: 'module-writer' } },
        (err, stdout) => (err ? reject(err) : resolve(stdout.trim())),
      );
    });
  const loop = (async () => {
    for (let n = 1; !stopping; n++) {
      const started = Date.now();
      for (;;) {
        const on = readFileSync(o.route, 'utf8').trim();
        const pg = o.servers[on];
        if (!pg) throw new Error(`route file names "${on}", not one of ${Object.keys(o.servers).join(', ')}`);
        attempts++;
        try {
          const result = await write(pg, o.sql(n));
          acknowledged.push({ n, on, result, ms: Date.now() - started });
          break;
        } catch {
          if (killed) return;
          // Not acknowledged: the module would retry, on its settings as they are now.
          await new Promise((r) => setTimeout(r, 10));
        }
      }
      await new Promise((r) => setTimeout(r, o.intervalMs ?? 20));
    }
  })();
  const result = () => {
    const ms = acknowledged.map((a) => a.ms).sort((a, b) => a - b);
    return { acknowledged, longestMs: Math.max(0, ...ms), medianMs: ms.length ? ms[Math.floor(ms.length / 2)] : 0, attempts };
  };
  return {
    async stop() {
      stopping = true;
      await loop;
      return result();
    },
    async kill() {
      stopping = killed = true;
      current?.kill('SIGKILL');
      await loop;
      return result();
    },
  };
}
