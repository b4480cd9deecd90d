import { Annotations, Duration, RemovalPolicy } from 'aws-cdk-lib/core';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as rds from 'aws-cdk-lib/aws-rds';
import { Construct } from 'constructs';
import type { ClusterRole, FolioEnvironment, FolioPhase } from '../../../config';
import type { AuroraStorageType } from '../../../config/fields';
import { acknowledgeNag, acknowledgeTeardown } from '../../platform/constructs/lint-acknowledgements';
import { readerInstanceIdentifier, writerInstanceIdentifier } from '../../platform/contract/physical-names';
import { auroraPostgresEngine, enhancedMonitoringRole, tlsOnlyParameters, autoPauseDuration } from '../../platform/constructs/aurora-postgres';
import { customerKey } from '../../platform/constructs/customer-key';

export interface AuroraPairProps {
  readonly vpc: ec2.IVpc;
  readonly subnets: ec2.SubnetSelection;
  readonly database: FolioEnvironment['database'];
  readonly names: FolioEnvironment['names'];
  /** Networks allowed to reach the databases' port; nothing else is. */
  readonly clientCidrs: readonly string[];
  readonly primaryInstanceClass: string;
  /** What the offload cluster is in this phase: Serverless v2 or provisioned. */
  readonly offload: FolioPhase['offload'];
  readonly storage: Readonly<Record<ClusterRole, AuroraStorageType>>;
  /** Deletion protection on both clusters; off only while tearing down. */
  readonly protect: boolean;
}

/** One cluster of the pair, as the routing needs it. */
export interface PairMember {
  readonly cluster: rds.DatabaseCluster;
  /** The configured cluster identifier (a literal, unlike `cluster.clusterIdentifier`). */
  readonly identifier: string;
  readonly hasReader: boolean;
}

/**
 * The hybrid database layer: the primary Aurora PostgreSQL cluster beside the offload cluster,
 * whose writer is Serverless v2 or provisioned as the phase says. Both exist in every phase,
 * share one KMS key, subnet group, security group and admin credential, so a phase switch
 * changes sizes, kinds and routes but never creates a cluster: Serverless v2 and provisioned
 * are instance classes of one cluster (db.serverless or db.r8g...), and the writer keeps its
 * construct id either way, so the switch is an in-place class change.
 *
 * Logical IDs and physical names here are part of the data: changing a construct id or a
 * name replaces a cluster. The construct ids 'Provisioned' and 'Serverless' predate the offload
 * cluster's provisioned kind and stay for that reason.
 */
export class AuroraPair extends Construct {
  readonly key: kms.Key;
  readonly adminSecret: rds.DatabaseSecret;
  readonly securityGroup: ec2.SecurityGroup;
  readonly primary: PairMember;
  readonly offload: PairMember;

  constructor(scope: Construct, id: string, props: AuroraPairProps) {
    super(scope, id);
    this.key = customerKey(this, 'Encrypts the hybrid Aurora clusters, their Performance Insights and secrets');
    this.adminSecret = this.sharedAdminSecret(props);
    this.securityGroup = this.clientsOnly(props);
    const common = this.commonClusterProps(props);

    const primaryName = props.names.primaryCluster;
    const primary = new rds.DatabaseCluster(this, 'Provisioned', {
      ...common,
      clusterIdentifier: primaryName,
      storageType: storageType(props.storage.primary),
      ...provisionedInstances(primaryName, props.primaryInstanceClass, props.database.primaryReaders),
    });

    const offloadName = props.names.offloadCluster;
    const { serverless: acu, provisioned: offloadInstances } = props.offload;
    const offload = new rds.DatabaseCluster(this, 'Serverless', {
      ...common,
      clusterIdentifier: offloadName,
      storageType: storageType(props.storage.offload),
      ...(acu
        ? {
            writer: rds.ClusterInstance.serverlessV2('Writer', { instanceIdentifier: writerInstanceIdentifier(offloadName) }),
            serverlessV2MinCapacity: acu.min,
            serverlessV2MaxCapacity: acu.max,
            // At 0 ACU the writer pauses after this long without a connection (config says when).
            serverlessV2AutoPauseDuration: autoPauseDuration(acu),
          }
        : provisionedInstances(offloadName, offloadInstances!.instanceClass, offloadInstances!.readers)),
    });

    if (!props.protect) acknowledgeTeardown(this, [primary, offload]);
    for (const cluster of [primary, offload]) {
      Annotations.of(cluster).acknowledgeWarning(
        '@aws-cdk/aws-rds:instancePerformanceInsightsOverridden',
        'Performance Insights is set once, on the cluster; its instances inherit it',
      );
    }
    this.primary = { cluster: primary, identifier: primaryName, hasReader: props.database.primaryReaders > 0 };
    this.offload = { cluster: offload, identifier: offloadName, hasReader: (offloadInstances?.readers ?? 0) > 0 };
  }

  /**
   * Both clusters take the same admin credential: a module moved between them keeps its user
   * and password, and only its host changes. Retained: it opens any snapshot taken on delete.
   */
  private sharedAdminSecret(props: AuroraPairProps): rds.DatabaseSecret {
    const secret = new rds.DatabaseSecret(this, 'AdminSecret', {
      username: props.database.adminUsername,
      secretName: props.names.adminSecret,
      encryptionKey: this.key,
    });
    secret.applyRemovalPolicy(RemovalPolicy.RETAIN);
    acknowledgeNag(
      secret,
      'SMG4',
      'Not rotated on a schedule: every module secret carries a copy of this password, set at deploy time, so a rotation would lock the modules out until the next deploy. Rotate by changing the secret and redeploying.',
    );
    return secret;
  }

  /** PostgreSQL from the client networks, and between the two clusters (an online move's subscription); nothing else. */
  private clientsOnly(props: AuroraPairProps): ec2.SecurityGroup {
    const port = ec2.Port.tcp(props.database.port);
    const group = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: props.vpc,
      description: 'Hybrid Aurora clusters: PostgreSQL from the FOLIO client networks only',
      allowAllOutbound: false,
    });
    for (const cidr of props.clientCidrs) group.addIngressRule(ec2.Peer.ipv4(cidr), port, `PostgreSQL from ${cidr}`);
    group.addIngressRule(group, port, 'PostgreSQL from the other cluster: logical replication of online module moves');
    group.addEgressRule(group, port, 'PostgreSQL to the other cluster: logical replication of online module moves');
    return group;
  }

  /** What both clusters share: network, engine and parameters, credential, encryption, backups, monitoring, logs. */
  private commonClusterProps(props: AuroraPairProps) {
    const db = props.database;
    const subnetGroup = new rds.SubnetGroup(this, 'SubnetGroup', {
      vpc: props.vpc,
      vpcSubnets: props.subnets,
      description: 'Database subnets of the hybrid Aurora clusters',
    });
    const engine = auroraPostgresEngine(db.engineVersion);
    // Logical replication carries online module moves (npm run move -- --online). Static: it takes
    // effect when each cluster's writer next reboots; `npm run plan` says so when it changes.
    const parameterGroup = tlsOnlyParameters(this, engine, 'Hybrid Aurora cluster parameters', { 'rds.logical_replication': '1' });
    const monitoringRole = db.monitoringIntervalSeconds > 0 ? enhancedMonitoringRole(this) : undefined;
    return {
      engine,
      vpc: props.vpc,
      vpcSubnets: props.subnets,
      subnetGroup,
      securityGroups: [this.securityGroup],
      port: db.port,
      defaultDatabaseName: db.databaseName,
      credentials: rds.Credentials.fromPassword(db.adminUsername, this.adminSecret.secretValueFromJson('password')),
      parameterGroup,
      storageEncrypted: true,
      storageEncryptionKey: this.key,
      deletionProtection: props.protect,
      removalPolicy: RemovalPolicy.SNAPSHOT,
      copyTagsToSnapshot: true,
      backup: { retention: Duration.days(db.backupRetentionDays) },
      enablePerformanceInsights: true,
      performanceInsightRetention: db.performanceInsightsRetentionDays as rds.PerformanceInsightRetention,
      performanceInsightEncryptionKey: this.key,
      monitoringInterval: monitoringRole ? Duration.seconds(db.monitoringIntervalSeconds) : undefined,
      monitoringRole,
      autoMinorVersionUpgrade: false,
      // Password logins stay (FOLIO's modules use them); IAM tokens are allowed besides.
      iamAuthentication: true,
      // PostgreSQL's log in CloudWatch Logs (/aws/rds/cluster/<id>/postgresql): what a slow
      // phase left behind (lock waits, errors, the mover's and modules' sessions). In place.
      cloudwatchLogsExports: ['postgresql'],
    } satisfies Partial<rds.DatabaseClusterProps>;
  }

  member(role: ClusterRole): PairMember {
    return role === 'primary' ? this.primary : this.offload;
  }
}

const storageType = (t: AuroraStorageType) => (t === 'aurora-iopt1' ? rds.DBClusterStorageType.AURORA_IOPT1 : rds.DBClusterStorageType.AURORA);

/** A provisioned writer and its readers, all of one class; ids and names that a class change keeps. */
function provisionedInstances(clusterName: string, instanceClass: string, readers: number): Pick<rds.DatabaseClusterProps, 'writer' | 'readers'> {
  const instanceType = new ec2.InstanceType(instanceClass.replace(/^db\./, ''));
  return {
    writer: rds.ClusterInstance.provisioned('Writer', { instanceType, instanceIdentifier: writerInstanceIdentifier(clusterName) }),
    readers: Array.from({ length: readers }, (_, i) =>
      rds.ClusterInstance.provisioned(`Reader${i + 1}`, { instanceType, instanceIdentifier: readerInstanceIdentifier(clusterName, i + 1) }),
    ),
  };
}
