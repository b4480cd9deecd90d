/** A clock that advances only when the code under test sleeps: wait loops without waiting. */
export function fakeTime() {
  let t = Date.parse('2026-01-21T10:00:00Z');
  const sleeps: number[] = [];
  return { now: () => t, sleep: async (ms: number) => void (sleeps.push(ms), (t += ms)), sleeps };
}
