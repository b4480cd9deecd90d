import { DescribeDimensionKeysCommand, type PIClient } from '@aws-sdk/client-pi';
import { DescribeDBInstancesCommand, type RDSClient } from '@aws-sdk/client-rds';

/*
 * Where a writer's database load went over the window, by wait event, from Performance
 * Insights (db.load.avg grouped by db.wait_event): CPU, or reads from storage (IO:DataFileRead),
 * or locks. CloudWatch's DBLoad says how much load there was, not what it waited on.
 */

interface WaitEvent {
  readonly name: string;
  /** The event's type: CPU, IO, Lock, LWLock, Client, IPC... */
  readonly type: string;
  /** Its share of the writer's database load over the window. */
  readonly share: number;
}

export interface WaitEvents {
  /** The largest first, as Performance Insights ranks them. */
  readonly top: readonly WaitEvent[];
  /** The share of all load spent in I/O waits. */
  readonly ioShare: number;
}

export interface WaitReading {
  readonly offload: WaitEvents | null;
  /** Why there are none: Performance Insights off, the window past its retention, no permission. */
  readonly unread: string | null;
}

/** Performance Insights keeps 7 days of data in its free tier. */
const KEPT_DAYS = 7;

export async function readWaitEvents(
  rds: RDSClient,
  pi: PIClient,
  instance: string,
  window: { start: Date; end: Date },
  now = new Date(),
): Promise<WaitReading> {
  if (now.getTime() - window.start.getTime() > KEPT_DAYS * 86_400_000)
    return { offload: null, unread: `the window starts more than ${KEPT_DAYS} days ago, past what Performance Insights keeps by default` };
  try {
    const { DBInstances } = await rds.send(new DescribeDBInstancesCommand({ DBInstanceIdentifier: instance }));
    const db = DBInstances?.[0];
    if (!db?.DbiResourceId) return { offload: null, unread: `instance ${instance} not found` };
    if (!db.PerformanceInsightsEnabled) return { offload: null, unread: `Performance Insights is off on ${instance}` };
    const { Keys } = await pi.send(
      new DescribeDimensionKeysCommand({
        ServiceType: 'RDS',
        Identifier: db.DbiResourceId,
        StartTime: window.start,
        EndTime: window.end,
        Metric: 'db.load.avg',
        GroupBy: { Group: 'db.wait_event', Limit: 10 },
      }),
    );
    return { offload: waitEventsFrom(Keys ?? []), unread: null };
  } catch (e) {
    if (e instanceof Error && /AccessDenied|NotAuthorized|InvalidArgument|Unauthorized/.test(e.name))
      return { offload: null, unread: `${e.name}: ${e.message}` };
    throw e;
  }
}

/** Shares of the load from Performance Insights' keys; null when the window had no load at all. */
export function waitEventsFrom(keys: readonly { Dimensions?: Record<string, string>; Total?: number }[]): WaitEvents | null {
  const events = keys
    .map((k) => ({ name: k.Dimensions?.['db.wait_event.name'] ?? '?', type: k.Dimensions?.['db.wait_event.type'] ?? '?', load: k.Total ?? 0 }))
    .filter((e) => e.load > 0);
  const total = events.reduce((n, e) => n + e.load, 0);
  if (!(total > 0)) return null;
  return {
    top: events.sort((a, b) => b.load - a.load).map((e) => ({ name: e.name, type: e.type, share: e.load / total })),
    ioShare: events.filter((e) => e.type === 'IO').reduce((n, e) => n + e.load, 0) / total,
  };
}
