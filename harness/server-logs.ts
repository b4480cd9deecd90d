import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Postgres } from './postgres';
import type { LocalCluster } from './temporal-cluster';

/*
 * What the local cluster's servers logged, read back for a run that went wrong: each task's
 * warnings counted, and the workflows still open at a run's deadline with what names their cause.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A workflow open at the deadline, as the visibility store has it once it closed. */
export interface Straggler {
  readonly id: string;
  /** Seconds from its start to its close; null: still open when the wait ended. */
  readonly closedAfterSeconds: number | null;
  /**
   * Events in its history at the close: a simple workflow has 11, a timed-out workflow task adds
   * 3, and a timed-out activity attempt none (its retry shows only in the started event's attempt):
   * 11 events and an activity timeout late (lost-starts.ts) is an activity started and never delivered.
   */
  readonly events: number | null;
  /** What the servers logged naming it (time, task, message, error): a retried hand-over, a task not found. */
  readonly logged: readonly string[];
}

/** Each line of the cluster's server logs that names the workflow, shortened; the first `max` by time. */
function loggedAbout(dir: string, id: string, max = 20): string[] {
  const needle = `"${id}"`;
  const lines: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.log'))) {
    const task = file.slice(0, -'.log'.length);
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line.includes(needle)) continue;
      try {
        const j = JSON.parse(line) as { ts?: string; msg?: string; error?: string };
        lines.push(`${j.ts} ${task}: ${j.msg}${j.error ? ` (${j.error})` : ''}`);
      } catch {
        lines.push(`${task}: ${line.slice(0, 300)}`);
      }
    }
  }
  return lines.sort().slice(0, max);
}

/**
 * What each task logged at warn level or worse, one line per message and error, counted, with
 * its first and last time, the `perTask` most frequent of each task: what a run that went wrong
 * was doing (a new history failing every task past its deadline reads as hundreds of one line).
 */
export function logDigest(dir: string, perTask = 5): string[] {
  const out: string[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.log'))
    .sort()) {
    const kinds = new Map<string, { count: number; first: string; last: string }>();
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line.startsWith('{')) continue;
      let j: { level?: string; ts?: string; msg?: string; error?: string };
      try {
        j = JSON.parse(line);
      } catch {
        continue;
      }
      if (j.level !== 'warn' && j.level !== 'error' && j.level !== 'fatal' && j.level !== 'dpanic') continue;
      const kind = `${j.msg}${j.error ? ` (${j.error.slice(0, 160)})` : ''}`;
      const k = kinds.get(kind);
      const ts = (j.ts ?? '').slice(11, 23);
      if (k) Object.assign(k, { count: k.count + 1, last: ts });
      else kinds.set(kind, { count: 1, first: ts, last: ts });
    }
    const task = file.slice(0, -'.log'.length);
    for (const [kind, k] of [...kinds].sort((a, b) => b[1].count - a[1].count).slice(0, perTask))
      out.push(`${task}: ${k.count} × ${kind}, ${k.first === k.last ? k.first : `${k.first} to ${k.last}`}`);
  }
  return out;
}

/**
 * Waits up to `waitMs` for the workflows open at the deadline to close, then reads when each did,
 * how long its history grew and what the servers logged naming it: what names a straggler's cause
 * (a task started and never delivered closes its timeout later: lost-starts.ts). Only a failing
 * run has any, so a passing one waits for nothing.
 */
export async function stragglers(
  c: { readonly cluster: Pick<LocalCluster, 'stores' | 'dir'>; readonly postgres: Pick<Postgres, 'psql'> },
  ids: readonly string[],
  waitMs = 120_000,
  clock = { now: Date.now, sleep },
): Promise<Straggler[]> {
  if (!ids.length) return [];
  const list = ids.map((id) => `'${id.replace(/'/g, "''")}'`).join(', ');
  const sql = `SELECT workflow_id, extract(epoch FROM close_time - start_time), history_length FROM executions_visibility WHERE workflow_id IN (${list}) ORDER BY workflow_id`;
  const deadline = clock.now() + waitMs;
  for (;;) {
    const rows = new Map(
      (await c.postgres.psql(sql, c.cluster.stores.visibilityDatabase))
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('|'))
        .map(([id, seconds, events]) => [id, { seconds, events }]),
    );
    const found = ids.map((id) => {
      const r = rows.get(id);
      return { id, closedAfterSeconds: r?.seconds ? Math.round(Number(r.seconds) * 10) / 10 : null, events: r?.events ? Number(r.events) : null };
    });
    if (found.every((s) => s.closedAfterSeconds !== null) || clock.now() > deadline)
      return found.map((s) => ({ ...s, logged: loggedAbout(c.cluster.dir, s.id) }));
    await clock.sleep(2_000);
  }
}

const describeStraggler = (s: Straggler) =>
  `${s.closedAfterSeconds === null ? `${s.id} still open` : `${s.id} closed ${s.closedAfterSeconds} s after its start, ${s.events} events`}` +
  (s.logged.length ? `; logged: ${s.logged.join(' | ')}` : '');

/** The first few in full; hundreds open (a cluster that stopped) would bury the rest of the line. */
const SHOWN_STRAGGLERS = 5;
export const describeStragglers = (all: readonly Straggler[]) =>
  all.slice(0, SHOWN_STRAGGLERS).map(describeStraggler).join(', ') + (all.length > SHOWN_STRAGGLERS ? `, and ${all.length - SHOWN_STRAGGLERS} more` : '');
