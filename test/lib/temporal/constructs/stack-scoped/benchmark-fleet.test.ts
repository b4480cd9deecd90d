import { Duration } from 'aws-cdk-lib/core';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Template } from 'aws-cdk-lib/assertions';
import type { FleetState } from '../../../../../config';
import { HibernationSwitch } from '../../../../../lib/temporal/constructs/hibernation-switch';
import { BenchmarkFleet } from '../../../../../lib/temporal/constructs/stack-scoped/benchmark-fleet';
import {
  BENCHMARK_GENERATOR_FAMILY,
  BENCHMARK_WORKER_SERVICE,
  GENERATOR_CONTAINER,
  PROBE_CONTAINER,
  STORE_PROBE_FAMILY,
} from '../../../../../lib/temporal/contract/temporal-names';
import { hibernatable } from '../../../../support/synth';
import { scaffoldCapacity, scaffoldExecutionRole, scaffoldPrometheus, temporalScaffold } from '../../../../support/temporal-scaffold';

function fleetOf(name: string, fleet: FleetState) {
  const scaffold = temporalScaffold(name);
  const { scenario, stack, vpc, subnets, store, taskRole: serverRole } = scaffold;
  const e = scenario.environment;
  const capacity = scaffoldCapacity(scaffold);
  const serverExecutionRole = scaffoldExecutionRole(stack, 'ServerExecutionRole');
  const made = new BenchmarkFleet(stack, {
    environment: e,
    preset: scenario.preset,
    fleet,
    cluster: capacity.cluster,
    capacityProvider: capacity.benchmark,
    subnets,
    securityGroup: new ec2.SecurityGroup(stack, 'Clients', { vpc, allowAllOutbound: false }),
    frontendAddress: 'frontend.temporal:7233',
    prometheus: scaffoldPrometheus(stack),
    logRetention: logs.RetentionDays.ONE_WEEK,
    stopTimeout: Duration.seconds(60),
    maximumPercent: 200,
    hibernation: new HibernationSwitch(stack),
    probe: { taskRole: serverRole, executionRole: serverExecutionRole, store },
  });
  return { stack, fleet: made, scenario, template: Template.fromStack(stack), serverRole };
}

const taskDefinition = (template: Template, family: string) =>
  Object.values(template.findResources('AWS::ECS::TaskDefinition', { Properties: { Family: family } }))[0];

test('the worker service, generator and store probe under the names the bench command looks up', () => {
  const { template } = fleetOf('temporal-150wps', 'external');
  template.hasResourceProperties('AWS::ECS::Service', { ServiceName: BENCHMARK_WORKER_SERVICE });
  const names = (family: string) => (taskDefinition(template, family).Properties.ContainerDefinitions as { Name: string }[]).map((c) => c.Name);
  expect(names(BENCHMARK_GENERATOR_FAMILY)).toContain(GENERATOR_CONTAINER);
  expect(names(STORE_PROBE_FAMILY)).toContain(PROBE_CONTAINER);
});

test("the store probe runs with the servers' task role; the worker and generator with a role of their own", () => {
  const { stack, template, serverRole } = fleetOf('temporal-150wps', 'external');
  const serverRoleId = stack.getLogicalId(serverRole.node.defaultChild as iam.CfnRole);
  expect(taskDefinition(template, STORE_PROBE_FAMILY).Properties.TaskRoleArn).toEqual({ 'Fn::GetAtt': [serverRoleId, 'Arn'] });
  expect(taskDefinition(template, BENCHMARK_GENERATOR_FAMILY).Properties.TaskRoleArn['Fn::GetAtt'][0]).toMatch(/^BenchmarkTaskRole/);
});

test('the probe gets no secret: it signs its IAM token as the servers do, on either store', () => {
  const secretsOf = (name: string) => {
    const { template } = fleetOf(name, 'external');
    return (taskDefinition(template, STORE_PROBE_FAMILY).Properties.ContainerDefinitions as { Name: string; Secrets?: unknown[] }[]).find(
      (c) => c.Name === PROBE_CONTAINER,
    )!.Secrets;
  };
  expect(secretsOf('temporal-aurora-150wps')).toBeUndefined();
  expect(secretsOf('temporal-150wps')).toBeUndefined();
});

test.each([
  ['running', "the preset's worker count"],
  ['parked', '0'],
  ['external', 'no count (bench up/down own it)'],
] as const)('fleet=%s: %s', (fleet, _what) => {
  const { template, scenario } = fleetOf('temporal-150wps', fleet);
  const service = Object.values(template.findResources('AWS::ECS::Service', { Properties: { ServiceName: BENCHMARK_WORKER_SERVICE } }))[0];
  const expected = { running: hibernatable(scenario.preset.benchmark.workers.replicas), parked: 0, external: undefined }[fleet];
  expect(service.Properties.DesiredCount).toEqual(expected);
});
