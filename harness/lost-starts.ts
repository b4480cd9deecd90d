import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * How late a fault can make a workflow close, by Temporal's own behaviour (docs/local-cluster.md,
 * "Faults and rolling deploys"). A task start that history records but whose answer reaches no
 * worker (a matching host leaving with polls in flight; upstream PR #11734) is lost: matching
 * drops the second hand-over as already started, and the task runs again only once its timeout
 * has passed, after the retry policy's backoff. Losses happen only while the fault disturbs the
 * cluster, so the last one falls inside that window, and the workflow closes by the window's
 * end plus one timeout and the backoff the most losses that fit in the window reach.
 */

/** Temporal's retry policy where the workflow sets none (server 1.32.2, common/retrypolicy/retry_policy.go:76-81). */
export const UPSTREAM_RETRY = { initialSeconds: 1, backoffCoefficient: 2, maximumIntervalCoefficient: 100 } as const;

/** Temporal's workflow task timeout where the start sets none (server 1.32.2, common/primitives/constants.go:16). */
export const UPSTREAM_WORKFLOW_TASK_TIMEOUT_SECONDS = 10;

/**
 * After the retried attempt fires (or the last start): its dispatch, the activity and the
 * workflow's last task. Beside a busy loop every last workflow closed within a second of its
 * start (npm run bench:faults, docs/local-cluster.md); this leaves a machine ten times slower room.
 */
export const DISPATCH_SLACK_SECONDS = 10;

const WORKFLOWS_GO = join(__dirname, '../benchmark/internal/workflows/workflows.go');

/** The benchmark activity's StartToCloseTimeout, read from the benchmark's own source. */
export function activityTimeoutSeconds(source = readFileSync(WORKFLOWS_GO, 'utf8')): number {
  const m = /^const ActivityStartToCloseTimeout = (\d+) \* time\.Second$/m.exec(source);
  if (!m) throw new Error(`${WORKFLOWS_GO} no longer declares "const ActivityStartToCloseTimeout = <n> * time.Second"`);
  return Number(m[1]);
}

/** The backoff before attempt n + 1, after n attempts failed. */
export function backoffSeconds(n: number, r = UPSTREAM_RETRY): number {
  return Math.min(r.initialSeconds * r.backoffCoefficient ** (n - 1), r.initialSeconds * r.maximumIntervalCoefficient);
}

export interface LostStartBound {
  /** Seconds the fault disturbed the cluster: any start inside it may be lost. */
  readonly windowSeconds: number;
  /** The most attempts of one task that can be lost inside the window, one after another. */
  readonly losses: number;
  /** Seconds after the window opened by which every workflow it delayed has closed. */
  readonly closeBySeconds: number;
}

/**
 * The bound for a window: attempts lost one after another (each retried its timeout plus a
 * backoff later) while they fall inside it; the last lost one anywhere inside it. A lost
 * workflow task costs its 10 s timeout and no backoff, so the activity's loss bounds it.
 */
export function lostStartBound(windowSeconds: number, activityTimeout = activityTimeoutSeconds()): LostStartBound {
  const cost = Math.max(activityTimeout, UPSTREAM_WORKFLOW_TASK_TIMEOUT_SECONDS);
  let losses = 1;
  for (let at = cost + backoffSeconds(1); at < windowSeconds; at += cost + backoffSeconds(losses)) losses++;
  return { windowSeconds, losses, closeBySeconds: windowSeconds + cost + backoffSeconds(losses) + DISPATCH_SLACK_SECONDS };
}
