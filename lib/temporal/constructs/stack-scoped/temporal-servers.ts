import { type CfnResource, Duration } from 'aws-cdk-lib/core';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as ecs from 'aws-cdk-lib/aws-ecs';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { TemporalEnvironment, TemporalPreset } from '../../../../config';
import { durationSeconds } from '../../../../config/fields';
import { containerImage } from '../../../platform/contract/images';
import { schemaCommand, schemaEnvironment } from '../../contract/temporal-schema-task';
import { executionRole } from '../../../platform/constructs/ecs-service';
import type { HibernationSwitch } from '../hibernation-switch';
import type { Prometheus } from '../prometheus';
import { SchemaSetup } from '../schema-setup';
import type { HistoryStore } from './history-store';
import { TemporalServices } from './temporal-services';

/*
 * A stack-scoped group, not a construct (see temporal-services.ts): the servers' images and
 * execution role, the schema task and the four roles' services, under the construct paths every
 * deployed environment has. test/lib/temporal/constructs/stack-scoped/logical-ids.test.ts pins them.
 */

export interface TemporalServersProps {
  readonly environment: TemporalEnvironment;
  readonly preset: TemporalPreset;
  readonly cluster: ecs.Cluster;
  readonly capacityProvider: ecs.AsgCapacityProvider;
  readonly subnets: ec2.SubnetSelection;
  readonly securityGroup: ec2.SecurityGroup;
  /** The servers' and the schema task's one task role. */
  readonly taskRole: iam.IRole;
  readonly store: HistoryStore;
  readonly visibilityHost: string;
  readonly prometheus: Prometheus;
  readonly logRetention: logs.RetentionDays;
  readonly schemaLogs: logs.ILogGroup;
  readonly hibernation: HibernationSwitch;
}

/** The schema task, then history, matching, frontend and worker, from the store's server image. */
export class TemporalServers {
  readonly schema: SchemaSetup;
  readonly services: TemporalServices;
  /** Shared with the store probe: reads the Aurora store's secret only where the servers log in with it. */
  readonly executionRole: iam.IRole;
  readonly frontendAddress: string;
  /** A rolling deploy's ceiling: a preset may roll more gently than the environment. */
  readonly maximumPercent: number;
  readonly stopTimeout: Duration;

  constructor(scope: Construct, props: TemporalServersProps) {
    const { environment: e, preset, store, cluster, taskRole } = props;
    // Three execution roles: the schema task's alone reads the Aurora store's master password;
    // the servers' (and the store probe's) reads it only for a release that signs no IAM token;
    // the benchmark's never can.
    this.executionRole = executionRole(scope, 'ExecutionRole', 'Temporal server tasks and the store probe');
    const schemaExecutionRole = executionRole(scope, 'SchemaExecutionRole', 'Temporal schema task');
    const aurora = preset.store.engine === 'aurora-postgresql';
    const serverRef = aurora ? e.auroraPostgresql.images.server : e.images.server;
    const serverImage = containerImage(scope, 'ServerImage', serverRef);
    // The fork's image carries its schema tool; upstream's tools come in admin-tools.
    const schemaRef = aurora ? e.auroraPostgresql.images.schemaTool : serverRef;
    const schemaImage = aurora ? containerImage(scope, 'SchemaToolImage', schemaRef) : serverImage;
    this.frontendAddress = `frontend.${e.names.serviceNamespace}:${e.ports.frontend.grpc}`;

    this.schema = new SchemaSetup(scope, 'Schema', {
      cluster,
      capacityProvider: props.capacityProvider,
      subnets: props.subnets,
      securityGroup: props.securityGroup,
      image: schemaImage,
      user: schemaRef.user,
      taskRole,
      executionRole: schemaExecutionRole,
      ...e.schemaSetupTask,
      command: schemaCommand(e, preset.store.engine),
      environment: schemaEnvironment(e, preset.store.engine, {
        storeHost: store.host,
        tokenEndpoint: store.tokenEndpoint,
        visibilityHost: props.visibilityHost,
      }),
      secrets: store.schemaSecrets,
      logGroup: props.schemaLogs,
    });
    // RunTask needs the capacity providers associated with the cluster: CDK adds that
    // association under the cluster when it synthesizes, so depend on the whole cluster.
    this.schema.resource.node.addDependency(cluster);
    // Every server starts after the schema task, and the schema task once the store is reachable.
    this.schema.resource.node.addDependency(...store.ready);
    (this.schema.resource.node.defaultChild as CfnResource).addMetadata('cfn-lint', { config: { ignore_checks: ['W3005'] } });

    this.maximumPercent = preset.deployment?.maximumPercent ?? e.deployment.maximumPercent;
    this.stopTimeout = Duration.seconds(durationSeconds(e.deployment.stopTimeout));
    this.services = new TemporalServices(scope, {
      environment: e,
      preset,
      cluster,
      capacityProvider: props.capacityProvider,
      subnets: props.subnets,
      securityGroup: props.securityGroup,
      image: serverImage,
      user: serverRef.user,
      taskRole,
      executionRole: this.executionRole,
      store,
      endpoints: { storeHost: store.host, visibilityHost: props.visibilityHost, frontendAddress: this.frontendAddress },
      prometheus: props.prometheus,
      logRetention: props.logRetention,
      stopTimeout: this.stopTimeout,
      maximumPercent: this.maximumPercent,
      hibernation: props.hibernation,
      after: this.schema.resource,
    });
  }
}
