import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { runReport, type ReportOptions } from '../../../lib/commands/report/run-report';
import { type CommandOutput, EXIT_NO_DATA } from '../../../lib/commands/shared/cli';
import { runCli } from '../../support/cli';
import { recordingIO } from '../../support/command-io';
import { minuteSeries, putMetrics } from '../../../harness/cloudwatch-seed';
import { CREDENTIALS, type Moto, MOTO_START_MS, startMoto, useMotoCredentials } from '../../../harness/moto';

/*
 * The report command end to end, against moto's server mode on loopback: a real
 * AWS-API-compatible HTTP server answering the SDK's GetMetricData and DescribeStacks calls,
 * not a stubbed client. The flow is called as the entry point calls it (runReport); one run
 * starts the real process, for the exit code and the error line only a process shows.
 */

useMotoCredentials();

let moto: Moto;
let endpoint: string;
const work = mkdtempSync(join(tmpdir(), 'report-'));

// A ten-minute window that ended twenty minutes ago, on whole minutes.
const START = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 30 * 60_000);
const END = new Date(START.getTime() + 10 * 60_000);
const put = putMetrics;
const series = (name: string, dims: Record<string, string>, values: readonly number[]) => minuteSeries(START, name, dims, values);

beforeAll(async () => {
  moto = await startMoto();
  endpoint = moto.endpoint;

  // What a deployed Temporal environment publishes, and its stack's DSQL cluster id.
  const temporal = new CloudWatchClient({ region: 'eu-west-1', endpoint, credentials: CREDENTIALS });
  const cluster = { ClusterId: 'kqabc123dsqlcluster' };
  await put(temporal, 'AWS/AuroraDSQL', [
    ...series('TotalTransactions', cluster, [260_000, 268_000, 272_000, 271_000, 270_000, 269_000, 270_500, 268_000, 267_500, 264_000]),
    ...series('ReadOnlyTransactions', cluster, [184_600, 190_300, 193_100, 192_400, 191_700, 191_000, 192_000, 190_300, 189_900, 187_400]),
    ...series('CommitLatency', cluster, [4, 4, 5, 4, 4, 4, 4, 4, 4, 4]),
  ]);
  await put(
    temporal,
    'AWS/ECS',
    series('CPUUtilization', { ClusterName: 'temporal-dsql', ServiceName: 'temporal-history' }, [50, 60, 70, 75, 80, 78, 76, 74, 70, 60]),
  );
  await new CloudFormationClient({ region: 'eu-west-1', endpoint, credentials: CREDENTIALS }).send(
    new CreateStackCommand({
      StackName: 'TemporalDsql',
      TemplateBody: JSON.stringify({
        Resources: { Placeholder: { Type: 'AWS::SNS::Topic' } },
        Outputs: { DsqlClusterId: { Value: cluster.ClusterId } },
      }),
    }),
  );

  // A FOLIO phase whose Serverless cluster climbs to its 32 ACU ceiling.
  const folio = new CloudWatchClient({ region: 'us-east-1', endpoint, credentials: CREDENTIALS });
  await put(folio, 'AWS/RDS', [
    ...series('ServerlessDatabaseCapacity', { DBClusterIdentifier: 'folio-hybrid-serverless' }, [4, 12, 24, 32, 32, 32, 32, 32, 20, 8]),
    ...series('CPUUtilization', { DBClusterIdentifier: 'folio-hybrid-serverless', Role: 'WRITER' }, [30, 55, 70, 80, 82, 81, 80, 79, 50, 30]),
  ]);
}, MOTO_START_MS + 60_000);

afterAll(() => {
  moto?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** The report's flow, called as its entry point calls it, its clients pointed at moto. */
const report = (o: ReportOptions) => runReport({ endpointUrl: endpoint, ...o }, { io: recordingIO() });
const window = () => ({ start: START.toISOString(), end: END.toISOString() });

describe('report command against moto on loopback', () => {
  let temporal: CommandOutput;
  let folio: CommandOutput;
  beforeAll(async () => {
    [temporal, folio] = await Promise.all([
      report({ scenario: 'temporal-150wps', ...window(), workflows: '82000', out: join(work, 'temporal') }),
      report({ scenario: 'test10', ...window(), out: join(work, 'folio') }),
    ]);
  }, 60_000);

  test("Temporal: finds the DSQL cluster through the stack output, and computes the seed's table", () => {
    expect(temporal.failure).toBeUndefined();
    const r = JSON.parse(readFileSync(join(work, 'temporal', 'report.json'), 'utf8'));
    const t = r.metrics.transactions;
    expect(t.total).toBe(2_680_000);
    expect(t.totalPerMinute).toEqual({ peak: 272_000, average: 268_000 });
    expect(t.readOnly).toBe(1_902_700);
    expect(t.readOnlyShare).toBeCloseTo(0.71, 2);
    expect(t.perWorkflow).toBeCloseTo(2_680_000 / 82_000, 6);
    expect(r.metrics.services.history.cpu).toEqual({ peak: 80, average: 69.3 });
    expect(temporal.stdout).toContain('| TotalTx | 272,000/min | 268,000/min | 4,533 transactions/s at peak |');
    expect(temporal.stdout).toContain('| ReadOnlyTx | 193,100/min | 190,270/min | 71% of total |');
    expect(readdirSync(join(work, 'temporal', 'charts')).sort()).toEqual(['commitLatency.svg', 'dsqlConnections.svg', 'serviceCpu.svg', 'transactions.svg']);
  });

  test('--run alone: the record names the scenario and carries the count; --workflows beside it is refused', async () => {
    const run = join(work, 'run.json');
    writeFileSync(run, JSON.stringify({ scenario: 'temporal-150wps', start: START.toISOString(), end: END.toISOString(), workflowsCompleted: 82_000 }));
    const out = await report({ run, out: join(work, 'from-run') });
    expect(out.failure).toBeUndefined();
    expect(JSON.parse(readFileSync(join(work, 'from-run', 'report.json'), 'utf8')).metrics.transactions.perWorkflow).toBeCloseTo(2_680_000 / 82_000, 6);
    await expect(report({ run, workflows: '5' })).rejects.toThrow(/^--workflows 5 cannot replace the 82000 workflows --run .*run.json records/);
  }, 30_000);

  test("FOLIO: ACU against the phase's range, time at the ceiling, and the chart with the max line", () => {
    expect(folio.failure).toBeUndefined();
    const r = JSON.parse(readFileSync(join(work, 'folio', 'report.json'), 'utf8'));
    expect(r.configured).toMatchObject({ acu: { min: 0.5, max: 32 } });
    expect(r.metrics.acu).toMatchObject({ peak: 32, minutesAtCeiling: 5, peakShareOfMax: 1 });
    expect(r.metrics.cpu.offload).toEqual({ peak: 82, average: 63.7 });
    expect(folio.stdout).toContain('| Time at ceiling (>= 95% of 32 ACU) | 5 min (50% of the window) |');
    expect(readFileSync(join(work, 'folio', 'charts', 'acu.svg'), 'utf8')).toContain('max 32 ACU');
  });

  test('Temporal on Aurora: names its metrics by the configured cluster, so it needs no stack output (and refuses --dsql-cluster-id)', async () => {
    // No stack of that envName exists: a lookup of DsqlClusterId would fail; the Aurora report goes straight to CloudWatch.
    const out = await report({ scenario: 'temporal-aurora-150wps', envName: 'nostack', ...window(), out: join(work, 'aurora') });
    expect(out.failure?.exitCode).toBe(EXIT_NO_DATA);
    expect(readFileSync(join(work, 'aurora', 'report.md'), 'utf8')).toMatch(/^# Temporal on Aurora PostgreSQL report: temporal-aurora-150wps/);
    await expect(report({ scenario: 'temporal-aurora-150wps', ...window(), dsqlClusterId: 'abc' })).rejects.toThrow(
      '--dsql-cluster-id does not apply to temporal-aurora-150wps (its history is in aurora-postgresql; valid: a DSQL preset)',
    );
  }, 30_000);

  test('--compare prints the deltas between two report JSONs', async () => {
    const out = await runReport({ compare: [join(work, 'folio', 'report.json'), join(work, 'folio', 'report.json')] });
    expect(out.stdout).toContain('| acu.peak | 32 | 32 | 0 | 0% |');
  }, 30_000);

  // What only a process shows: the exit code and the error line after the report it wrote.
  test('a window with no datapoint at all exits 6 after writing a report that says so', async () => {
    // 200 days ago, two whole hours (CloudWatch keeps hourly points at that age): nothing was put there.
    const start = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 200 * 86_400_000);
    const end = new Date(start.getTime() + 2 * 3_600_000);
    const empty = ['--start', start.toISOString(), '--end', end.toISOString(), '--endpoint-url', endpoint];
    const out = await runCli('report.ts', ['--scenario', 'test10', ...empty, '--out', join(work, 'empty')]);
    expect(out.status).toBe(6);
    expect(out.stderr.trim().split('\n').at(-1)).toMatch(
      new RegExp(
        `^error: no datapoint at all in ${start.toISOString()} to ${end.toISOString()} for test10 in us-east-1: check the window, the region and --env-name`,
      ),
    );
    expect(readFileSync(join(work, 'empty', 'report.md'), 'utf8')).toContain('**No data at all** in this window');
  }, 30_000);

  test.each([
    [
      ['--scenario', 'temporal-150wps', '--env-name', 'perf9', '--last', '1h'],
      /^error: stack "perf9-TemporalDsql" is not deployed in eu-west-1; deploy it first/,
    ],
  ])('%j (a stack that is not there) exits 1 with one line; bad arguments are in test/bad-input.test.ts', async (args, message) => {
    const out = await runCli('report.ts', [...args, '--endpoint-url', endpoint]);
    expect(out.status).toBe(1);
    expect(out.stderr.trim()).toMatch(message);
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
  });
});
