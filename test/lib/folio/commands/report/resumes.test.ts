import { DescribeEventsCommand, RDSClient } from '@aws-sdk/client-rds';
import { mockClient } from 'aws-sdk-client-mock';
import { RESUME_EVENTS, readResumes, resumesFrom } from '../../../../../lib/folio/commands/report/resumes';

/*
 * What the first connection after a pause waited, from the offload writer's RDS events. The
 * messages are the Aurora User Guide's ("DB instance events": RDS-EVENT-0370 to 0374, as
 * DescribeEvents returns them: the message, not the id); a record that breaks the pattern
 * (an end without a start, a start without an end, pages out of order) never invents a wait.
 */

const rds = mockClient(RDSClient);
const at = (s: string) => new Date(`2026-01-21T${s}Z`);
const event = (time: string, Message: string) => ({
  Date: at(time),
  Message,
  SourceIdentifier: 'folio-hybrid-serverless-writer',
  SourceType: 'db-instance' as const,
  EventCategories: ['notification', 'serverless'],
});
const window = { start: at('10:00:00'), end: at('12:00:00') };
const now = at('13:00:00');

beforeEach(() => rds.reset());

test('the messages are the documented ones (Aurora User Guide, DB instance events RDS-EVENT-0372 to 0374)', () => {
  expect(RESUME_EVENTS).toEqual({
    paused: 'Successfully paused the DB instance.',
    resuming: 'Initiated resume for the DB instance.',
    resumed: 'Successfully resumed the DB instance.',
  });
});

test('each resume is paired with the first end after it, across pages and out of order', async () => {
  rds
    .on(DescribeEventsCommand)
    .resolvesOnce({
      Events: [
        event('10:40:12', RESUME_EVENTS.resumed),
        event('10:05:00', 'Initiated pause for the DB instance.'),
        event('10:05:03', RESUME_EVENTS.paused),
        event('10:39:57.500', RESUME_EVENTS.resuming),
      ],
      Marker: 'page-2',
    })
    .resolvesOnce({
      Events: [event('11:30:00', RESUME_EVENTS.resuming), event('11:30:16', RESUME_EVENTS.resumed), event('11:31:00', 'Cluster topology is updated.')],
    });
  expect(await readResumes(new RDSClient({}), 'folio-hybrid-serverless-writer', window, now)).toEqual({
    resumes: [
      { at: '2026-01-21T10:39:57.500Z', waitedSeconds: 14.5 },
      { at: '2026-01-21T11:30:00.000Z', waitedSeconds: 16 },
    ],
  });
  // Two pages: the paginator follows the marker (it reuses one input object, so only the last is seen).
  const calls = rds.commandCalls(DescribeEventsCommand);
  expect(calls).toHaveLength(2);
  expect(calls[1].args[0].input).toMatchObject({
    SourceType: 'db-instance',
    SourceIdentifier: 'folio-hybrid-serverless-writer',
    StartTime: window.start,
    EndTime: window.end,
    Marker: 'page-2',
  });
});

test('a start with no end in the window has no wait; an end with no start is no resume; a second start closes the first without one', () => {
  expect(
    resumesFrom([
      event('10:00:05', RESUME_EVENTS.resumed),
      event('10:10:00', RESUME_EVENTS.resuming),
      event('10:20:00', RESUME_EVENTS.resuming),
      event('10:20:09', RESUME_EVENTS.resumed),
      event('11:59:50', RESUME_EVENTS.resuming),
    ]),
  ).toEqual([
    { at: '2026-01-21T10:10:00.000Z', waitedSeconds: null },
    { at: '2026-01-21T10:20:00.000Z', waitedSeconds: 9 },
    { at: '2026-01-21T11:59:50.000Z', waitedSeconds: null },
  ]);
  // Events without a date or message are not read as anything.
  expect(resumesFrom([{ Message: RESUME_EVENTS.resuming }, { Date: at('10:00:00') }, { Date: new Date('x'), Message: RESUME_EVENTS.resumed }])).toEqual([]);
});

test('a window RDS no longer keeps, an API that refuses, and a window half kept each say so', async () => {
  expect(await readResumes(new RDSClient({}), 'w', window, new Date('2026-02-10T00:00:00Z'))).toEqual({
    unread: 'the window ended more than 14 days ago, and RDS keeps its events 14 days',
  });
  rds.on(DescribeEventsCommand).rejects(Object.assign(new Error('User is not authorized to perform: rds:DescribeEvents'), { name: 'AccessDenied' }));
  expect(await readResumes(new RDSClient({}), 'w', window, now)).toEqual({
    unread: 'DescribeEvents for w failed: User is not authorized to perform: rds:DescribeEvents',
  });
  rds.reset();
  rds.on(DescribeEventsCommand).resolves({ Events: [] });
  const late = new Date(window.start.getTime() + 14 * 86_400_000 + 3_600_000);
  expect(await readResumes(new RDSClient({}), 'w', { start: window.start, end: late }, late)).toEqual({
    resumes: [],
    since: new Date(late.getTime() - 14 * 86_400_000).toISOString(),
  });
  expect(rds.commandCalls(DescribeEventsCommand)[0].args[0].input.StartTime).toEqual(new Date(late.getTime() - 14 * 86_400_000));
});
