import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AutoScalingGroup, AutoScalingClient, DescribeAutoScalingGroupsCommand, type Instance } from '@aws-sdk/client-auto-scaling';
import { CloudWatchLogsClient, GetLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { DSQLClient, GetClusterCommand } from '@aws-sdk/client-dsql';
import {
  DescribeServicesCommand,
  DescribeTaskDefinitionCommand,
  DescribeTasksCommand,
  ECSClient,
  ListTasksCommand,
  RunTaskCommand,
  StopTaskCommand,
  UpdateServiceCommand,
} from '@aws-sdk/client-ecs';
import { mockClient } from 'aws-sdk-client-mock';
import { benchDown, benchUp } from '../../../../../lib/temporal/commands/bench/fleet';
import { benchRun } from '../../../../../lib/temporal/commands/bench/generator-task';
import { findResult } from '../../../../../lib/commands/shared/run-record';
import type { BenchClients, BenchTargets } from '../../../../../lib/temporal/commands/bench/targets';
import { CommandFailure, EXIT_FAILED, EXIT_TIMEOUT } from '../../../../../lib/commands/shared/cli';
import { fakeTime } from '../../../../support/fake-time';

/*
 * The bench logic against recorded-shape SDK responses: every wait loop runs on a fake clock,
 * so timeouts are tested without time passing.
 */

const ecs = mockClient(ECSClient);
const asg = mockClient(AutoScalingClient);
const dsql = mockClient(DSQLClient);
const logs = mockClient(CloudWatchLogsClient);
const clients: BenchClients = { ecs: new ECSClient({}), autoScaling: new AutoScalingClient({}), dsql: new DSQLClient({}), logs: new CloudWatchLogsClient({}) };

const targets: BenchTargets = {
  cluster: 'temporal-dsql',
  workerService: 'benchmark-worker',
  asgName: 'TemporalDsql-CapacityBenchmarkAsgASG-1',
  capacityProvider: 'TemporalDsql-CapacityBenchmarkCapacityProvider-1',
  generatorTaskDefinition: 'arn:aws:ecs:eu-west-1:111122223333:task-definition/benchmark-generator:7',
  securityGroup: 'sg-0bench',
  subnets: ['subnet-a', 'subnet-b', 'subnet-c'],
  dsqlClusterId: 'kqabc123dsqlcluster',
  deployedScenario: 'temporal-150wps',
};

const service = (desired: number, running: number, pending = 0, event?: string) => ({
  services: [
    {
      serviceName: 'benchmark-worker',
      status: 'ACTIVE',
      desiredCount: desired,
      runningCount: running,
      pendingCount: pending,
      events: event ? [{ message: event }] : [],
    },
  ],
  failures: [],
});
const group = (...states: string[]) => ({
  AutoScalingGroups: [
    {
      AutoScalingGroupName: targets.asgName,
      DesiredCapacity: states.length,
      MaxSize: 4,
      MinSize: 0,
      Instances: states.map((s, i) => ({ InstanceId: `i-${i}`, LifecycleState: s }) as Instance),
    } as AutoScalingGroup,
  ],
});

beforeEach(() => {
  for (const m of [ecs, asg, dsql, logs]) m.reset();
  // No generator running before a run: the usual case (the tests of one left running set their own).
  ecs.on(ListTasksCommand).resolves({ taskArns: [] });
});

describe('bench down', () => {
  test('sets the workers to 0, waits for the tasks, then for the ASG to drain', async () => {
    ecs.on(DescribeServicesCommand).resolvesOnce(service(0, 6)).resolvesOnce(service(0, 2)).resolves(service(0, 0));
    asg
      .on(DescribeAutoScalingGroupsCommand)
      .resolvesOnce(group('InService', 'InService'))
      .resolvesOnce(group('InService', 'InService'))
      .resolvesOnce(group('InService', 'InService'))
      .resolvesOnce(group('Terminating', 'InService'))
      .resolves(group());
    const time = fakeTime();
    const progress: string[] = [];
    const status = await benchDown(clients, targets, { timeoutSeconds: 1800, intervalSeconds: 15, ...time, onProgress: (p) => progress.push(p) });
    expect(ecs.commandCalls(UpdateServiceCommand).map((c) => c.args[0].input)).toEqual([
      { cluster: 'temporal-dsql', service: 'benchmark-worker', desiredCount: 0 },
    ]);
    expect(status.instances).toEqual({ inService: 0, starting: 0, stopping: 0, desired: 0, max: 4 });
    expect(progress[0]).toBe('workers to stop: tasks 6 running, 0 pending, 0 desired; instances 2 in service, 0 starting, 0 stopping (ASG desired 2, max 4)');
    expect(progress.at(-1)).toMatch(/^the benchmark ASG to drain: .*instances 0 in service/);
    // Two polls while tasks stop, one while the last instance terminates.
    expect(time.sleeps).toEqual([15_000, 15_000, 15_000]);
  });

  test('fails with exit 4 when the ASG does not drain in time, saying where things stand', async () => {
    ecs.on(DescribeServicesCommand).resolves(service(0, 0));
    asg.on(DescribeAutoScalingGroupsCommand).resolves(group('InService'));
    const run = benchDown(clients, targets, { timeoutSeconds: 60, intervalSeconds: 10, ...fakeTime() });
    await expect(run).rejects.toThrow(
      new CommandFailure(
        'timed out after 60 s waiting for the benchmark ASG to drain; last seen: tasks 0 running, 0 pending, 0 desired; instances 1 in service, 0 starting, 0 stopping (ASG desired 1, max 4)',
        EXIT_TIMEOUT,
      ),
    );
    await expect(run).rejects.toMatchObject({ exitCode: EXIT_TIMEOUT });
  });

  test('--no-wait returns after the update', async () => {
    ecs.on(DescribeServicesCommand).resolves(service(0, 6));
    asg.on(DescribeAutoScalingGroupsCommand).resolves(group('InService', 'InService'));
    const time = fakeTime();
    const status = await benchDown(clients, targets, { timeoutSeconds: 60, wait: false, ...time });
    expect(status.tasks.running).toBe(6);
    expect(time.sleeps).toEqual([]);
  });
});

describe('bench up', () => {
  test('sets the count and waits until that many run; a placement problem shows in the timeout', async () => {
    ecs
      .on(DescribeServicesCommand)
      .resolves(service(6, 3, 3, '(service benchmark-worker) was unable to place a task because no container instance met all of its requirements.'));
    asg.on(DescribeAutoScalingGroupsCommand).resolves(group('InService', 'Pending'));
    const up = benchUp(clients, targets, 6, { timeoutSeconds: 30, intervalSeconds: 10, ...fakeTime() });
    await expect(up).rejects.toThrow(
      /^timed out after 30 s waiting for 6 workers to run; last seen: tasks 3 running, 3 pending, 6 desired; .*latest service event: \(service benchmark-worker\) was unable to place a task/,
    );
    expect(ecs.commandCalls(UpdateServiceCommand)[0].args[0].input.desiredCount).toBe(6);
  });

  test('returns once every worker runs', async () => {
    ecs
      .on(DescribeServicesCommand)
      .resolvesOnce(service(6, 0, 6))
      .resolves(service(6, 6));
    asg.on(DescribeAutoScalingGroupsCommand).resolves(group('InService', 'InService'));
    const status = await benchUp(clients, targets, 6, { timeoutSeconds: 600, ...fakeTime() });
    expect(status.tasks).toEqual({ desired: 6, running: 6, pending: 0 });
  });

  test('a missing service is a failure (exit 5), not a stack trace', async () => {
    ecs.on(DescribeServicesCommand).resolves({ services: [], failures: [{ arn: 'arn:...:service/benchmark-worker', reason: 'MISSING' }] });
    asg.on(DescribeAutoScalingGroupsCommand).resolves(group());
    await expect(benchUp(clients, targets, 6, { timeoutSeconds: 60, ...fakeTime() })).rejects.toMatchObject({
      message: 'service benchmark-worker not found in cluster temporal-dsql: MISSING',
      exitCode: EXIT_FAILED,
    });
  });
});

describe('bench run', () => {
  const logPages = JSON.parse(readFileSync(join(__dirname, '../../../../fixtures/bench/generator-log.json'), 'utf8')).pages;
  const taskArn = 'arn:aws:ecs:eu-west-1:111122223333:task/temporal-dsql/0f1e2d3c4b5a69788796a5b4c3d2e1f0';
  const task = (lastStatus: string, extra: object = {}) => ({ tasks: [{ taskArn, lastStatus, containers: [{ name: 'Generator', ...extra }] }] });
  const settings = { scenario: 'temporal-150wps', rate: 150, duration: '5m', rampUp: '30s' };

  function happyPath() {
    dsql.on(GetClusterCommand).resolves({ identifier: targets.dsqlClusterId, status: 'ACTIVE' });
    ecs.on(DescribeServicesCommand).resolves(service(6, 6));
    asg.on(DescribeAutoScalingGroupsCommand).resolves(group('InService', 'InService'));
    ecs.on(RunTaskCommand).resolves({ tasks: [{ taskArn }], failures: [] });
    ecs
      .on(DescribeTasksCommand)
      .resolvesOnce(task('PROVISIONING'))
      .resolvesOnce(task('RUNNING'))
      .resolves({
        tasks: [
          {
            taskArn,
            lastStatus: 'STOPPED',
            startedAt: new Date('2026-01-21T10:00:03Z'),
            executionStoppedAt: new Date('2026-01-21T10:05:11Z'),
            stoppedAt: new Date('2026-01-21T10:05:40Z'),
            stoppedReason: 'Essential container in task exited',
            containers: [{ name: 'Generator', exitCode: 0 }],
          },
        ],
      });
    ecs.on(DescribeTaskDefinitionCommand).resolves({
      taskDefinition: {
        containerDefinitions: [
          {
            name: 'Generator',
            logConfiguration: { logDriver: 'awslogs', options: { 'awslogs-group': 'TemporalDsql-GeneratorLogs-1', 'awslogs-stream-prefix': 'generator' } },
          },
        ],
      },
    });
    let page = 0;
    logs.on(GetLogEventsCommand).callsFake(() => logPages[Math.min(page++, logPages.length - 1)]);
  }

  describe('a generator left running by an interrupted run (a killed terminal, a campaign resumed)', () => {
    const left = 'arn:aws:ecs:eu-west-1:111122223333:task/temporal-dsql/aaaabbbbccccddddeeeeffff00001111';
    beforeEach(() => {
      happyPath();
      ecs.on(ListTasksCommand).resolves({ taskArns: [left] });
    });

    test('is refused, naming it and how to stop it, before the probe or a generator starts', async () => {
      const run = benchRun(clients, targets, settings, { timeoutSeconds: 1500, ...fakeTime() });
      await expect(run).rejects.toThrow(
        new CommandFailure(
          "a load generator is running already in cluster temporal-dsql (task aaaabbbbccccddddeeeeffff00001111): two at once would each measure the other's load; " +
            'wait for it to end, or stop it: aws ecs stop-task --cluster temporal-dsql --task aaaabbbbccccddddeeeeffff00001111',
          EXIT_FAILED,
        ),
      );
      expect(ecs.commandCalls(ListTasksCommand)[0].args[0].input).toEqual({
        cluster: 'temporal-dsql',
        family: 'benchmark-generator',
        desiredStatus: 'RUNNING',
      });
      expect(ecs.commandCalls(RunTaskCommand)).toHaveLength(0);
      expect(ecs.commandCalls(StopTaskCommand)).toHaveLength(0);
    });

    test('with stopRunning, is stopped and waited for before the new generator starts', async () => {
      ecs
        .on(DescribeTasksCommand, { tasks: [left] })
        .resolvesOnce({ tasks: [{ taskArn: left, lastStatus: 'DEACTIVATING' }] })
        .resolves({ tasks: [{ taskArn: left, lastStatus: 'STOPPED' }] });
      const stopped: string[] = [];
      const record = await benchRun(
        clients,
        targets,
        { ...settings, stopRunning: true },
        { timeoutSeconds: 1500, ...fakeTime(), onStoppedRunning: (a) => stopped.push(a) },
      );
      expect(stopped).toEqual([left]);
      expect(ecs.commandCalls(StopTaskCommand)[0].args[0].input).toMatchObject({ cluster: 'temporal-dsql', task: left });
      expect(ecs.commandCalls(DescribeTasksCommand, { tasks: [left] })).toHaveLength(2);
      // Stopped (both polls) before the new one was started.
      const order = ecs.calls().map((c) => (c.args[0] as any).constructor.name);
      expect(order.lastIndexOf('DescribeTasksCommand', order.indexOf('RunTaskCommand'))).toBeGreaterThan(order.indexOf('StopTaskCommand'));
      expect(record.exitCode).toBe(0);
    });
  });

  test('starts the generator with the run settings, waits, and reads the result from its log', async () => {
    happyPath();
    const started: string[] = [];
    const record = await benchRun(clients, targets, settings, { timeoutSeconds: 1500, ...fakeTime(), onStarted: (a) => started.push(a) });
    expect(started).toEqual([taskArn]);
    expect(ecs.commandCalls(RunTaskCommand)[0].args[0].input).toEqual({
      cluster: 'temporal-dsql',
      taskDefinition: targets.generatorTaskDefinition,
      capacityProviderStrategy: [{ capacityProvider: targets.capacityProvider, weight: 1 }],
      networkConfiguration: {
        awsvpcConfiguration: { subnets: ['subnet-a', 'subnet-b', 'subnet-c'], securityGroups: ['sg-0bench'], assignPublicIp: 'DISABLED' },
      },
      overrides: {
        containerOverrides: [
          {
            name: 'Generator',
            environment: [
              { name: 'BENCHMARK_TARGET_RATE', value: '150' },
              { name: 'BENCHMARK_DURATION', value: '5m' },
              { name: 'BENCHMARK_RAMP_UP', value: '30s' },
            ],
          },
        ],
      },
      startedBy: 'bench-run/temporal-150wps',
      count: 1,
    });
    expect(logs.commandCalls(GetLogEventsCommand)[0].args[0].input).toMatchObject({
      logGroupName: 'TemporalDsql-GeneratorLogs-1',
      logStreamName: 'generator/Generator/0f1e2d3c4b5a69788796a5b4c3d2e1f0',
      startFromHead: true,
    });
    expect(logs.commandCalls(GetLogEventsCommand)).toHaveLength(3);
    expect(record).toMatchObject({
      scenario: 'temporal-150wps',
      start: '2026-01-21T10:00:03.000Z',
      end: '2026-01-21T10:05:11.000Z',
      workflowsCompleted: 41_052,
      exitCode: 0,
      result: {
        results: { actualRate: 136.74, workflowsStarted: 41_052, workflowsFailed: 0, latency: { p50: 197, p95: 220, p99: 259, max: 594 } },
        passed: true,
      },
    });
  });

  describe("with the stack's store probe", () => {
    const probeTd = 'arn:aws:ecs:eu-west-1:111122223333:task-definition/store-probe:3';
    const probeArn = 'arn:aws:ecs:eu-west-1:111122223333:task/temporal-dsql/aa11bb22cc33dd44ee55ff6677889900';
    const withProbe: BenchTargets = { ...targets, probe: { taskDefinition: probeTd, securityGroup: 'sg-0servers' } };
    const probePages = JSON.parse(readFileSync(join(__dirname, '../../../../fixtures/bench/probe-log.json'), 'utf8')).pages;

    function probeRuns(exitCode = 0, pages = probePages) {
      happyPath();
      ecs.on(RunTaskCommand, { taskDefinition: probeTd }).resolves({ tasks: [{ taskArn: probeArn }], failures: [] });
      ecs.on(DescribeTasksCommand, { tasks: [probeArn] }).resolves({
        tasks: [{ taskArn: probeArn, lastStatus: 'STOPPED', stoppedReason: 'Essential container in task exited', containers: [{ name: 'Probe', exitCode }] }],
      });
      ecs.on(DescribeTaskDefinitionCommand, { taskDefinition: probeTd }).resolves({
        taskDefinition: {
          containerDefinitions: [
            {
              name: 'Probe',
              logConfiguration: { logDriver: 'awslogs', options: { 'awslogs-group': 'TemporalDsql-ProbeLogs-1', 'awslogs-stream-prefix': 'probe' } },
            },
          ],
        },
      });
      let page = 0;
      logs.on(GetLogEventsCommand, { logGroupName: 'TemporalDsql-ProbeLogs-1' }).callsFake(() => pages[Math.min(page++, pages.length - 1)]);
    }

    test("runs it first, in the servers' security group, and records its round trip with the run", async () => {
      probeRuns();
      const record = await benchRun(clients, withProbe, settings, { timeoutSeconds: 1500, ...fakeTime() });
      const [probe, generator] = ecs.commandCalls(RunTaskCommand).map((c) => c.args[0].input);
      expect(probe).toMatchObject({
        taskDefinition: probeTd,
        capacityProviderStrategy: [{ capacityProvider: targets.capacityProvider, weight: 1 }],
        networkConfiguration: {
          awsvpcConfiguration: { subnets: ['subnet-a', 'subnet-b', 'subnet-c'], securityGroups: ['sg-0servers'], assignPublicIp: 'DISABLED' },
        },
        startedBy: 'bench-probe/temporal-150wps',
      });
      expect(generator.taskDefinition).toBe(targets.generatorTaskDefinition);
      expect(logs.commandCalls(GetLogEventsCommand)[0].args[0].input).toMatchObject({
        logGroupName: 'TemporalDsql-ProbeLogs-1',
        logStreamName: 'probe/Probe/aa11bb22cc33dd44ee55ff6677889900',
      });
      expect(record.storeRoundTrip).toEqual({
        host: 'kqabc123dsqlcluster.dsql-fnh4.eu-west-1.on.aws',
        queries: 100,
        connectMs: 41.3,
        medianMs: 0.92,
        p99Ms: 1.87,
        minMs: 0.71,
        maxMs: 2.4,
      });
      expect(record.storeRoundTripNote).toBeUndefined();
      expect(record.result?.passed).toBe(true);
    });

    test('a probe that fails is a note on the record; the run goes on', async () => {
      probeRuns(2, [
        { events: [{ message: 'time=... level=ERROR msg="probe failed" error="connecting to x:5432: timeout"' }], nextForwardToken: 'f' },
        { events: [], nextForwardToken: 'f' },
      ]);
      const record = await benchRun(clients, withProbe, settings, { timeoutSeconds: 1500, ...fakeTime() });
      expect(record.storeRoundTrip).toBeNull();
      expect(record.storeRoundTripNote).toBe('the store probe exited 2 without a result (Essential container in task exited)');
      expect(record.result?.passed).toBe(true);
    });

    test('a stack without the probe (older version) says so, and runs', async () => {
      happyPath();
      const record = await benchRun(clients, targets, settings, { timeoutSeconds: 1500, ...fakeTime() });
      expect(record.storeRoundTrip).toBeNull();
      expect(record.storeRoundTripNote).toBe('the stack has no store probe (deployed by an older version)');
      expect(ecs.commandCalls(RunTaskCommand)).toHaveLength(1);
    });
  });

  test('refuses a DSQL cluster that is not ACTIVE before starting anything', async () => {
    dsql.on(GetClusterCommand).resolves({ identifier: targets.dsqlClusterId, status: 'UPDATING' });
    await expect(benchRun(clients, targets, settings, { timeoutSeconds: 60, ...fakeTime() })).rejects.toMatchObject({
      message: 'Aurora DSQL cluster kqabc123dsqlcluster is UPDATING, not ACTIVE; wait for it (or check why) before a run',
      exitCode: EXIT_FAILED,
    });
    expect(ecs.commandCalls(RunTaskCommand)).toHaveLength(0);
  });

  test('a task ECS cannot place is a failure naming the reason', async () => {
    happyPath();
    ecs.on(RunTaskCommand).resolves({ tasks: [], failures: [{ arn: 'arn:aws:ecs:eu-west-1:111122223333:container-instance/x', reason: 'RESOURCE:MEMORY' }] });
    await expect(benchRun(clients, targets, settings, { timeoutSeconds: 60, ...fakeTime() })).rejects.toMatchObject({
      message: 'RunTask started no generator: arn:aws:ecs:eu-west-1:111122223333:container-instance/x RESOURCE:MEMORY',
      exitCode: EXIT_FAILED,
    });
  });

  test('a generator that never stops times out (exit 4) and leaves the task for the user to stop', async () => {
    happyPath();
    ecs.on(DescribeTasksCommand).resolves(task('RUNNING'));
    await expect(benchRun(clients, targets, settings, { timeoutSeconds: 1500, ...fakeTime() })).rejects.toMatchObject({
      message: 'timed out after 1500 s waiting for the load generator; last seen: task running',
      exitCode: EXIT_TIMEOUT,
    });
  });
});

describe('findResult', () => {
  const one = JSON.stringify({
    results: { workflowsStarted: 1, workflowsCompleted: 1, workflowsFailed: 0, actualRate: 1, latency: { p50: 1, p95: 2, p99: 3, max: 4 } },
  });
  test('reads a result printed on one line', () => {
    expect(findResult(['starting', one, 'done'])?.results.workflowsCompleted).toBe(1);
  });
  test('takes the last result when there are several (iterations)', () => {
    expect(findResult([one, one.replace('"workflowsCompleted":1', '"workflowsCompleted":9')])?.results.workflowsCompleted).toBe(9);
  });
  test('returns null for a log with no result, or a brace that is not one', () => {
    expect(findResult(['{ not json }', '{', '"a": 1', '}', 'panic: runtime error'])).toBeNull();
  });
});
