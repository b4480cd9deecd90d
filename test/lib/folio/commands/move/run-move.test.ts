import { DescribeDBClustersCommand, RDSClient } from '@aws-sdk/client-rds';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, GetLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { DescribeTasksCommand, ECSClient, ListTasksCommand, RunTaskCommand } from '@aws-sdk/client-ecs';
import { mockClient } from 'aws-sdk-client-mock';
import { MOVE_OUTPUTS } from '../../../../../lib/folio/commands/move/mover-task';
import { runMove } from '../../../../../lib/folio/commands/move/run-move';
import { moverLine } from '../../../../../lib/folio/contract/mover';
import { recordingIO } from '../../../../support/command-io';
import { fakeTime } from '../../../../support/fake-time';

/*
 * The move command's flow, called as its entry point calls it: the plan printed before the
 * mover runs (a move can take hours), the results and the next step returned; --dry-run reads
 * no stack. The mover task itself: mover-task.test.ts.
 */

const cfn = mockClient(CloudFormationClient);
const rds = mockClient(RDSClient);
const ecs = mockClient(ECSClient);
const logs = mockClient(CloudWatchLogsClient);
const taskArn = 'arn:aws:ecs:us-east-1:111122223333:task/FolioHybridAurora-SchemaMoverCluster/0a1b2c3d';

beforeEach(() => {
  for (const m of [cfn, ecs, logs, rds]) m.reset();
  rds.on(DescribeDBClustersCommand).resolves({ DBClusters: [{ Status: 'available' }] });
  ecs.on(ListTasksCommand).resolves({ taskArns: [] });
});

const deployed = (phase: string) => {
  const values: Record<string, string> = {
    cluster: 'mover-cluster',
    taskDefinition: 'mover-task:1',
    securityGroup: 'sg-0mover',
    subnets: 'subnet-a',
    logGroup: 'mover-logs',
    deployedPhase: phase,
  };
  const Outputs = Object.entries(MOVE_OUTPUTS).map(([field, OutputKey]) => ({ OutputKey, OutputValue: values[field] }));
  cfn.on(DescribeStacksCommand).resolves({ Stacks: [{ StackName: 'FolioHybridAurora', CreationTime: new Date(), StackStatus: 'UPDATE_COMPLETE', Outputs }] });
};

test('--dry-run returns the plan and reads no stack', async () => {
  const r = await runMove({ from: 'test4', to: 'test5', dryRun: true, timeout: '2h' });
  expect(r.stdout).toContain('mod-inventory-storage');
  expect(cfn.calls()).toHaveLength(0);
});

test('a switch: the plan printed first, each wave run, the results and the next step returned', async () => {
  deployed('test4');
  ecs.on(DescribeTasksCommand).resolves({ tasks: [{ taskArn, lastStatus: 'STOPPED', containers: [{ name: 'Mover', exitCode: 0 }] }] });
  // Every wave's task logs each of its schemas as copied, then stops.
  ecs.on(RunTaskCommand).callsFake((input) => {
    const schemas = input.overrides.containerOverrides[0].environment.find((e: { name: string }) => e.name === 'MOVE_SCHEMAS').value.split(' ');
    logs
      .on(GetLogEventsCommand)
      .resolvesOnce({ events: schemas.map((schema: string) => ({ message: moverLine('copied', { schema, tables: 2, rows: 10 }) })), nextForwardToken: 'f/1' })
      .resolves({ events: [], nextForwardToken: 'f/1' });
    return { tasks: [{ taskArn }], failures: [] };
  });
  const io = recordingIO();
  const r = await runMove({ from: 'test4', to: 'test5', timeout: '2h' }, { io, ...fakeTime() });
  expect(io.printedEarly).toHaveLength(1);
  expect(io.printedEarly[0]).toContain('mod-inventory-storage');
  expect(io.notes[0]).toMatch(/^mod-inventory-storage: mover task arn:aws:ecs:/);
  expect(r.stdout).toMatch(/\nNext: deploy the phase, then restart .*mod-inventory-storage/);
  expect(r.stdout).toContain('| mod-inventory-storage |');
  expect(io.interrupted()).toMatch(/^mover task .* still runs in cluster mover-cluster/);
});

test('refusals come before any call: --replace with --drop-source, a module to a phase, --dry-run of a module without the deployed phase', async () => {
  await expect(runMove({ from: 'test4', to: 'test5', replace: true, dropSource: true, timeout: '2h' })).rejects.toThrow(
    /^--replace and --drop-source cannot be combined/,
  );
  await expect(runMove({ module: 'mod-inventory-storage', to: 'test5', timeout: '2h' })).rejects.toThrow(/^--to "test5" is not a cluster/);
  await expect(runMove({ module: 'mod-inventory-storage', to: 'offload', dryRun: true, timeout: '2h' })).rejects.toThrow(
    /^--dry-run with --module needs --scenario/,
  );
  expect(cfn.calls()).toHaveLength(0);
});
