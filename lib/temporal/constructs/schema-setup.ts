import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CustomResource, Duration, Stack } from 'aws-cdk-lib/core';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { acknowledgeControl, acknowledgeDeployTimeFunctions, acknowledgeNag, nagResource } from '../../platform/constructs/lint-acknowledgements';
import { addTaskContainer, arm64TaskDefinition } from '../../platform/constructs/ecs-service';

export interface SchemaSetupProps {
  readonly cluster: ecs.ICluster;
  readonly capacityProvider: ecs.AsgCapacityProvider;
  readonly subnets: ec2.SubnetSelection;
  readonly securityGroup: ec2.ISecurityGroup;
  readonly image: ecs.ContainerImage;
  /** The image's non-root user. */
  readonly user: string;
  readonly taskRole: iam.IRole;
  readonly executionRole: iam.IRole;
  readonly vcpu: number;
  readonly memoryGiB: number;
  readonly command: string;
  readonly environment: Record<string, string>;
  /** Variables ECS sets from Secrets Manager when the task starts (read with the execution role). */
  readonly secrets?: Record<string, ecs.Secret>;
  readonly logGroup: logs.ILogGroup;
}

/**
 * The history store's schema (and the visibility index) as a one-shot ECS task that runs during the
 * deploy, before any Temporal service starts: a custom resource starts it and waits until
 * it stops, and fails the deploy if it exited non-zero. It runs again whenever its task
 * definition changes (a new server image brings its schema version), as an update.
 */
export class SchemaSetup extends Construct {
  static readonly CONTAINER = 'Schema';

  readonly taskDefinition: ecs.TaskDefinition;
  readonly resource: CustomResource;

  constructor(scope: Construct, id: string, props: SchemaSetupProps) {
    super(scope, id);
    this.taskDefinition = arm64TaskDefinition(this, 'Task', {
      vcpu: props.vcpu,
      memoryGiB: props.memoryGiB,
      taskRole: props.taskRole,
      executionRole: props.executionRole,
    });
    addTaskContainer(this.taskDefinition, SchemaSetup.CONTAINER, props.memoryGiB * 1024, {
      image: props.image,
      user: props.user,
      entryPoint: ['/bin/sh', '-c'],
      command: [props.command],
      environment: props.environment,
      secrets: props.secrets,
      logging: ecs.LogDrivers.awsLogs({ logGroup: props.logGroup, streamPrefix: 'schema' }),
    });

    const code = lambda.Code.fromInline(readFileSync(join(__dirname, 'schema-setup', 'handler.js'), 'utf8'));
    const fn = (name: string, handler: string) =>
      new lambda.Function(this, name, {
        runtime: lambda.Runtime.NODEJS_24_X,
        architecture: lambda.Architecture.ARM_64,
        code,
        handler: `index.${handler}`,
        timeout: Duration.minutes(1),
        logGroup: props.logGroup,
      });
    const onEvent = fn('StartTask', 'onEvent');
    const isComplete = fn('WaitForTask', 'isComplete');
    const stack = Stack.of(this);
    onEvent.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['ecs:RunTask'],
        resources: [this.taskDefinition.taskDefinitionArn],
        conditions: { ArnEquals: { 'ecs:cluster': props.cluster.clusterArn } },
      }),
    );
    onEvent.addToRolePolicy(new iam.PolicyStatement({ actions: ['iam:PassRole'], resources: [props.taskRole.roleArn, props.executionRole.roleArn] }));
    const clusterTasks = stack.formatArn({ service: 'ecs', resource: 'task', resourceName: `${props.cluster.clusterName}/*` });
    isComplete.addToRolePolicy(new iam.PolicyStatement({ actions: ['ecs:DescribeTasks'], resources: [clusterTasks] }));
    const provider = new cr.Provider(this, 'Provider', {
      onEventHandler: onEvent,
      isCompleteHandler: isComplete,
      queryInterval: Duration.seconds(15),
      totalTimeout: Duration.minutes(30),
      // The framework's own functions log beside ours, not to log groups of their own.
      logGroup: props.logGroup,
    });
    this.acknowledgeFindings(onEvent, isComplete, provider, clusterTasks);
    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::TemporalSchema',
      properties: {
        Cluster: props.cluster.clusterName,
        CapacityProvider: props.capacityProvider.capacityProviderName,
        TaskDefinition: this.taskDefinition.taskDefinitionArn,
        Container: SchemaSetup.CONTAINER,
        Subnets: props.cluster.vpc.selectSubnets(props.subnets).subnetIds,
        SecurityGroups: [props.securityGroup.securityGroupId],
      },
    });
  }

  /** cdk-nag findings on the custom-resource machinery, each with its reason. */
  private acknowledgeFindings(onEvent: lambda.Function, isComplete: lambda.Function, provider: cr.Provider, clusterTasks: string): void {
    const ack = (rule: string, reason: string) => acknowledgeNag(this, rule, reason);
    ack(
      'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      "The functions' log permissions, as CDK's provider framework grants them: logs:CreateLogGroup, CreateLogStream and PutLogEvents, nothing else.",
    );
    // The functions the framework's roles may invoke: ours, and its own isComplete and onTimeout.
    const framework = ['framework-isComplete', 'framework-onTimeout'].map((id) => provider.node.findChild(id) as lambda.IFunction);
    for (const f of [onEvent, isComplete, ...framework])
      ack(
        `IAM5[Resource::${nagResource(this, f.functionArn)}:*]`,
        "lambda:InvokeFunction on one function's versions and aliases (`<arn>:*`), as CDK's provider framework grants it; the function itself is named.",
      );
    ack(
      `IAM5[Resource::${nagResource(this, clusterTasks)}]`,
      "ecs:DescribeTasks on the tasks of this one cluster: the schema task's id is known only once RunTask returns.",
    );
    ack('SF1', "The provider framework's waiter state machine: each step's outcome is in the functions' logs and in CloudFormation's events.");
    ack('SF2', "The provider framework's waiter state machine: a short poll loop for one deploy step, which X-Ray tracing would not make clearer.");
    acknowledgeDeployTimeFunctions(this);
    const waiter = provider.node.findChild('waiter-state-machine');
    acknowledgeControl(
      waiter,
      'CT.STEPFUNCTIONS.PR.1',
      "CDK's provider framework's waiter: a poll loop of one deploy step (start the schema task, then ask ECS every 15 s whether it ended). What each step did is in the functions' log group and in CloudFormation's events; execution logs would repeat it.",
    );
    acknowledgeControl(
      waiter,
      'CT.STEPFUNCTIONS.PR.2',
      "CDK's provider framework's waiter: one function called every 15 s until the schema task ends. X-Ray would trace a loop whose every step is already in the functions' logs, and need X-Ray write permissions on every resource.",
    );
  }
}
