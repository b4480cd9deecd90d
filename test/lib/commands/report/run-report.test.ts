import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient, GetMetricDataCommand, type MetricDataQuery } from '@aws-sdk/client-cloudwatch';
import { DescribeDimensionKeysCommand, PIClient } from '@aws-sdk/client-pi';
import { DescribeDBClustersCommand, DescribeDBInstancesCommand, RDSClient } from '@aws-sdk/client-rds';
import { mockClient } from 'aws-sdk-client-mock';
import { ConfigError } from '../../../../config';
import { runReport } from '../../../../lib/commands/report/run-report';
import { EXIT_NO_DATA } from '../../../../lib/commands/shared/cli';
import { recordingIO } from '../../../support/command-io';
import { generatorResult } from '../../../support/generator-result';

/*
 * The report command's flow, called as its entry point calls it, with the SDK's clients
 * answering from recorded shapes: arguments checked first, metrics read, files written, the
 * markdown returned; a window with no datapoint is a failure with its own exit code.
 */

const cloudWatch = mockClient(CloudWatchClient);
const cfn = mockClient(CloudFormationClient);
const rds = mockClient(RDSClient);
const pi = mockClient(PIClient);
/** Both FOLIO clusters at `status` (available, or stopped while hibernated). */
const clusters = (status: string) => rds.on(DescribeDBClustersCommand).resolves({ DBClusters: [{ Status: status }] });
let dir: string;

beforeEach(() => {
  cloudWatch.reset();
  cfn.reset();
  rds.reset();
  pi.reset();
  clusters('available');
  // The offload writer's load by wait event: mostly CPU, some reads.
  rds.on(DescribeDBInstancesCommand).resolves({ DBInstances: [{ DbiResourceId: 'db-OFFLOAD', PerformanceInsightsEnabled: true }] });
  pi.on(DescribeDimensionKeysCommand).resolves({
    Keys: [
      { Dimensions: { 'db.wait_event.name': 'CPU', 'db.wait_event.type': 'CPU' }, Total: 3 },
      { Dimensions: { 'db.wait_event.name': 'IO:DataFileRead', 'db.wait_event.type': 'IO' }, Total: 1 },
    ],
  });
  dir = mkdtempSync(join(tmpdir(), 'run-report-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const START = '2026-01-21T10:00:00Z';
const END = '2026-01-21T10:10:00Z';
/** An hour after the window: CloudWatch still keeps its one-minute points. */
const NOW = new Date('2026-01-21T11:10:00Z');
/** Every query answered with ten one-minute points of `value`, or none. */
const answer = (value: number | undefined) =>
  cloudWatch.on(GetMetricDataCommand).callsFake((input: { MetricDataQueries: MetricDataQuery[] }) => ({
    MetricDataResults: input.MetricDataQueries.filter((q) => q.ReturnData !== false).map((q) => ({
      Id: q.Id,
      StatusCode: 'Complete',
      Timestamps: value === undefined ? [] : Array.from({ length: 10 }, (_, i) => new Date(Date.parse(START) + i * 60_000)),
      Values: value === undefined ? [] : Array.from({ length: 10 }, () => value),
    })),
  }));

test('a FOLIO phase: metrics read, report.md, report.json and charts written, the markdown returned', async () => {
  answer(40);
  const io = recordingIO();
  const out = join(dir, 'test12');
  const r = await runReport({ scenario: 'test12', start: START, end: END, out }, { io, now: NOW });
  expect(r.failure).toBeUndefined();
  expect(r.stdout).toMatch(/^# FOLIO hybrid Aurora report: test12\n/);
  expect(r.stdout).toContain('| Peak ACU | 40 (63% of max) |');
  expect(readFileSync(join(out, 'report.md'), 'utf8')).toBe(r.stdout);
  const json = await runReport({ scenario: 'test12', start: START, end: END, out: join(dir, 'json'), json: true }, { io: recordingIO(), now: NOW });
  expect(json.stdout).toBe(readFileSync(join(dir, 'json', 'report.json'), 'utf8'));
  expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).toMatchObject({ schemaVersion: 1, family: 'folio', scenario: 'test12' });
  expect(readdirSync(join(out, 'charts')).length).toBeGreaterThan(2);
  expect(io.notes.at(-1)).toMatch(/^wrote .*report\.md, report\.json and \d+ charts$/);
  expect(io.statuses[0]).toMatch(/^GetMetricData: \d+ series, batch 1\/1, page 1$/);
  expect(cfn.calls()).toHaveLength(0);
  // Performance Insights asked for the offload writer's wait events over the window.
  expect(pi.commandCalls(DescribeDimensionKeysCommand)[0].args[0].input).toMatchObject({
    ServiceType: 'RDS',
    Identifier: 'db-OFFLOAD',
    Metric: 'db.load.avg',
    GroupBy: { Group: 'db.wait_event', Limit: 10 },
    StartTime: new Date(START),
    EndTime: new Date(END),
  });
  expect(r.stdout).toContain('| IO:DataFileRead | IO | 25% |');
});

test('a window without one datapoint: the report is written and returned, and the outcome is EXIT_NO_DATA', async () => {
  answer(undefined);
  const out = join(dir, 'empty');
  const r = await runReport({ scenario: 'test12', start: START, end: END, out }, { io: recordingIO(), now: NOW });
  expect(existsSync(join(out, 'report.md'))).toBe(true);
  expect(r.failure?.exitCode).toBe(EXIT_NO_DATA);
  expect(r.failure?.message).toMatch(/^no datapoint at all in 2026-01-21T10:00:00.000Z to 2026-01-21T10:10:00.000Z for test12 in us-east-1/);
});

test('a window of a hibernated environment: noted, and the no-data outcome says why instead of guessing', async () => {
  answer(undefined);
  clusters('stopped');
  const io = recordingIO();
  const r = await runReport({ scenario: 'test12', start: START, end: END, out: join(dir, 'stopped') }, { io, now: NOW });
  const said = 'FolioHybridAurora is hibernated: its clusters are stopped and stopped (npm run wake -- --scenario test12 starts them)';
  expect(io.notes).toContain(`note: ${said}`);
  expect(r.failure?.exitCode).toBe(EXIT_NO_DATA);
  expect(r.failure?.message).toBe(
    `no datapoint at all in 2026-01-21T10:00:00.000Z to 2026-01-21T10:10:00.000Z for test12: ${said}; a window from before it hibernated has data`,
  );
});

test('a DSQL preset reads its cluster id from the stack; with an emulator endpoint and no --prometheus-url, the servers are noted unread', async () => {
  answer(1000);
  cfn.on(DescribeStacksCommand).resolves({
    Stacks: [
      {
        StackName: 'TemporalDsql',
        CreationTime: new Date(),
        StackStatus: 'UPDATE_COMPLETE',
        Outputs: [{ OutputKey: 'DsqlClusterId', OutputValue: 'kqabc123dsqlcluster' }],
      },
    ],
  });
  const io = recordingIO();
  const r = await runReport(
    { scenario: 'temporal-150wps', start: START, end: END, out: join(dir, 't'), endpointUrl: 'http://127.0.0.1:5000' },
    { io, now: NOW },
  );
  expect(r.failure).toBeUndefined();
  expect(cfn.commandCalls(DescribeStacksCommand)[0].args[0].input).toEqual({ StackName: 'TemporalDsql' });
  const queries = cloudWatch.commandCalls(GetMetricDataCommand).flatMap((c) => c.args[0].input.MetricDataQueries ?? []);
  expect(JSON.stringify(queries)).toContain('kqabc123dsqlcluster');
  expect(io.notes).toContain(
    'note: Prometheus: not read: --endpoint-url points the AWS calls at an emulator, which serves no Prometheus query API (pass --prometheus-url)',
  );
});

test("a ladder's run record: the steps, the highest rate held and both ladder charts; with the servers unread, no step is judged", async () => {
  answer(1000);
  cfn.on(DescribeStacksCommand).resolves({
    Stacks: [
      { StackName: 'TemporalDsql', CreationTime: new Date(), StackStatus: 'UPDATE_COMPLETE', Outputs: [{ OutputKey: 'DsqlClusterId', OutputValue: 'kq' }] },
    ],
  });
  const step = (rate: number, from: number, held: boolean) => ({
    rate,
    start: new Date(Date.parse(START) + from * 60_000).toISOString(),
    end: new Date(Date.parse(START) + (from + 5) * 60_000).toISOString(),
    exitCode: 0,
    // The report judges each step again from its result: these bear the verdicts out.
    result: generatorResult(rate, 300, { p99: held ? 200 : 4000, start: new Date(Date.parse(START) + from * 60_000).toISOString() }),
    held,
    // Without thousands separators, as records written before the reasons had them: the same claim.
    failed: held ? [] : ['P99 4000 ms (above 1000 ms)'],
    figures: { offered: rate * 300, completed: rate * 300, completedShare: 1, completedPerSecond: rate, p99Ms: held ? 200 : 4000, openGrowthShare: 0 },
  });
  const file = join(dir, 'ladder.json');
  writeFileSync(
    file,
    JSON.stringify({
      scenario: 'temporal-150wps',
      start: START,
      end: END,
      workflowsCompleted: 135_000,
      storeRoundTrip: null,
      ladder: {
        step: '5m',
        held: { completedShareMin: 0.99, p99MaxMs: 1000, openGrowthShareMax: 0.05 },
        rates: [150, 300, 600],
        steps: [step(150, 0, true), step(300, 5, false)],
        highestHeld: 150,
        firstFailed: 300,
      },
    }),
  );
  const r = await runReport({ run: file, out: join(dir, 'l'), endpointUrl: 'http://127.0.0.1:5000' }, { io: recordingIO(), now: NOW });
  expect(r.stdout).toContain('**Highest rate held: 150/s.** The first that did not: 300/s.');
  expect(r.stdout).toContain("Not judged: the servers' metrics over the step were not read.");
  expect(readdirSync(join(dir, 'l', 'charts'))).toEqual(expect.arrayContaining(['ladderThroughput.svg', 'ladderLatency.svg']));
  expect(JSON.parse(readFileSync(join(dir, 'l', 'report.json'), 'utf8')).ladder).toMatchObject({ highestHeld: 150, firstFailed: 300, atFirstFailed: null });
});

test('bad arguments are refused before any call, and no directory is made', async () => {
  const aws = () => {
    throw new Error('no client for a refused argument');
  };
  await expect(runReport({ scenario: 'test12', start: START, end: END, workflows: '10' }, { aws })).rejects.toThrow(
    new ConfigError("--workflows does not apply to test12 (a FOLIO phase: --workflows is a Temporal preset's option)"),
  );
  await expect(runReport({ scenario: 'temporal-150wps', last: '30m', prometheusUrl: 'ftp://x' }, { aws })).rejects.toThrow(
    /--prometheus-url "ftp:\/\/x" is not http or https/,
  );
  await expect(runReport({}, { aws })).rejects.toThrow(/^no scenario given/);
  expect(cloudWatch.calls()).toHaveLength(0);
});

test('--compare reads two finished reports and returns their deltas; with anything else it is refused', async () => {
  answer(40);
  await runReport({ scenario: 'test12', start: START, end: END, out: join(dir, 'a') }, { io: recordingIO(), now: NOW });
  const b = JSON.parse(readFileSync(join(dir, 'a', 'report.json'), 'utf8'));
  writeFileSync(join(dir, 'b.json'), JSON.stringify(b));
  const r = await runReport({ compare: [join(dir, 'a', 'report.json'), join(dir, 'b.json')] });
  expect(r.stdout).toContain('|');
  const deltas = JSON.parse((await runReport({ compare: [join(dir, 'a', 'report.json'), join(dir, 'b.json')], json: true })).stdout);
  expect(deltas.metrics).toContainEqual({ metric: 'acu.peak', a: 40, b: 40, delta: 0 });
  await expect(runReport({ compare: [join(dir, 'b.json'), join(dir, 'b.json')], scenario: 'test12' })).rejects.toThrow(
    /^--compare cannot be combined with --scenario/,
  );
});
