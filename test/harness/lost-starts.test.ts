import { DISPATCH_SLACK_SECONDS, activityTimeoutSeconds, backoffSeconds, lostStartBound } from '../../harness/lost-starts';
import { lastClose } from '../../harness/faults';

test("the activity's timeout is read from the benchmark's source, and a source without it is refused", () => {
  expect(activityTimeoutSeconds()).toBe(10);
  expect(activityTimeoutSeconds('const ActivityStartToCloseTimeout = 30 * time.Second\n')).toBe(30);
  expect(() => activityTimeoutSeconds('const ActivityStartToCloseTimeout = 30 * time.Minute\n')).toThrow(/no longer declares/);
});

test("the backoff doubles from Temporal's 1 s, up to 100 times that", () => {
  expect([1, 2, 3, 4, 7, 8, 9].map((n) => backoffSeconds(n))).toEqual([1, 2, 4, 8, 64, 100, 100]);
});

describe('lostStartBound', () => {
  test.each([
    // One loss at the window's start: its timeout, 1 s of backoff and the slack after the window.
    [0.6, 10, 1, 0.6 + 10 + 1],
    // Losses at 0, 11 and 23 s all fall inside 24 s; the fourth attempt (37 s) runs.
    [24, 10, 3, 24 + 10 + 4],
    // The same window with the 30 s timeout the benchmark had: one loss.
    [24, 30, 1, 24 + 30 + 1],
    // A window no loss can be retried in: still one loss.
    [0, 10, 1, 10 + 1],
  ])('a %s s window with a %s s timeout: %s loss(es), closed by the window, the timeout and the backoff', (window, timeout, losses, closeBy) => {
    expect(lostStartBound(window, timeout)).toEqual({ windowSeconds: window, losses, closeBySeconds: closeBy + DISPATCH_SLACK_SECONDS });
  });

  test("a lost workflow task costs Temporal's 10 s, so a shorter activity timeout does not shorten the bound below it", () => {
    expect(lostStartBound(5, 2)).toEqual(lostStartBound(5, 10));
  });
});

test('the last close is the end of the last second any workflow closed in', () => {
  expect(lastClose({ intervalSeconds: 1, completed: [10, 10, 0, 3, 0, 0] })).toBe(4);
  expect(lastClose({ intervalSeconds: 2, completed: [0, 5] })).toBe(4);
  expect(lastClose({ intervalSeconds: 1, completed: [0, 0] })).toBe(0);
});
