/*
 * Try `report` and `bench` with no AWS account: moto's server on loopback (installed by
 * `npm run setup`) stands in for AWS, seeded with what a deployed temporal-150wps environment
 * and a FOLIO test10 phase would show (stack outputs, an ECS service, the benchmark ASG, an
 * Aurora DSQL cluster, half an hour of metrics). Each command runs as a user would run it, with
 * --endpoint-url pointing at moto; moto stops at the end.
 *
 *   npm run try:offline
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AutoScalingClient, CreateAutoScalingGroupCommand, CreateLaunchConfigurationCommand } from '@aws-sdk/client-auto-scaling';
import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { CreateClusterCommand as CreateDsqlCluster, DSQLClient } from '@aws-sdk/client-dsql';
import { CreateClusterCommand, CreateServiceCommand, ECSClient, RegisterTaskDefinitionCommand } from '@aws-sdk/client-ecs';
import { minuteSeries, putMetrics } from '../test/support/cloudwatch-seed';
import { CREDENTIALS, startMoto } from '../test/support/moto';

const MINUTES = 30;
const wave = (base: number, swing: number) => Array.from({ length: MINUTES }, (_, i) => Math.round(base + swing * Math.sin(i / 4)));

async function stack(cfn: CloudFormationClient, name: string, outputs: Record<string, string>) {
  await cfn.send(
    new CreateStackCommand({
      StackName: name,
      TemplateBody: JSON.stringify({ Resources: { Placeholder: { Type: 'AWS::SNS::Topic' } }, Outputs: Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, { Value: v }])) }),
    }),
  );
}

async function main() {
  const moto = await startMoto();
  const { endpoint } = moto;
  const out = mkdtempSync(join(tmpdir(), 'try-offline-'));
  try {
    const start = new Date(Math.floor(Date.now() / 60_000) * 60_000 - (MINUTES + 1) * 60_000);
    // Temporal: the benchmark fleet's AWS side and the DSQL metrics of a run.
    const eu = { region: 'eu-west-1', endpoint, credentials: CREDENTIALS };
    const ecs = new ECSClient(eu);
    await ecs.send(new CreateClusterCommand({ clusterName: 'temporal-dsql' }));
    const { taskDefinition } = await ecs.send(new RegisterTaskDefinitionCommand({ family: 'benchmark-worker', containerDefinitions: [{ name: 'Worker', image: 'bench:1', memory: 4096, cpu: 2048 }] }));
    await ecs.send(new CreateServiceCommand({ cluster: 'temporal-dsql', serviceName: 'benchmark-worker', taskDefinition: taskDefinition!.taskDefinitionArn, desiredCount: 0 }));
    const asg = new AutoScalingClient(eu);
    await asg.send(new CreateLaunchConfigurationCommand({ LaunchConfigurationName: 'bench', ImageId: 'ami-12c6146b', InstanceType: 'm7g.2xlarge' }));
    await asg.send(new CreateAutoScalingGroupCommand({ AutoScalingGroupName: 'bench-asg', LaunchConfigurationName: 'bench', MinSize: 0, MaxSize: 4, DesiredCapacity: 0, AvailabilityZones: ['eu-west-1a'] }));
    const { identifier } = await new DSQLClient(eu).send(new CreateDsqlCluster({ deletionProtectionEnabled: true }));
    await stack(new CloudFormationClient(eu), 'TemporalDsql', {
      Scenario: 'temporal-150wps',
      ClusterName: 'temporal-dsql',
      BenchmarkWorkerService: 'benchmark-worker',
      BenchmarkAsgName: 'bench-asg',
      BenchmarkCapacityProvider: 'bench-cp',
      GeneratorTaskDefinition: 'benchmark-generator:1',
      BenchmarkSecurityGroupId: 'sg-0123456789abcdef0',
      PrivateSubnets: 'subnet-0a,subnet-0b,subnet-0c',
      DsqlClusterId: identifier!,
    });
    const cw = new CloudWatchClient(eu);
    const cluster = { ClusterId: identifier! };
    await putMetrics(cw, 'AWS/AuroraDSQL', [
      ...minuteSeries(start, 'TotalTransactions', cluster, wave(268_000, 4_000)),
      ...minuteSeries(start, 'ReadOnlyTransactions', cluster, wave(190_000, 3_000)),
      ...minuteSeries(start, 'CommitLatency', cluster, wave(4, 1)),
    ]);
    await putMetrics(cw, 'AWS/ECS', minuteSeries(start, 'CPUUtilization', { ClusterName: 'temporal-dsql', ServiceName: 'temporal-history' }, wave(70, 10)));
    // FOLIO: a Serverless cluster working near its ceiling.
    const us = new CloudWatchClient({ region: 'us-east-1', endpoint, credentials: CREDENTIALS });
    await putMetrics(us, 'AWS/RDS', [
      ...minuteSeries(start, 'ServerlessDatabaseCapacity', { DBClusterIdentifier: 'folio-hybrid-serverless' }, wave(26, 6)),
      ...minuteSeries(start, 'CPUUtilization', { DBClusterIdentifier: 'folio-hybrid-serverless', Role: 'WRITER' }, wave(70, 12)),
    ]);

    const commands: [string, string[]][] = [
      ['bench.ts', ['status', '--scenario', 'temporal-150wps']],
      ['report.ts', ['--scenario', 'temporal-150wps', '--last', '35m', '--workflows', '41052', '--out', join(out, 'temporal')]],
      ['report.ts', ['--scenario', 'test10', '--last', '35m', '--out', join(out, 'test10')]],
    ];
    for (const [script, args] of commands) {
      const argv = [...args, '--endpoint-url', endpoint];
      process.stdout.write(`\n$ npm run ${script.replace('.ts', '')} -- ${argv.join(' ')}\n\n`);
      const r = spawnSync(process.execPath, [require.resolve('tsx/cli'), join(__dirname, '../bin', script), ...argv], {
        stdio: 'inherit',
        env: { ...process.env, AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      });
      if (r.status !== 0) throw new Error(`${script} exited ${r.status}`);
    }
    process.stdout.write(`\nReports, with their charts, are in ${out}\n`);
  } finally {
    moto.stop();
  }
}

main().catch((e) => {
  process.stderr.write(`error: ${(e as Error).message}\n`);
  process.exit(1);
});
