import { AutoScalingClient, DescribeAutoScalingGroupsCommand, UpdateAutoScalingGroupCommand } from '@aws-sdk/client-auto-scaling';
import { CloudFormationClient, DescribeStacksCommand, type StackStatus, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { DescribeServicesCommand, DescribeTasksCommand, ECSClient, ListTasksCommand, StopTaskCommand, UpdateServiceCommand } from '@aws-sdk/client-ecs';
import { DescribeDBClustersCommand, RDSClient, StartDBClusterCommand, StopDBClusterCommand } from '@aws-sdk/client-rds';
import { mockClient } from 'aws-sdk-client-mock';
import { ConfigError } from '../../../../config';
import { runEnvironment } from '../../../../lib/commands/environment/run-environment';
import { CommandFailure, EXIT_FAILED, EXIT_TIMEOUT } from '../../../../lib/commands/shared/cli';
import { BENCHMARK_GENERATOR_FAMILY } from '../../../../lib/temporal/contract/temporal-names';
import { TEMPORAL_OUTPUTS as O } from '../../../../lib/temporal/contract/temporal-stack-outputs';
import { recordingIO } from '../../../support/command-io';
import { fakeTime } from '../../../support/fake-time';

/*
 * The environment command's flow on recorded answers: every refusal comes before the first
 * change, and each wait says what it waits for. The order of the calls and the end states
 * against moto: test/integration/bin/environment.test.ts.
 */

const cfn = mockClient(CloudFormationClient);
const ecs = mockClient(ECSClient);
const asg = mockClient(AutoScalingClient);
const rds = mockClient(RDSClient);

const stack = (o: { status?: string; hibernated?: string | null; scenario?: string } = {}) =>
  cfn.on(DescribeStacksCommand).resolves({
    Stacks: [
      {
        StackName: 'TemporalDsql',
        CreationTime: new Date(),
        StackStatus: (o.status ?? 'UPDATE_COMPLETE') as StackStatus,
        Outputs: [
          { OutputKey: O.clusterName, OutputValue: 'temporal-dsql' },
          { OutputKey: O.mainAsgName, OutputValue: 'main' },
          { OutputKey: O.benchmarkAsgName, OutputValue: 'bench' },
          { OutputKey: O.scenario, OutputValue: o.scenario ?? 'temporal-150wps' },
        ],
        Parameters: o.hibernated === null ? [] : [{ ParameterKey: 'Hibernated', ParameterValue: o.hibernated ?? 'false' }],
      },
    ],
  });
const options = (scenario: string, timeout = '5m') => ({ scenario, timeout, interval: '10s' });
const changes = () => [...ecs.commandCalls(UpdateServiceCommand), ...asg.commandCalls(UpdateAutoScalingGroupCommand), ...cfn.commandCalls(UpdateStackCommand)];

beforeEach(() => {
  for (const m of [cfn, ecs, asg, rds]) m.reset();
});

describe('hibernate refuses before any change', () => {
  test('while a load generator runs (without --force)', async () => {
    stack();
    ecs.on(ListTasksCommand).resolves({ taskArns: ['arn:aws:ecs:eu-west-1:1:task/temporal-dsql/abc'] });
    await expect(runEnvironment('hibernate', options('temporal-150wps'), { io: recordingIO(), ...fakeTime() })).rejects.toThrow(
      new CommandFailure(
        'a benchmark run is in progress (1 load generator task running in temporal-dsql); wait for it to end, or pass --force to stop it first (its run is lost)',
        EXIT_FAILED,
      ),
    );
    expect(changes()).toEqual([]);
  });

  test.each([
    [{ hibernated: null }, 'stack "TemporalDsql" has no Hibernated parameter (deployed with an older version): deploy it once with this version first'],
    [{ status: 'UPDATE_IN_PROGRESS' }, 'stack "TemporalDsql" is UPDATE_IN_PROGRESS: wait for that deploy to end, then run this again'],
  ])('a stack %j', async (state, message) => {
    stack(state);
    await expect(runEnvironment('hibernate', options('temporal-150wps'), { io: recordingIO(), ...fakeTime() })).rejects.toThrow(new ConfigError(message));
    expect(changes()).toEqual([]);
  });

  test('a FOLIO cluster in the middle of something else', async () => {
    rds.on(DescribeDBClustersCommand).resolves({ DBClusters: [{ Status: 'modifying' }] });
    await expect(runEnvironment('hibernate', options('test12'), { io: recordingIO(), ...fakeTime() })).rejects.toThrow(
      'cluster folio-hybrid-provisioned is modifying: wait until it is available, then run this again',
    );
    expect(rds.commandCalls(StopDBClusterCommand)).toEqual([]);
  });
});

describe('the waits can fail', () => {
  test('wake: a role whose tasks fail their health check is never taken as up, and the wait says why', async () => {
    stack({ hibernated: 'true' });
    asg.on(DescribeAutoScalingGroupsCommand).resolves({
      AutoScalingGroups: [
        { AutoScalingGroupName: 'main', Instances: Array.from({ length: 10 }, (_, i) => ({ InstanceId: `i-${i}`, LifecycleState: 'InService' })) } as any,
      ],
    });
    ecs.on(DescribeServicesCommand).resolves({ services: [{ serviceName: 'temporal-history', desiredCount: 8, runningCount: 8, pendingCount: 0 }] });
    ecs.on(ListTasksCommand).resolves({ taskArns: ['t1', 't2'] });
    ecs.on(DescribeTasksCommand).resolves({ tasks: [{ healthStatus: 'HEALTHY' }, { healthStatus: 'UNHEALTHY' }] });
    const io = recordingIO();
    const woke = runEnvironment('wake', options('temporal-150wps', '1m'), { io, ...fakeTime() });
    await expect(woke).rejects.toThrow(
      new CommandFailure(
        "timed out after 60 s waiting for temporal-history to run 8 healthy tasks; last seen: 8 running, 0 pending, 8 desired; 1 task failed its health check (ECS replaces them; see the service's events)",
        EXIT_TIMEOUT,
      ),
    );
    // Nothing after history was started, and the stack still says hibernated.
    expect(ecs.commandCalls(UpdateServiceCommand).map((c) => c.args[0].input.service)).toEqual(['temporal-history']);
    expect(cfn.commandCalls(UpdateStackCommand)).toEqual([]);
  });

  test('a stack update that rolls back is a failure, not a recorded state', async () => {
    let described = 0;
    cfn.on(DescribeStacksCommand).callsFake(() => ({
      Stacks: [
        {
          StackName: 'TemporalDsql',
          CreationTime: new Date(),
          StackStatus: (described++ < 2 ? 'UPDATE_COMPLETE' : 'UPDATE_ROLLBACK_COMPLETE') as StackStatus,
          Outputs: [
            { OutputKey: O.clusterName, OutputValue: 'temporal-dsql' },
            { OutputKey: O.mainAsgName, OutputValue: 'main' },
            { OutputKey: O.benchmarkAsgName, OutputValue: 'bench' },
            { OutputKey: O.scenario, OutputValue: 'temporal-150wps' },
          ],
          Parameters: [{ ParameterKey: 'Hibernated', ParameterValue: 'false' }],
        },
      ],
    }));
    ecs.on(ListTasksCommand).resolves({ taskArns: [] });
    ecs.on(DescribeServicesCommand).resolves({ services: [{ desiredCount: 0, runningCount: 0, pendingCount: 0 }] });
    asg.on(DescribeAutoScalingGroupsCommand).resolves({ AutoScalingGroups: [{ Instances: [] } as any] });
    await expect(runEnvironment('hibernate', options('temporal-150wps'), { io: recordingIO(), ...fakeTime() })).rejects.toThrow(
      /^stack TemporalDsql went to UPDATE_ROLLBACK_COMPLETE while recording Hibernated=true: see its events, then run this again$/,
    );
    expect(cfn.commandCalls(UpdateStackCommand)[0].args[0].input).toEqual({
      StackName: 'TemporalDsql',
      UsePreviousTemplate: true,
      Parameters: [{ ParameterKey: 'Hibernated', ParameterValue: 'true' }],
      Capabilities: ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'],
    });
  });
});

describe('an Aurora store: stopped last on hibernate, started first on wake', () => {
  /** Every change, in the order the command made it, across the four clients. */
  const log: string[] = [];
  let store = 'available';
  beforeEach(() => {
    log.length = 0;
    stack({ scenario: 'temporal-aurora-150wps' });
    ecs.on(ListTasksCommand).resolves({ taskArns: [] });
    ecs.on(DescribeServicesCommand).resolves({ services: [{ desiredCount: 0, runningCount: 0, pendingCount: 0 }] });
    ecs.on(UpdateServiceCommand).callsFake((i) => void log.push(`${i.service} -> ${i.desiredCount}`));
    asg.on(DescribeAutoScalingGroupsCommand).resolves({ AutoScalingGroups: [{ Instances: [] } as any] });
    asg.on(UpdateAutoScalingGroupCommand).callsFake((i) => void log.push(`${i.AutoScalingGroupName} -> ${i.DesiredCapacity}`));
    rds.on(DescribeDBClustersCommand).callsFake(() => ({ DBClusters: [{ Status: store }] }));
    rds.on(StopDBClusterCommand).callsFake((i) => void (log.push(`${i.DBClusterIdentifier} stop`), (store = 'stopped')));
    rds.on(StartDBClusterCommand).callsFake((i) => void (log.push(`${i.DBClusterIdentifier} start`), (store = 'available')));
    cfn.on(UpdateStackCommand).callsFake((i) => void log.push(`Hibernated=${i.Parameters[0].ParameterValue}`));
  });

  test('hibernate', async () => {
    store = 'available';
    const out = await runEnvironment('hibernate', options('temporal-aurora-150wps'), { io: recordingIO(), ...fakeTime() });
    expect(log).toEqual([
      'temporal-ui -> 0',
      'temporal-grafana -> 0',
      'benchmark-worker -> 0',
      'temporal-worker -> 0',
      'temporal-frontend -> 0',
      'temporal-matching -> 0',
      'temporal-history -> 0',
      'bench -> 0',
      'main -> 0',
      'temporal-history stop',
      'Hibernated=true',
    ]);
    expect(out.stdout).toMatch(
      /Aurora starts a stopped cluster after 7 days; this environment's idle rule stops the store again after 60 minutes without a connection\.\n$/,
    );
  });

  test('hibernate --force stops a running load generator before the workers it loads', async () => {
    ecs.on(ListTasksCommand, { family: BENCHMARK_GENERATOR_FAMILY }).resolves({ taskArns: ['arn:aws:ecs:eu-west-1:1:task/temporal-dsql/gen1'] });
    ecs.on(StopTaskCommand).callsFake((i) => void log.push(`stop ${i.task.split('/').pop()}`));
    await runEnvironment('hibernate', { ...options('temporal-aurora-150wps'), force: true }, { io: recordingIO(), ...fakeTime() });
    expect(log.slice(0, 2)).toEqual(['stop gen1', 'temporal-ui -> 0']);
  });

  test('wake', async () => {
    store = 'stopped';
    stack({ scenario: 'temporal-aurora-150wps', hibernated: 'true' });
    asg.on(DescribeAutoScalingGroupsCommand).resolves({
      AutoScalingGroups: [{ Instances: Array.from({ length: 10 }, (_, i) => ({ InstanceId: `i-${i}`, LifecycleState: 'InService' })) } as any],
    });
    let desired = 0;
    ecs.on(UpdateServiceCommand).callsFake((i) => void (log.push(`${i.service} -> ${i.desiredCount}`), (desired = i.desiredCount)));
    ecs.on(DescribeServicesCommand).callsFake(() => ({ services: [{ desiredCount: desired, runningCount: desired, pendingCount: 0 }] }));
    await runEnvironment('wake', options('temporal-aurora-150wps'), { io: recordingIO(), ...fakeTime() });
    expect(log).toEqual([
      'temporal-history start',
      'main -> 10',
      'temporal-history -> 8',
      'temporal-matching -> 6',
      'temporal-frontend -> 4',
      'temporal-worker -> 2',
      'temporal-ui -> 1',
      'temporal-grafana -> 1',
      'Hibernated=false',
    ]);
  });
});

describe('status --json: what the table says, as data', () => {
  test('Temporal: each service and pool, and whether it is hibernated', async () => {
    stack({ hibernated: 'true' });
    ecs.on(DescribeServicesCommand).resolves({ services: [{ serviceName: 'temporal-history', runningCount: 0, desiredCount: 0 }] });
    asg
      .on(DescribeAutoScalingGroupsCommand)
      .resolves({ AutoScalingGroups: [{ AutoScalingGroupName: 'main', DesiredCapacity: 0, MinSize: 0, Instances: [] } as never] });
    const out = JSON.parse((await runEnvironment('status', { ...options('temporal-150wps'), json: true }, { io: recordingIO(), ...fakeTime() })).stdout);
    expect(out).toMatchObject({ stackName: 'TemporalDsql', deployedScenario: 'temporal-150wps', hibernated: true });
    expect(out.services).toContainEqual({ name: 'temporal-history', found: true, running: 0, desired: 0 });
    expect(out.services).toContainEqual(expect.objectContaining({ name: 'temporal-frontend', found: false }));
    expect(out.groups).toEqual([
      { name: 'main', found: true, instances: 0, desired: 0, min: 0 },
      { name: 'bench', found: false, instances: 0, desired: 0, min: 0 },
    ]);
  });

  test("FOLIO: both clusters' states", async () => {
    rds.on(DescribeDBClustersCommand).resolves({ DBClusters: [{ Status: 'stopped' }] });
    const out = JSON.parse((await runEnvironment('status', { ...options('test12'), json: true }, { io: recordingIO(), ...fakeTime() })).stdout);
    expect(out).toEqual({
      stackName: 'FolioHybridAurora',
      state: 'hibernated (clusters stopped)',
      clusters: { primary: { name: 'folio-hybrid-provisioned', status: 'stopped' }, offload: { name: 'folio-hybrid-serverless', status: 'stopped' } },
    });
  });
});
