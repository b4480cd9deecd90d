/*
 * Try `report` and `bench` with no AWS account: moto's server on loopback (installed by
 * `npm run setup`) stands in for AWS, seeded with what a deployed temporal-150wps environment
 * and a FOLIO test10 phase would show (stack outputs, an ECS service, the benchmark ASG, an
 * Aurora DSQL cluster, half an hour of metrics). Each command runs as a user would run it, with
 * --endpoint-url pointing at moto; moto stops at the end.
 *
 *   npm run try:offline
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { minuteSeries, putMetrics } from '../harness/cloudwatch-seed';
import { CREDENTIALS, startMoto } from '../harness/moto';
import { seedTemporalFleet } from '../harness/offline-fleet';
import { serveRecordedPrometheus } from '../harness/query-range-fixture';
import { type TemporalScenario, resolveScenario } from '../config';

const MINUTES = 30;
const wave = (base: number, swing: number) => Array.from({ length: MINUTES }, (_, i) => Math.round(base + swing * Math.sin(i / 4)));

async function main() {
  const moto = await startMoto();
  const { endpoint } = moto;
  const out = mkdtempSync(join(tmpdir(), 'try-offline-'));
  // The servers' own metrics: a real local run's recorded query_range answers, served as a Prometheus would.
  const prometheus = await serveRecordedPrometheus(resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario);
  try {
    const start = new Date(Math.floor(Date.now() / 60_000) * 60_000 - (MINUTES + 1) * 60_000);
    // Temporal: the benchmark fleet's AWS side and the DSQL metrics of a run.
    const eu = { region: 'eu-west-1', endpoint, credentials: CREDENTIALS };
    const { dsqlClusterId: identifier } = await seedTemporalFleet(eu, { instances: 0 });
    const cw = new CloudWatchClient(eu);
    const cluster = { ClusterId: identifier! };
    await putMetrics(cw, 'AWS/AuroraDSQL', [
      ...minuteSeries(start, 'TotalTransactions', cluster, wave(268_000, 4_000)),
      ...minuteSeries(start, 'ReadOnlyTransactions', cluster, wave(190_000, 3_000)),
      ...minuteSeries(start, 'CommitLatency', cluster, wave(4, 1)),
    ]);
    await putMetrics(cw, 'AWS/ECS', minuteSeries(start, 'CPUUtilization', { ClusterName: 'temporal-dsql', ServiceName: 'temporal-history' }, wave(70, 10)));
    // FOLIO: a Serverless v2 offload cluster working near its ceiling.
    const us = new CloudWatchClient({ region: 'us-east-1', endpoint, credentials: CREDENTIALS });
    await putMetrics(us, 'AWS/RDS', [
      ...minuteSeries(start, 'ServerlessDatabaseCapacity', { DBClusterIdentifier: 'folio-hybrid-serverless' }, wave(26, 6)),
      ...minuteSeries(start, 'CPUUtilization', { DBClusterIdentifier: 'folio-hybrid-serverless', Role: 'WRITER' }, wave(70, 12)),
    ]);

    const commands: [string, string[]][] = [
      ['bench.ts', ['status', '--scenario', 'temporal-150wps']],
      [
        'report.ts',
        ['--scenario', 'temporal-150wps', '--last', '35m', '--workflows', '41052', '--prometheus-url', prometheus.url, '--out', join(out, 'temporal')],
      ],
      ['report.ts', ['--scenario', 'test10', '--last', '35m', '--out', join(out, 'test10')]],
    ];
    for (const [script, args] of commands) {
      const argv = [...args, '--endpoint-url', endpoint];
      process.stdout.write(`\n$ npm run ${script.replace('.ts', '')} -- ${argv.join(' ')}\n\n`);
      // Not spawnSync: the recorded Prometheus answers from this process while the command runs.
      const child = spawn(process.execPath, [require.resolve('tsx/cli'), join(__dirname, '../bin', script), ...argv], {
        stdio: 'inherit',
        env: {
          ...process.env,
          AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
          AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        },
      });
      const status = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      if (status !== 0) throw new Error(`${script} exited ${status}`);
    }
    process.stdout.write(`\nReports, with their charts, are in ${out}\n`);
  } finally {
    prometheus.server.close();
    moto.stop();
  }
}

main().catch((e) => {
  process.stderr.write(`error: ${(e as Error).message}\n`);
  process.exit(1);
});
