import { AutoScalingClient, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DescribeServicesCommand, ECSClient, UpdateServiceCommand } from '@aws-sdk/client-ecs';
import { mockClient } from 'aws-sdk-client-mock';
import { ConfigError } from '../../../../config';
import { benchOutputKeys } from '../../../../lib/commands/bench/targets';
import { runBench } from '../../../../lib/commands/bench/run-bench';
import { CommandFailure, EXIT_FAILED } from '../../../../lib/commands/shared/cli';
import { recordingIO } from '../../../support/command-io';
import { fakeTime } from '../../../support/fake-time';

/*
 * The bench command's flow, called as its entry point calls it: the deployed stack's outputs
 * read, the fleet acted on, the line returned; `up` and `run` refuse a preset other than the
 * one deployed, before they touch anything. The waits themselves: bench.test.ts.
 */

const cfn = mockClient(CloudFormationClient);
const ecs = mockClient(ECSClient);
const asg = mockClient(AutoScalingClient);

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
  for (const m of [cfn, ecs, asg]) m.reset();
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
