import type { Postgres } from './postgres';

/*
 * Exactly once, counted from the store rather than from the generator: every workflow ID a
 * run offered (its prefix and index), looked up in the history store's own tables.
 */

/** One workflow ID as the history store holds it. */
export interface StoredWorkflow {
  readonly workflowId: string;
  /** Rows in `executions`: one per run. Two runs of one ID is a workflow done twice. */
  readonly runs: number;
  /** `current_executions.status` of its current run (WorkflowExecutionStatus: 1 running, 2 completed). */
  readonly status: number;
}

/** What the generator says it offered (its result's config and results). */
export interface Offered {
  readonly workflowIdPrefix: string;
  readonly workflowsOffered: number;
  /** Starts the client saw fail: such a workflow may still have reached the server. */
  readonly startErrorIds: readonly string[];
  readonly startErrors: number;
}

export interface Ledger {
  readonly offered: number;
  /** Offered IDs the store holds a completed run of, exactly one. */
  readonly completedOnce: number;
  /** Started (the client saw it start) but not in the store. */
  readonly missing: readonly string[];
  /** More than one run of the ID. */
  readonly duplicates: readonly string[];
  /** In the store, not completed. */
  readonly notCompleted: readonly string[];
  /** Starts the client saw fail that the server had taken: each must still complete once. */
  readonly failedStartsThatRan: number;
  /** In the store under the prefix but never offered. */
  readonly unexpected: readonly string[];
  /** Every verdict could be made (each failed start is named in the result). */
  readonly decidable: boolean;
  readonly exactlyOnce: boolean;
}

const COMPLETED = 2;

/** Judges the store's rows against what the generator offered. */
export function judgeLedger(o: Offered, stored: readonly StoredWorkflow[]): Ledger {
  const byId = new Map(stored.map((w) => [w.workflowId, w]));
  const failedStarts = new Set(o.startErrorIds);
  const offeredIds = Array.from({ length: o.workflowsOffered }, (_, k) => `${o.workflowIdPrefix}${k}`);
  const offeredSet = new Set(offeredIds);
  const missing: string[] = [];
  const duplicates: string[] = [];
  const notCompleted: string[] = [];
  let completedOnce = 0;
  let failedStartsThatRan = 0;
  for (const id of offeredIds) {
    const w = byId.get(id);
    if (!w) {
      if (!failedStarts.has(id)) missing.push(id);
      continue;
    }
    if (failedStarts.has(id)) failedStartsThatRan++;
    if (w.runs > 1) duplicates.push(id);
    else if (w.status !== COMPLETED) notCompleted.push(id);
    else completedOnce++;
  }
  const unexpected = stored.map((w) => w.workflowId).filter((id) => !offeredSet.has(id));
  // A failed start the result does not name is counted missing: the judge cannot tell.
  const decidable = o.startErrorIds.length === o.startErrors;
  return {
    offered: o.workflowsOffered,
    completedOnce,
    missing,
    duplicates,
    notCompleted,
    failedStartsThatRan,
    unexpected,
    decidable,
    exactlyOnce: decidable && !missing.length && !duplicates.length && !notCompleted.length && !unexpected.length,
  };
}

/** The history store's rows for every workflow ID under prefix: runs per ID and the current run's status. */
export async function readStored(pg: Postgres, database: string, prefix: string): Promise<StoredWorkflow[]> {
  if (!/^[A-Za-z0-9-]+$/.test(prefix)) throw new Error(`workflow ID prefix "${prefix}" is not one the generator makes`);
  const out = await pg.psql(
    `SELECT e.workflow_id, count(*), max(c.status) FROM executions e
       LEFT JOIN current_executions c ON c.shard_id = e.shard_id AND c.namespace_id = e.namespace_id AND c.workflow_id = e.workflow_id
     WHERE starts_with(e.workflow_id, '${prefix}') GROUP BY e.workflow_id`,
    database,
  );
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [workflowId, runs, status] = line.split('|');
      return { workflowId, runs: Number(runs), status: Number(status) };
    });
}
