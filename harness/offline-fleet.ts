import { AutoScalingClient, CreateAutoScalingGroupCommand, CreateLaunchConfigurationCommand } from '@aws-sdk/client-auto-scaling';
import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CreateClusterCommand as CreateDsqlClusterCommand, DSQLClient } from '@aws-sdk/client-dsql';
import { CreateClusterCommand, CreateServiceCommand, ECSClient, RegisterTaskDefinitionCommand } from '@aws-sdk/client-ecs';
import { resolveScenario, TEMPORAL_ROLES, type TemporalScenario } from '../config';
import {
  BENCHMARK_GENERATOR_FAMILY,
  BENCHMARK_WORKER_SERVICE,
  TEMPORAL_GRAFANA_SERVICE,
  TEMPORAL_UI_SERVICE,
  temporalServiceName,
} from '../lib/temporal/contract/temporal-names';
import { HIBERNATED_PARAMETER, TEMPORAL_OUTPUTS as O } from '../lib/temporal/contract/temporal-stack-outputs';

/*
 * What a deployed temporal-150wps environment shows the commands, created on moto: the ECS
 * cluster with the four roles' services at the preset's counts and the benchmark-worker service,
 * the main and benchmark ASGs, an Aurora DSQL cluster, and the TemporalDsql stack's outputs and
 * Hibernated parameter. Used by the bench and environment tests and `npm run try:offline`.
 */

export interface FleetConfig {
  readonly region: string;
  readonly endpoint: string;
  readonly credentials: { accessKeyId: string; secretAccessKey: string };
}

export async function seedTemporalFleet(config: FleetConfig, o: { instances: number }): Promise<{ dsqlClusterId: string }> {
  const ecs = new ECSClient(config);
  await ecs.send(new CreateClusterCommand({ clusterName: 'temporal-dsql' }));
  const { taskDefinition } = await ecs.send(
    new RegisterTaskDefinitionCommand({
      family: BENCHMARK_WORKER_SERVICE,
      containerDefinitions: [{ name: 'Worker', image: 'bench:1', memory: 4096, cpu: 2048 }],
    }),
  );
  await ecs.send(
    new CreateServiceCommand({
      cluster: 'temporal-dsql',
      serviceName: BENCHMARK_WORKER_SERVICE,
      taskDefinition: taskDefinition!.taskDefinitionArn,
      desiredCount: 0,
    }),
  );
  const { preset, environment } = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
  // The four roles, the Web UI and Grafana, at the preset's counts.
  const services: [string, number][] = [
    ...TEMPORAL_ROLES.map((r): [string, number] => [temporalServiceName(r), preset.services[r].replicas]),
    [TEMPORAL_UI_SERVICE, 1],
    [TEMPORAL_GRAFANA_SERVICE, 1],
  ];
  for (const [name, count] of services) {
    const { taskDefinition: serviceTask } = await ecs.send(
      new RegisterTaskDefinitionCommand({ family: name, containerDefinitions: [{ name: 'Server', image: 'server:1', memory: 1024, cpu: 512 }] }),
    );
    await ecs.send(
      new CreateServiceCommand({ cluster: 'temporal-dsql', serviceName: name, taskDefinition: serviceTask!.taskDefinitionArn, desiredCount: count }),
    );
  }
  const asg = new AutoScalingClient(config);
  await asg.send(new CreateLaunchConfigurationCommand({ LaunchConfigurationName: 'bench', ImageId: 'ami-12c6146b', InstanceType: 'm7g.2xlarge' }));
  await asg.send(
    new CreateAutoScalingGroupCommand({
      AutoScalingGroupName: 'main-asg',
      LaunchConfigurationName: 'bench',
      MinSize: preset.capacity.main.instances,
      MaxSize: preset.capacity.main.instances,
      DesiredCapacity: preset.capacity.main.instances,
      NewInstancesProtectedFromScaleIn: true,
      AvailabilityZones: [`${config.region}a`],
    }),
  );
  await asg.send(
    new CreateAutoScalingGroupCommand({
      AutoScalingGroupName: 'bench-asg',
      LaunchConfigurationName: 'bench',
      MinSize: 0,
      MaxSize: 4,
      DesiredCapacity: o.instances,
      AvailabilityZones: [`${config.region}a`],
    }),
  );
  const cluster = await new DSQLClient(config).send(new CreateDsqlClusterCommand({ deletionProtectionEnabled: false }));
  const dsqlClusterId = cluster.identifier!;
  const outputs = {
    [O.scenario]: 'temporal-150wps',
    [O.clusterName]: 'temporal-dsql',
    [O.benchmarkWorkerService]: BENCHMARK_WORKER_SERVICE,
    [O.benchmarkAsgName]: 'bench-asg',
    [O.mainAsgName]: 'main-asg',
    [O.uiAddress]: `ui.${environment.names.serviceNamespace}:${environment.ui.port}`,
    [O.grafanaAddress]: `grafana.${environment.names.serviceNamespace}:${environment.dashboards.port}`,
    [O.benchmarkCapacityProvider]: 'bench-cp',
    [O.generatorTaskDefinition]: `${BENCHMARK_GENERATOR_FAMILY}:1`,
    [O.benchmarkSecurityGroupId]: 'sg-0123456789abcdef0',
    [O.privateSubnets]: 'subnet-0a,subnet-0b,subnet-0c',
    [O.dsqlClusterId]: dsqlClusterId,
  };
  await new CloudFormationClient(config).send(
    new CreateStackCommand({
      StackName: 'TemporalDsql',
      TemplateBody: JSON.stringify({
        Parameters: { [HIBERNATED_PARAMETER]: { Type: 'String', AllowedValues: ['false', 'true'], Default: 'false' } },
        Resources: { Placeholder: { Type: 'AWS::SNS::Topic' } },
        Outputs: Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, { Value: v }])),
      }),
    }),
  );
  return { dsqlClusterId };
}
