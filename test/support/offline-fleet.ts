import { AutoScalingClient, CreateAutoScalingGroupCommand, CreateLaunchConfigurationCommand } from '@aws-sdk/client-auto-scaling';
import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CreateClusterCommand as CreateDsqlClusterCommand, DSQLClient } from '@aws-sdk/client-dsql';
import { CreateClusterCommand, CreateServiceCommand, ECSClient, RegisterTaskDefinitionCommand } from '@aws-sdk/client-ecs';

/*
 * What a deployed temporal-150wps environment shows the bench commands, created on moto: the
 * ECS cluster and benchmark-worker service, the benchmark ASG, an Aurora DSQL cluster, and the
 * TemporalDsql stack's outputs naming them. Used by the bench tests and `npm run try:offline`.
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
    new RegisterTaskDefinitionCommand({ family: 'benchmark-worker', containerDefinitions: [{ name: 'Worker', image: 'bench:1', memory: 4096, cpu: 2048 }] }),
  );
  await ecs.send(new CreateServiceCommand({ cluster: 'temporal-dsql', serviceName: 'benchmark-worker', taskDefinition: taskDefinition!.taskDefinitionArn, desiredCount: 0 }));
  const asg = new AutoScalingClient(config);
  await asg.send(new CreateLaunchConfigurationCommand({ LaunchConfigurationName: 'bench', ImageId: 'ami-12c6146b', InstanceType: 'm7g.2xlarge' }));
  await asg.send(
    new CreateAutoScalingGroupCommand({ AutoScalingGroupName: 'bench-asg', LaunchConfigurationName: 'bench', MinSize: 0, MaxSize: 4, DesiredCapacity: o.instances, AvailabilityZones: [`${config.region}a`] }),
  );
  const cluster = await new DSQLClient(config).send(new CreateDsqlClusterCommand({ deletionProtectionEnabled: false }));
  const dsqlClusterId = cluster.identifier!;
  const outputs = {
    Scenario: 'temporal-150wps',
    ClusterName: 'temporal-dsql',
    BenchmarkWorkerService: 'benchmark-worker',
    BenchmarkAsgName: 'bench-asg',
    BenchmarkCapacityProvider: 'bench-cp',
    GeneratorTaskDefinition: 'benchmark-generator:1',
    BenchmarkSecurityGroupId: 'sg-0123456789abcdef0',
    PrivateSubnets: 'subnet-0a,subnet-0b,subnet-0c',
    DsqlClusterId: dsqlClusterId,
  };
  await new CloudFormationClient(config).send(
    new CreateStackCommand({
      StackName: 'TemporalDsql',
      TemplateBody: JSON.stringify({
        Resources: { Placeholder: { Type: 'AWS::SNS::Topic' } },
        Outputs: Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, { Value: v }])),
      }),
    }),
  );
  return { dsqlClusterId };
}
