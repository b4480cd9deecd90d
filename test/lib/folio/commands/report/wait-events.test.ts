import { DescribeDimensionKeysCommand, PIClient } from '@aws-sdk/client-pi';
import { DescribeDBInstancesCommand, RDSClient } from '@aws-sdk/client-rds';
import { mockClient } from 'aws-sdk-client-mock';
import { readWaitEvents, waitEventsFrom } from '../../../../../lib/folio/commands/report/wait-events';

/* Where a writer's load waited, from Performance Insights' answers; and each reason it could not be read. */

const rds = mockClient(RDSClient);
const pi = mockClient(PIClient);
const window = { start: new Date('2026-01-21T10:00:00Z'), end: new Date('2026-01-21T11:00:00Z') };
const now = new Date('2026-01-21T12:00:00Z');
const key = (name: string, type: string, total: number) => ({ Dimensions: { 'db.wait_event.name': name, 'db.wait_event.type': type }, Total: total });

beforeEach(() => {
  rds.reset();
  pi.reset();
});

test('shares of the load by event, largest first; the I/O share sums every IO event', () => {
  expect(waitEventsFrom([key('CPU', 'CPU', 2), key('IO:DataFileRead', 'IO', 5), key('IO:XactSync', 'IO', 1), key('Lock:tuple', 'Lock', 2)])).toEqual({
    top: [
      { name: 'IO:DataFileRead', type: 'IO', share: 0.5 },
      { name: 'CPU', type: 'CPU', share: 0.2 },
      { name: 'Lock:tuple', type: 'Lock', share: 0.2 },
      { name: 'IO:XactSync', type: 'IO', share: 0.1 },
    ],
    ioShare: 0.6,
  });
  expect(waitEventsFrom([])).toBeNull();
});

test('the writer is found by its resource id and asked for its wait events over the window', async () => {
  rds.on(DescribeDBInstancesCommand).resolves({ DBInstances: [{ DbiResourceId: 'db-ABC', PerformanceInsightsEnabled: true }] });
  pi.on(DescribeDimensionKeysCommand).resolves({ Keys: [key('CPU', 'CPU', 1)] });
  expect(await readWaitEvents(new RDSClient({ region: 'us-east-1' }), new PIClient({ region: 'us-east-1' }), 'w', window, now)).toEqual({
    offload: { top: [{ name: 'CPU', type: 'CPU', share: 1 }], ioShare: 0 },
    unread: null,
  });
});

test.each([
  [
    'Performance Insights off',
    () => rds.on(DescribeDBInstancesCommand).resolves({ DBInstances: [{ DbiResourceId: 'db-ABC', PerformanceInsightsEnabled: false }] }),
    now,
    'Performance Insights is off on w',
  ],
  [
    'no permission',
    () => {
      rds.on(DescribeDBInstancesCommand).resolves({ DBInstances: [{ DbiResourceId: 'db-ABC', PerformanceInsightsEnabled: true }] });
      pi.on(DescribeDimensionKeysCommand).rejects(Object.assign(new Error('not allowed'), { name: 'NotAuthorizedException' }));
    },
    now,
    'NotAuthorizedException: not allowed',
  ],
  [
    'a window older than 7 days',
    () => undefined,
    new Date('2026-02-01T00:00:00Z'),
    'the window starts more than 7 days ago, past what Performance Insights keeps by default',
  ],
])('not read: %s, and why', async (_name, answer, at, unread) => {
  answer();
  expect(await readWaitEvents(new RDSClient({ region: 'us-east-1' }), new PIClient({ region: 'us-east-1' }), 'w', window, at)).toEqual({
    offload: null,
    unread,
  });
});
