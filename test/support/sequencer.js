const Sequencer = require('@jest/test-sequencer').default;

/*
 * Suites that wait on other processes (the linters, many command processes) start first, so their waits overlap the rest of the run. Jest's own order does the
 * same only once it has timings; on a fresh clone it would start the largest files first and
 * leave the long lint run for last.
 */
const FIRST = ['/test/lint/', '/test/bad-input.test.ts'];
const rank = (path) => {
  const i = FIRST.findIndex((p) => path.includes(p));
  return i === -1 ? FIRST.length : i;
};

class WaitsFirst extends Sequencer {
  sort(tests) {
    const byJest = super.sort(tests);
    return [...byJest].sort((a, b) => rank(a.path) - rank(b.path));
  }
}

module.exports = WaitsFirst;
