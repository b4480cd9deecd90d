import { AutoScalingClient, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { ConfigError } from '../../../../config';
import { runUi } from '../../../../lib/commands/ui/run-ui';
import { CommandFailure, EXIT_FAILED } from '../../../../lib/commands/shared/cli';
import { TEMPORAL_OUTPUTS as O } from '../../../../lib/contract/stack-outputs';

/*
 * `npm run ui` on recorded answers: the session command through an instance in service of the
 * main pool, to the address the stack outputs; and each refusal (hibernated, another preset
 * deployed, an older stack, no instance in service) before it prints a command that cannot work.
 */

const cfn = mockClient(CloudFormationClient);
const asg = mockClient(AutoScalingClient);

const stack = (o: { hibernated?: string; scenario?: string; ui?: boolean } = {}) =>
  cfn.on(DescribeStacksCommand).resolves({
    Stacks: [
      {
        StackName: 'TemporalDsql',
        CreationTime: new Date(),
        StackStatus: 'UPDATE_COMPLETE',
        Outputs: [
          { OutputKey: O.scenario, OutputValue: o.scenario ?? 'temporal-150wps' },
          { OutputKey: O.mainAsgName, OutputValue: 'main-asg' },
          ...(o.ui === false ? [] : [{ OutputKey: O.uiAddress, OutputValue: 'ui.temporal.internal:8080' }]),
        ],
        Parameters: [{ ParameterKey: 'Hibernated', ParameterValue: o.hibernated ?? 'false' }],
      },
    ],
  });
const pool = (...instances: [string, string][]) =>
  asg.on(DescribeAutoScalingGroupsCommand).resolves({
    AutoScalingGroups: [{ Instances: instances.map(([InstanceId, LifecycleState]) => ({ InstanceId, LifecycleState, HealthStatus: 'Healthy' })) } as any],
  });

beforeEach(() => {
  cfn.reset();
  asg.reset();
});

test('prints the port-forwarding session through an instance in service, to the address the stack gives', async () => {
  stack();
  pool(['i-0b', 'Pending'], ['i-0c', 'InService'], ['i-0a', 'Terminating:Wait']);
  const out = await runUi({ scenario: 'temporal-150wps', localPort: '18080' });
  expect(out.stdout).toContain(
    `aws ssm start-session --region eu-west-1 --target i-0c --document-name AWS-StartPortForwardingSessionToRemoteHost --parameters '{"host":["ui.temporal.internal"],"portNumber":["8080"],"localPortNumber":["18080"]}'`,
  );
  expect(out.stdout).toContain('then open http://localhost:18080/namespaces/benchmark/workflows');
  expect(asg.commandCalls(DescribeAutoScalingGroupsCommand)[0].args[0].input).toEqual({ AutoScalingGroupNames: ['main-asg'] });
});

test.each([
  [
    { hibernated: 'true' },
    new CommandFailure('TemporalDsql is hibernated: the UI does not run (npm run wake -- --scenario temporal-150wps brings it back)', EXIT_FAILED),
  ],
  [
    { scenario: 'temporal-400wps' },
    new ConfigError('TemporalDsql was last deployed with temporal-400wps, not temporal-150wps (valid: --scenario temporal-400wps)'),
  ],
  [{ ui: false }, new ConfigError('stack "TemporalDsql" has no output "UiAddress" (deployed by an older version: deploy this one first)')],
])('refuses a stack %j', async (state, error) => {
  stack(state);
  pool(['i-0c', 'InService']);
  await expect(runUi({ scenario: 'temporal-150wps' })).rejects.toThrow(error);
});

test('a pool with no instance in service has nothing to forward through', async () => {
  stack();
  pool(['i-0b', 'Pending']);
  await expect(runUi({ scenario: 'temporal-150wps' })).rejects.toThrow(
    new CommandFailure(
      'main-asg has no instance in service to forward through: is the preset up? (npm run environment -- status --scenario temporal-150wps)',
      EXIT_FAILED,
    ),
  );
});
