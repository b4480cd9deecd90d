import { AutoScalingClient, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { ConfigError } from '../../../../../config';
import { runUi } from '../../../../../lib/temporal/commands/ui/run-ui';
import { CommandFailure, EXIT_FAILED } from '../../../../../lib/commands/shared/cli';
import { TEMPORAL_OUTPUTS as O } from '../../../../../lib/temporal/contract/temporal-stack-outputs';

/*
 * `npm run ui` on recorded answers: the session command through an instance in service of the
 * main pool, to the address the stack outputs (the Web UI's, or with --dashboards Grafana's);
 * and each refusal (hibernated, another preset deployed, an older stack, no instance in
 * service, a preset that runs no Grafana) before it prints a command that cannot work.
 */

const cfn = mockClient(CloudFormationClient);
const asg = mockClient(AutoScalingClient);

const stack = (o: { hibernated?: string; scenario?: string; ui?: boolean; grafana?: boolean } = {}) =>
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
          ...(o.grafana === false ? [] : [{ OutputKey: O.grafanaAddress, OutputValue: 'grafana.temporal.internal:3000' }]),
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

test('--dashboards: the same session to Grafana, opening the live dashboard', async () => {
  stack();
  pool(['i-0c', 'InService']);
  const out = await runUi({ scenario: 'temporal-150wps', dashboards: true });
  expect(out.stdout).toMatch(
    /^Grafana with the live dashboard of TemporalDsql \(temporal-150wps\) answers at grafana.temporal.internal:3000, inside the VPC only/,
  );
  expect(out.stdout).toContain(`--parameters '{"host":["grafana.temporal.internal"],"portNumber":["3000"],"localPortNumber":["3000"]}'`);
  expect(out.stdout).toContain('then open http://localhost:3000/d/temporal-run');
});

test.each([
  [{ grafana: false }, new ConfigError('stack "TemporalDsql" has no output "GrafanaAddress" (deployed by an older version: deploy this one first)')],
  [
    { hibernated: 'true' },
    new CommandFailure('TemporalDsql is hibernated: Grafana does not run (npm run wake -- --scenario temporal-150wps brings it back)', EXIT_FAILED),
  ],
])('--dashboards refuses a stack %j', async (state, error) => {
  stack(state);
  pool(['i-0c', 'InService']);
  await expect(runUi({ scenario: 'temporal-150wps', dashboards: true })).rejects.toThrow(error);
});

test('--dashboards refuses a preset that runs no Grafana, before asking AWS anything', async () => {
  await expect(runUi({ scenario: 'temporal-100wps', dashboards: true })).rejects.toThrow(
    new ConfigError(
      'temporal-100wps runs no Grafana (dashboards: false in config/temporal-scenarios.ts) (valid: a preset with dashboards: true, or set it and deploy)',
    ),
  );
  expect(cfn.calls()).toHaveLength(0);
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
