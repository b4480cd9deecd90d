import { type Event, paginateDescribeEvents, type RDSClient } from '@aws-sdk/client-rds';

/*
 * What the first connection after a pause waited: Aurora reports each Serverless v2 instance's
 * auto-pause and resume as RDS events, and a resume's wait is the time from its start to its
 * end. CloudWatch has no such figure (its capacity metric is one point a minute).
 */

/**
 * The event messages, as the Aurora User Guide gives them ("DB instance events",
 * USER_Events.Messages; "Events for auto-pause and auto-resume operations"): RDS-EVENT-0372,
 * 0373 and 0374. DescribeEvents returns the message, not the event id.
 */
export const RESUME_EVENTS = {
  paused: 'Successfully paused the DB instance.',
  resuming: 'Initiated resume for the DB instance.',
  resumed: 'Successfully resumed the DB instance.',
} as const;

/** RDS keeps events for 14 days. */
const KEPT_DAYS = 14;

export interface Resume {
  /** When the resume started: a connection (or maintenance) arrived at the paused instance. */
  readonly at: string;
  /** Until the instance accepted it; null when no "resumed" event followed in the window. */
  readonly waitedSeconds: number | null;
}

export type ResumeReading =
  | {
      readonly resumes: readonly Resume[];
      /** Set when RDS no longer keeps the window's start: events from then on. */ readonly since?: string;
      readonly unread?: undefined;
    }
  | { readonly resumes?: undefined; readonly since?: undefined; readonly unread: string };

/** Each resume that starts in the events given, paired with the first "resumed" after it. */
export function resumesFrom(events: readonly Pick<Event, 'Date' | 'Message'>[]): Resume[] {
  const ordered = events
    .filter((e): e is { Date: Date; Message: string } => e.Date instanceof Date && !Number.isNaN(e.Date.getTime()) && typeof e.Message === 'string')
    .sort((a, b) => a.Date.getTime() - b.Date.getTime());
  const out: Resume[] = [];
  let started: Date | undefined;
  const close = (end: Date | undefined) => {
    if (!started) return;
    out.push({ at: started.toISOString(), waitedSeconds: end ? (end.getTime() - started.getTime()) / 1000 : null });
    started = undefined;
  };
  for (const e of ordered) {
    const message = e.Message.trim();
    if (message === RESUME_EVENTS.resuming) {
      // A second start before any end: the first one's end is not in the record.
      close(undefined);
      started = e.Date;
    } else if (message === RESUME_EVENTS.resumed) close(e.Date);
  }
  close(undefined);
  return out;
}

/** The resumes of one instance in a window, or why they could not be read. */
export async function readResumes(
  rds: RDSClient,
  instanceIdentifier: string,
  window: { readonly start: Date; readonly end: Date },
  now = new Date(),
): Promise<ResumeReading> {
  const oldest = now.getTime() - KEPT_DAYS * 86_400_000;
  if (window.end.getTime() < oldest) return { unread: `the window ended more than ${KEPT_DAYS} days ago, and RDS keeps its events ${KEPT_DAYS} days` };
  const events: Event[] = [];
  try {
    for await (const page of paginateDescribeEvents(
      { client: rds },
      { SourceType: 'db-instance', SourceIdentifier: instanceIdentifier, StartTime: new Date(Math.max(window.start.getTime(), oldest)), EndTime: window.end },
    ))
      events.push(...(page.Events ?? []));
  } catch (e) {
    return { unread: `DescribeEvents for ${instanceIdentifier} failed: ${(e as Error).message}` };
  }
  return { resumes: resumesFrom(events), ...(window.start.getTime() < oldest && { since: new Date(oldest).toISOString() }) };
}
