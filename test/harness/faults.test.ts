import { recovery } from '../../harness/faults';

/* The recovery figure fed runs that did and did not come back. */

const series = (completed: number[], latencyP99MsByStart = completed.map(() => 100)) => ({ completed, latencyP99MsByStart, intervalSeconds: 1 });
const steady = Array(10).fill(10);

test('a run the fault did not touch recovered at once, second-to-second noise included', () => {
  expect(recovery(series([...steady, 9, 11, 8, 12, 10, ...steady]), 10, 10, 100, 25)).toBe(0);
});

test('a dip counts until its last bad second ends', () => {
  expect(recovery(series([...steady, 10, 2, 0, 0, 25, 10, ...steady]), 10, 10, 100, 26)).toBe(4);
});

test('starts with a P99 far above the steady one are not recovered, whatever the rate', () => {
  const lat = [...Array(12).fill(100), 4000, ...Array(13).fill(100)];
  expect(recovery(series(Array(26).fill(10), lat), 10, 10, 100, 26)).toBe(3);
});

test('a run still down when the load ended never recovered', () => {
  expect(recovery(series([...steady, 10, 10, 0, 0, 0, 0, 0, 0]), 10, 10, 100, 18)).toBeNull();
});

test('starts that stay slow after the rate is back never recovered', () => {
  const lat = [...Array(12).fill(100), ...Array(14).fill(4000)];
  expect(recovery(series(Array(26).fill(10), lat), 10, 10, 100, 26)).toBeNull();
});

test('a workflow the fault stalled counts against the second it started in, not the second it arrived in', () => {
  // Started at second 11, back 20 s later: the seconds after it served new work at the rate.
  const lat = [...Array(11).fill(100), 20_000, ...Array(18).fill(100)];
  expect(recovery(series(Array(30).fill(10), lat), 10, 10, 100, 30)).toBe(2);
});
