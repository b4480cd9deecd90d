import { AutoScalingClient, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, GetLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { DSQLClient, GetClusterCommand } from '@aws-sdk/client-dsql';
import {
  DescribeServicesCommand,
  DescribeTaskDefinitionCommand,
  DescribeTasksCommand,
  ECSClient,
  ListTasksCommand,
  RunTaskCommand,
  UpdateServiceCommand,
} from '@aws-sdk/client-ecs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mockClient } from 'aws-sdk-client-mock';
import { ConfigError } from '../../../../../config';
import { benchOutputKeys } from '../../../../../lib/temporal/commands/bench/targets';
import { runBench } from '../../../../../lib/temporal/commands/bench/run-bench';
import { CommandFailure, EXIT_FAILED } from '../../../../../lib/commands/shared/cli';
import { readRunRecord } from '../../../../../lib/commands/shared/run-record';
import { recordingIO } from '../../../../support/command-io';
import { fakeTime } from '../../../../support/fake-time';
import { generatorResult } from '../../../../support/generator-result';
import { tempDir } from '../../../../support/temp-dir';

/*
 * The bench command's flow, called as its entry point calls it: the deployed stack's outputs
 * read, the fleet acted on, the line returned; `up` and `run` refuse a preset other than the
 * one deployed, before they touch anything. The waits themselves: bench.test.ts.
 */

const cfn = mockClient(CloudFormationClient);
const ecs = mockClient(ECSClient);
const asg = mockClient(AutoScalingClient);
const dsql = mockClient(DSQLClient);
const logs = mockClient(CloudWatchLogsClient);

const deployedAs = (scenario: string, hibernated = 'false') => {
  const outputs = benchOutputKeys('dsql').required.map((key) => ({
    OutputKey: key,
    OutputValue: key === 'Scenario' ? scenario : key === 'PrivateSubnets' ? 'subnet-a,subnet-b' : `${key}-value`,
  }));
  cfn.on(DescribeStacksCommand).resolves({
    Stacks: [
      {
        StackName: 'TemporalDsql',
        CreationTime: new Date(),
        StackStatus: 'UPDATE_COMPLETE',
        Outputs: outputs,
        Parameters: [{ ParameterKey: 'Hibernated', ParameterValue: hibernated }],
      },
    ],
  });
};
const fleet = (desired: number, running: number, instances: number) => {
  ecs
    .on(DescribeServicesCommand)
    .resolves({ services: [{ serviceName: 'benchmark-worker', desiredCount: desired, runningCount: running, pendingCount: 0, events: [] }], failures: [] });
  asg.on(DescribeAutoScalingGroupsCommand).resolves({
    AutoScalingGroups: [
      {
        AutoScalingGroupName: 'asg',
        DesiredCapacity: instances,
        MinSize: 0,
        MaxSize: 4,
        Instances: Array.from({ length: instances }, (_, i) => ({ InstanceId: `i-${i}`, LifecycleState: 'InService' }) as any),
      } as any,
    ],
  });
};
const options = { scenario: 'temporal-150wps', interval: '10s' };

beforeEach(() => {
  for (const m of [cfn, ecs, asg, dsql, logs]) m.reset();
  ecs.on(ListTasksCommand).resolves({ taskArns: [] });
});

test('status reads the stack and the fleet and returns the table', async () => {
  deployedAs('temporal-150wps');
  fleet(6, 6, 2);
  const io = recordingIO();
  const r = await runBench('status', { ...options, timeout: '1m' }, { io });
  expect(r.stdout).toContain('| Worker tasks | 6 running, 0 pending, 6 desired (configured: 6, fleet: external) |');
  expect(r.stdout).toContain('| Benchmark instances | 2 in service, 0 starting, 0 stopping (ASG desired 2, max 4) |');
  expect(io.notes).toEqual([]);
});

test('status --json: the same figures as data, with where they were read', async () => {
  deployedAs('temporal-150wps');
  fleet(6, 6, 2);
  const out = JSON.parse((await runBench('status', { ...options, timeout: '1m', json: true }, { io: recordingIO() })).stdout);
  expect(out).toMatchObject({
    scenario: 'temporal-150wps',
    tasks: { running: 6, pending: 0, desired: 6 },
    instances: { inService: 2, starting: 0, stopping: 0, desired: 2, max: 4 },
  });
  expect(out.workerService).toEqual(expect.any(String));
});

test('status of another preset than the one deployed notes it and goes on; up refuses it before any change', async () => {
  deployedAs('temporal-400wps');
  fleet(0, 0, 0);
  const io = recordingIO();
  await runBench('status', { ...options, timeout: '1m' }, { io });
  expect(io.notes).toEqual(['note: TemporalDsql was last deployed with temporal-400wps, not temporal-150wps']);
  await expect(runBench('up', { ...options, timeout: '20m' }, { io })).rejects.toThrow(ConfigError);
  expect(ecs.commandCalls(UpdateServiceCommand)).toHaveLength(0);
});

test('a hibernated environment: status notes it; up and run refuse it, naming the way back, before any change', async () => {
  deployedAs('temporal-150wps', 'true');
  fleet(0, 0, 0);
  const io = recordingIO();
  await runBench('status', { ...options, timeout: '1m' }, { io });
  const said = 'TemporalDsql is hibernated: no server or instance runs (npm run wake -- --scenario temporal-150wps brings the preset back)';
  expect(io.notes).toEqual([`note: ${said}`]);
  for (const command of ['up', 'run'] as const)
    await expect(runBench(command, { ...options, timeout: '30m' }, { io })).rejects.toThrow(new CommandFailure(`${said}; wake it first`, EXIT_FAILED));
  expect(ecs.commandCalls(UpdateServiceCommand)).toHaveLength(0);
});

test('down without --wait sets the workers to 0, says what goes on if interrupted, and returns at once', async () => {
  deployedAs('temporal-150wps');
  fleet(6, 6, 2);
  ecs.on(UpdateServiceCommand).resolves({});
  const io = recordingIO();
  const r = await runBench('down', { ...options, timeout: '30m', wait: false }, { io, ...fakeTime() });
  expect(ecs.commandCalls(UpdateServiceCommand)[0].args[0].input).toMatchObject({ desiredCount: 0 });
  expect(r.stdout).toMatch(/^parking: /);
  expect(io.interrupted()).toMatch(/^the workers are set to 0/);
});

test('run refuses a ramp-up as long as the run, and a timeout shorter than it, before reading the stack', async () => {
  await expect(runBench('run', { ...options, duration: '5m', rampUp: '5m' })).rejects.toThrow('--ramp-up 5m is not shorter than --duration 5m');
  await expect(runBench('run', { ...options, duration: '5m', timeout: '4m' })).rejects.toThrow(/^--timeout 4m is not longer than the run/);
  expect(cfn.calls()).toHaveLength(0);
});

describe('bench ladder', () => {
  /**
   * A deployed preset whose cluster completes at most `capacity` workflows a second: each
   * generator task's log holds the result of its own rate (the rate read from its overrides).
   */
  function cluster(capacity: number) {
    deployedAs('temporal-150wps');
    fleet(6, 6, 2);
    dsql.on(GetClusterCommand).resolves({ status: 'ACTIVE' });
    const rates = new Map<string, number>();
    ecs.on(RunTaskCommand).callsFake((input) => {
      const id = `task${rates.size + 1}`;
      rates.set(id, Number(input.overrides.containerOverrides[0].environment.find((e: any) => e.name === 'BENCHMARK_TARGET_RATE').value));
      return { tasks: [{ taskArn: `arn:aws:ecs:eu-west-1:1:task/temporal-dsql/${id}` }] };
    });
    ecs.on(DescribeTasksCommand).callsFake((input) => ({
      tasks: [
        {
          taskArn: input.tasks[0],
          lastStatus: 'STOPPED',
          startedAt: new Date('2026-11-26T10:00:00Z'),
          executionStoppedAt: new Date('2026-11-26T10:01:10Z'),
          containers: [{ name: 'Generator', exitCode: 0 }],
        },
      ],
    }));
    ecs.on(DescribeTaskDefinitionCommand).resolves({
      taskDefinition: {
        containerDefinitions: [
          { name: 'Generator', logConfiguration: { logDriver: 'awslogs', options: { 'awslogs-group': 'g', 'awslogs-stream-prefix': 'generator' } } },
        ],
      },
    });
    logs.on(GetLogEventsCommand).callsFake((input) => {
      const rate = rates.get(input.logStreamName.split('/').pop())!;
      return { events: [{ message: JSON.stringify(generatorResult(rate, 60, rate > capacity ? { capacity } : {})) }], nextForwardToken: 'end' };
    });
  }
  const out = () => join(tempDir('ladder-'), 'ladder.json');

  test('climbs until a step does not hold, one generator task a step, and writes every step in one record report can read', async () => {
    cluster(400);
    const file = out();
    const io = recordingIO();
    const r = await runBench('ladder', { ...options, rates: '100,200,400,800,1600', step: '1m', out: file }, { io, ...fakeTime() });
    const offered = ecs.commandCalls(RunTaskCommand).map((c) => c.args[0].input.overrides!.containerOverrides![0].environment);
    expect(offered).toEqual(
      [100, 200, 400, 800].map((rate) => [
        { name: 'BENCHMARK_TARGET_RATE', value: String(rate) },
        { name: 'BENCHMARK_DURATION', value: '1m' },
        { name: 'BENCHMARK_RAMP_UP', value: '0s' },
      ]),
    );
    const record = JSON.parse(readFileSync(file, 'utf8'));
    expect(record.ladder).toMatchObject({ rates: [100, 200, 400, 800, 1600], highestHeld: 400, firstFailed: 800, step: '1m' });
    expect(record.ladder.steps.map((x: any) => x.held)).toEqual([true, true, true, false]);
    expect(record.ladder.steps[3].failed[0]).toMatch(/^completed \d+ of 48000 offered/);
    expect(record).toMatchObject({ scenario: 'temporal-150wps', start: '2026-11-26T10:00:00.000Z', end: '2026-11-26T10:01:10.000Z' });
    expect(readRunRecord(file).ladder?.highestHeld).toBe(400);
    expect(r.stdout).toContain('Highest rate held: 400/s. First that did not: 800/s (completed ');
    expect(r.stdout).toMatch(/^\| 800 \| 39\d \| 49.\d% \| 200 \| \d+% \| did not hold: /m);
    expect(r.failure).toBeUndefined();
    expect(io.notes.slice(0, 2)).toEqual(['step 1 of 5: 100 workflows/s for 1m', '100/s: held']);
    expect(io.notes.at(-1)).toBe(`800/s: did not hold: ${record.ladder.steps[3].failed.join('; ')}`);
  });

  test('a generator with no result stops the ladder as a failure: a broken run is not a limit', async () => {
    cluster(10_000);
    logs.on(GetLogEventsCommand).resolves({ events: [{ message: 'panic: lost' }], nextForwardToken: 'end' });
    const r = await runBench('ladder', { ...options, rates: '100,200', step: '1m', out: out() }, { io: recordingIO(), ...fakeTime() });
    expect(ecs.commandCalls(RunTaskCommand)).toHaveLength(1);
    expect(r.failure?.message).toMatch(/^the generator at 100\/s exited 0 with no result in its log: the ladder measured a broken run, not a limit/);
  });

  test('refuses a timeout a step would outlast, before reading the stack', async () => {
    await expect(runBench('ladder', { ...options, step: '5m', timeout: '5m' })).rejects.toThrow(/^--timeout 5m is not longer than the run \(--step 5m\)/);
    expect(cfn.calls()).toHaveLength(0);
  });
});
