import { type StoredWorkflow, judgeLedger } from '../../harness/ledger';

/* The exactly-once judge fed bad stores: each way a workflow can be lost or done twice is refused. */

const P = 'bench-20261124T120000-00ff-';
const offered = (n: number, startErrorIds: string[] = []) => ({ workflowIdPrefix: P, workflowsOffered: n, startErrorIds, startErrors: startErrorIds.length });
const done = (k: number, runs = 1, status = 2): StoredWorkflow => ({ workflowId: `${P}${k}`, runs, status });

test('every offered ID completed once: exactly once', () => {
  const l = judgeLedger(offered(3), [done(0), done(1), done(2)]);
  expect(l).toMatchObject({ completedOnce: 3, missing: [], duplicates: [], notCompleted: [], exactlyOnce: true });
});

test('a started workflow the store does not hold is missing', () => {
  const l = judgeLedger(offered(3), [done(0), done(2)]);
  expect(l.missing).toEqual([`${P}1`]);
  expect(l.exactlyOnce).toBe(false);
});

test('two runs of one ID are a duplicate, even when both completed', () => {
  const l = judgeLedger(offered(2), [done(0), done(1, 2)]);
  expect(l.duplicates).toEqual([`${P}1`]);
  expect(l.exactlyOnce).toBe(false);
});

test('a workflow still running (or failed, terminated) is not completed', () => {
  const l = judgeLedger(offered(3), [done(0), done(1, 1, 1), done(2, 1, 5)]);
  expect(l.notCompleted).toEqual([`${P}1`, `${P}2`]);
  expect(l.exactlyOnce).toBe(false);
});

test('a failed start may be absent; if the server took it, it must still complete once', () => {
  expect(judgeLedger(offered(2, [`${P}1`]), [done(0)])).toMatchObject({ missing: [], exactlyOnce: true });
  expect(judgeLedger(offered(2, [`${P}1`]), [done(0), done(1)])).toMatchObject({ failedStartsThatRan: 1, exactlyOnce: true });
  expect(judgeLedger(offered(2, [`${P}1`]), [done(0), done(1, 1, 1)]).exactlyOnce).toBe(false);
});

test('failed starts the result does not name leave the run undecided', () => {
  const l = judgeLedger({ ...offered(2), startErrors: 1 }, [done(0)]);
  expect(l).toMatchObject({ decidable: false, exactlyOnce: false, missing: [`${P}1`] });
});

test('an ID under the prefix that was never offered is refused', () => {
  const l = judgeLedger(offered(1), [done(0), done(7)]);
  expect(l.unexpected).toEqual([`${P}7`]);
  expect(l.exactlyOnce).toBe(false);
});
