import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type BlackHole, startBlackHole } from '../../../harness/black-hole';
import { readRecord } from '../../../lib/campaign/campaign-record';
import { recordPath } from '../../../lib/campaign/campaign-run';
import { AWS_TIMEOUTS } from '../../../lib/commands/aws/deadline';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/temp-dir';

/*
 * Every command that calls AWS, as a user runs it, against an endpoint that accepts connections
 * and never answers (a black-holed proxy, a half-open VPC endpoint, a stuck emulator), with the
 * deadlines a user has: each ends by itself within two minutes, non-zero, in one line naming the
 * call and the endpoint. They run side by side: each mostly waits.
 */

let hole: BlackHole;
let endpoint: string;

beforeAll(async () => {
  hole = await startBlackHole();
  endpoint = hole.endpoint;
});
afterAll(() => hole.stop());

const LIMIT_MS = 120_000;
const campaignDir = tempDir('no-answer-campaign-');
const NO_ANSWER = () =>
  new RegExp(`^error: .*AWS did not answer [a-z0-9-]+:[A-Za-z]+ at ${endpoint.replace(/\./g, '\\.')} within ${AWS_TIMEOUTS.callSeconds} s`);

test('each command ends by itself within two minutes, in one line naming the call and the endpoint, with the exit code its help lists', async () => {
  const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000).toISOString();
  const cases: [string, string[], number, () => RegExp][] = [
    [
      'bench.ts',
      ['status', '-s', 'temporal-25wps', '--timeout', '10s'],
      4,
      () => /^error: timed out after 10 s waiting for TemporalDsql's fleet; last seen: cloudformation:DescribeStacks at .* unanswered$/,
    ],
    ['bench.ts', ['down', '-s', 'temporal-25wps'], 2, NO_ANSWER],
    // Its --timeout (1m by default) ends it as a timeout first.
    [
      'environment.ts',
      ['status', '-s', 'temporal-25wps'],
      4,
      () => /^error: timed out after 60 s waiting for temporal-25wps's environment; last seen: cloudformation:DescribeStacks at .* unanswered$/,
    ],
    ['environment.ts', ['hibernate', '-s', 'test12'], 2, NO_ANSWER],
    ['environment.ts', ['wake', '-s', 'temporal-25wps'], 2, NO_ANSWER],
    ['preflight.ts', ['-s', 'temporal-25wps'], 2, NO_ANSWER],
    ['report.ts', ['-s', 'test12', '--start', hour, '--end', new Date(Date.parse(hour) + 3_600_000).toISOString()], 2, NO_ANSWER],
    ['cost.ts', ['--refresh-prices', '--region', 'eu-west-1'], 2, NO_ANSWER],
    ['plan.ts', ['--from', 'temporal-150wps', '--to', 'temporal-400wps', '--check-deployed'], 2, NO_ANSWER],
    [
      'campaign.ts',
      ['run', 'temporal-scaling', '--out', campaignDir],
      2,
      () => /^error: campaign temporal-scaling stopped at step 1 \(temporal-150wps\), plan: AWS did not answer cloudformation:DescribeStacks/,
    ],
  ];
  const results = await Promise.all(
    cases.map(async ([script, args, status, line]) => {
      const started = Date.now();
      const r = await runCli(script, [...args, '--endpoint-url', endpoint]);
      const lines = r.stderr.trim().split('\n');
      // Notes of what it was doing may come first; the error is the last line, and the only one.
      const errors = lines.filter((l) => l.startsWith('error:') || /^\s+at /.test(l));
      return { command: `${script} ${args[0]}`, ms: Date.now() - started, status: r.status, errors, last: lines.at(-1), expected: { status, line: line() } };
    }),
  );
  for (const r of results) {
    expect({ command: r.command, status: r.status, errors: r.errors }).toEqual({ command: r.command, status: r.expected.status, errors: [r.last] });
    expect(r.last).toMatch(r.expected.line);
    expect(r.ms).toBeLessThan(LIMIT_MS);
  }
  // The campaign's record says where it stopped and why, and its lock is let go: a run again resumes.
  expect(readRecord(recordPath(campaignDir))).toMatchObject({ status: 'failed', failure: { step: 0, stage: 'plan' } });
  expect(readRecord(recordPath(campaignDir))!.failure!.reason).toMatch(/^AWS did not answer cloudformation:DescribeStacks/);
  expect(existsSync(join(campaignDir, 'campaign.lock'))).toBe(false);
}, 180_000);
