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
  const scenario = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
  await seedServices(new ECSClient(config), scenario);
  await seedPools(new AutoScalingClient(config), config.region, scenario, o.instances);
  const cluster = await new DSQLClient(config).send(new CreateDsqlClusterCommand({ deletionProtectionEnabled: false }));
  const dsqlClusterId = cluster.identifier!;
  await seedStack(new CloudFormationClient(config), scenario, dsqlClusterId);
  return { dsqlClusterId };
}

/** The ECS cluster: the benchmark workers at 0, the four roles, the Web UI and Grafana at the preset's counts. */
async function seedServices(ecs: ECSClient, { preset }: TemporalScenario): Promise<void> {
  await ecs.send(new CreateClusterCommand({ clusterName: 'temporal-dsql' }));
  const services: [string, number, string][] = [
    [BENCHMARK_WORKER_SERVICE, 0, 'Worker'],
    ...TEMPORAL_ROLES.map((r): [string, number, string] => [temporalServiceName(r), preset.services[r].replicas, 'Server']),
    [TEMPORAL_UI_SERVICE, 1, 'Server'],
    [TEMPORAL_GRAFANA_SERVICE, 1, 'Server'],
  ];
  for (const [name, count, container] of services) {
    const size = container === 'Worker' ? { image: 'bench:1', memory: 4096, cpu: 2048 } : { image: 'server:1', memory: 1024, cpu: 512 };
    const { taskDefinition } = await ecs.send(new RegisterTaskDefinitionCommand({ family: name, containerDefinitions: [{ name: container, ...size }] }));
    await ecs.send(
      new CreateServiceCommand({ cluster: 'temporal-dsql', serviceName: name, taskDefinition: taskDefinition!.taskDefinitionArn, desiredCount: count }),
    );
  }
}

/** The main pool at the preset's size, protected from scale-in, and the benchmark pool at `instances`. */
async function seedPools(asg: AutoScalingClient, region: string, { preset }: TemporalScenario, instances: number): Promise<void> {
  await asg.send(new CreateLaunchConfigurationCommand({ LaunchConfigurationName: 'bench', ImageId: 'ami-12c6146b', InstanceType: 'm7g.2xlarge' }));
  const main = preset.capacity.main.instances;
  await asg.send(
    new CreateAutoScalingGroupCommand({
      AutoScalingGroupName: 'main-asg',
      LaunchConfigurationName: 'bench',
      MinSize: main,
      MaxSize: main,
      DesiredCapacity: main,
      NewInstancesProtectedFromScaleIn: true,
      AvailabilityZones: [`${region}a`],
    }),
  );
  await asg.send(
    new CreateAutoScalingGroupCommand({
      AutoScalingGroupName: 'bench-asg',
      LaunchConfigurationName: 'bench',
      MinSize: 0,
      MaxSize: 4,
      DesiredCapacity: instances,
      AvailabilityZones: [`${region}a`],
    }),
  );
}

/** The data stack as the commands read it: its outputs, and the hibernation parameter. */
async function seedStack(cfn: CloudFormationClient, { environment }: TemporalScenario, dsqlClusterId: string): Promise<void> {
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
  await cfn.send(
    new CreateStackCommand({
      StackName: 'TemporalDsql',
      TemplateBody: JSON.stringify({
        Parameters: { [HIBERNATED_PARAMETER]: { Type: 'String', AllowedValues: ['false', 'true'], Default: 'false' } },
        Resources: { Placeholder: { Type: 'AWS::SNS::Topic' } },
        Outputs: Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, { Value: v }])),
      }),
    }),
  );
}
