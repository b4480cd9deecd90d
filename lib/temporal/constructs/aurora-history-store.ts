import { Annotations, Duration, RemovalPolicy } from 'aws-cdk-lib/core';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as rds from 'aws-cdk-lib/aws-rds';
import { Construct } from 'constructs';
import type { TemporalEnvironment } from '../../../config';
import { acknowledgeNag, acknowledgeTeardown } from '../../platform/constructs/lint-acknowledgements';
import { writerInstanceIdentifier } from '../../platform/contract/physical-names';
import { auroraPostgresEngine, enhancedMonitoringRole, tlsOnlyParameters, autoPauseDuration } from '../../platform/constructs/aurora-postgres';
import { customerKey } from '../../platform/constructs/customer-key';

export interface AuroraHistoryStoreProps {
  readonly vpc: ec2.IVpc;
  readonly subnets: ec2.SubnetSelection;
  readonly settings: TemporalEnvironment['auroraPostgresql'];
  readonly clusterIdentifier: string;
  readonly secretName: string;
  /** The one writer: a provisioned class, or Serverless v2 within an ACU range. */
  readonly writer: { readonly instanceClass?: string; readonly serverlessAcu?: { readonly min: number; readonly max: number; readonly autoPause?: string } };
  /** Deletion protection; off only while tearing down. */
  readonly protect: boolean;
}

/**
 * Temporal's history on Aurora PostgreSQL: one writer (provisioned Graviton or Serverless v2),
 * encrypted with its own key, TLS only, in the private subnets, reachable from the servers
 * only, IAM authentication on. The master credential is generated into Secrets Manager; ECS
 * hands it to the schema container as an environment variable, and nothing else may read it
 * (the servers log in as their own user with IAM tokens: lib/temporal/contract/temporal-config.ts).
 */
export class AuroraHistoryStore extends Construct {
  readonly key: kms.Key;
  readonly secret: rds.DatabaseSecret;
  readonly securityGroup: ec2.SecurityGroup;
  readonly cluster: rds.DatabaseCluster;
  /** The configured cluster identifier (a literal: the dimension of its metrics). */
  readonly identifier: string;
  private readonly port: number;

  constructor(scope: Construct, id: string, props: AuroraHistoryStoreProps) {
    super(scope, id);
    const a = props.settings;
    this.identifier = props.clusterIdentifier;
    this.port = a.port;
    this.key = customerKey(this, "Encrypts Temporal's Aurora history store, its Performance Insights and its credential");
    this.secret = new rds.DatabaseSecret(this, 'Secret', { username: a.user, secretName: props.secretName, encryptionKey: this.key });
    // Needed to open any snapshot taken on delete.
    this.secret.applyRemovalPolicy(RemovalPolicy.RETAIN);
    acknowledgeNag(
      this.secret,
      'SMG4',
      'Not rotated on a schedule: the master password is read only by the schema task, for the few minutes it runs during a deploy (the servers and the store probe log in with IAM tokens). A scheduled rotation would need a rotation function in the VPC with a route to the writer for that; rotate by changing the secret, which the next schema run reads.',
    );
    this.securityGroup = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: props.vpc,
      description: 'Temporal Aurora history store: PostgreSQL from the Temporal servers only',
      allowAllOutbound: false,
    });

    const engine = auroraPostgresEngine(a.engineVersion);
    const parameterGroup = tlsOnlyParameters(this, engine, 'Temporal Aurora history store: TLS only');
    const monitoringRole = enhancedMonitoringRole(this);
    const writerIdentifier = writerInstanceIdentifier(props.clusterIdentifier);
    const writer = props.writer.instanceClass
      ? rds.ClusterInstance.provisioned('Writer', {
          instanceType: new ec2.InstanceType(props.writer.instanceClass.replace(/^db\./, '')),
          instanceIdentifier: writerIdentifier,
        })
      : rds.ClusterInstance.serverlessV2('Writer', { instanceIdentifier: writerIdentifier });
    this.cluster = new rds.DatabaseCluster(this, 'Cluster', {
      engine,
      clusterIdentifier: props.clusterIdentifier,
      vpc: props.vpc,
      vpcSubnets: props.subnets,
      securityGroups: [this.securityGroup],
      port: a.port,
      defaultDatabaseName: a.databaseName,
      credentials: rds.Credentials.fromSecret(this.secret),
      parameterGroup,
      writer,
      serverlessV2MinCapacity: props.writer.serverlessAcu?.min,
      serverlessV2MaxCapacity: props.writer.serverlessAcu?.max,
      serverlessV2AutoPauseDuration: props.writer.serverlessAcu && autoPauseDuration(props.writer.serverlessAcu),
      storageEncrypted: true,
      storageEncryptionKey: this.key,
      deletionProtection: props.protect,
      removalPolicy: RemovalPolicy.SNAPSHOT,
      copyTagsToSnapshot: true,
      backup: { retention: Duration.days(a.backupRetentionDays) },
      enablePerformanceInsights: true,
      performanceInsightRetention: a.performanceInsightsRetentionDays as rds.PerformanceInsightRetention,
      performanceInsightEncryptionKey: this.key,
      monitoringInterval: Duration.seconds(a.monitoringIntervalSeconds),
      monitoringRole,
      autoMinorVersionUpgrade: false,
      iamAuthentication: true,
      cloudwatchLogsExports: ['postgresql'],
    });
    Annotations.of(this.cluster).acknowledgeWarning(
      '@aws-cdk/aws-rds:instancePerformanceInsightsOverridden',
      'Performance Insights is set once, on the cluster; its writer inherits it',
    );
    if (!props.protect) acknowledgeTeardown(this, [this.cluster]);
  }

  /** The writer's endpoint: where the servers and the schema task connect. */
  get host(): string {
    return this.cluster.clusterEndpoint.hostname;
  }

  /** Lets `clients` connect on PostgreSQL's port, and nothing else in. */
  allowFrom(clients: ec2.IConnectable): void {
    this.securityGroup.connections.allowFrom(clients, ec2.Port.tcp(this.port), 'Temporal servers to the Aurora history store');
  }

  /** The password as an ECS secret; reading it is granted to the task definitions' execution role by ECS. */
  get password(): ecs.Secret {
    return ecs.Secret.fromSecretsManager(this.secret, 'password');
  }
}
