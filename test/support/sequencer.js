const Sequencer = require('@jest/test-sequencer').default;

/*
 * Jest's own order goes by timings once it has them and by file size on a fresh clone; two suites
 * need one that does not depend on that:
 * - the unit suite: suites that wait on other processes (the linters, many command processes)
 *   start first, so their waits overlap the rest of the run;
 * - the integration suite's last stage (scripts/test-integration.sh): the local cluster's runs,
 *   the faults and the forwarder's round trips, whose verdicts are latencies and recoveries, run
 *   after the stage's quick files.
 */
const FIRST = ['/test/lint/', '/test/bad-input.test.ts'];
const LAST = ['/test/integration/temporal-local.test.ts', '/test/integration/temporal-faults.test.ts', '/test/integration/harness/service-name.test.ts'];
const rank = (path) => {
  const first = FIRST.findIndex((p) => path.includes(p));
  if (first !== -1) return first;
  const last = LAST.findIndex((p) => path.includes(p));
  return last === -1 ? FIRST.length : FIRST.length + 1 + last;
};

class Ordered extends Sequencer {
  sort(tests) {
    const byJest = super.sort(tests);
    return [...byJest].sort((a, b) => rank(a.path) - rank(b.path));
  }
}

module.exports = Ordered;
