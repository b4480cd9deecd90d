import {
  Annotations,
  Duration,
  RemovalPolicy,
  aws_ec2 as ec2,
  aws_kms as kms,
  aws_rds as rds,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { ClusterRole, FolioEnvironment } from '../../config';
import { acknowledgeNag } from './lint-acknowledgements';
import { writerInstanceIdentifier } from '../contract/physical-names';
import { auroraPostgresEngine, enhancedMonitoringRole, tlsOnlyParameters, autoPauseDuration } from './aurora-postgres';

export interface AuroraPairProps {
  readonly vpc: ec2.IVpc;
  readonly subnets: ec2.SubnetSelection;
  readonly database: FolioEnvironment['database'];
  readonly names: FolioEnvironment['names'];
  /** Networks allowed to reach the databases' port; nothing else is. */
  readonly clientCidrs: readonly string[];
  readonly writerInstanceClass: string;
  readonly serverlessAcu: { readonly min: number; readonly max: number; readonly autoPause?: string };
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
 * The hybrid database layer: a provisioned Aurora PostgreSQL cluster beside a Serverless v2
 * cluster. Both exist in every phase, share one KMS key, subnet group, security group and
 * admin credential, so a phase switch changes sizes and routes but never creates a cluster.
 *
 * Logical IDs and physical names here are part of the data: changing a construct id or a
 * name replaces a cluster.
 */
export class AuroraPair extends Construct {
  readonly key: kms.Key;
  readonly adminSecret: rds.DatabaseSecret;
  readonly securityGroup: ec2.SecurityGroup;
  readonly provisioned: PairMember;
  readonly serverless: PairMember;

  constructor(scope: Construct, id: string, props: AuroraPairProps) {
    super(scope, id);
    const db = props.database;

    this.key = new kms.Key(this, 'Key', {
      description: 'Encrypts the hybrid Aurora clusters, their Performance Insights and secrets',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Both clusters take the same admin credential: a module moved between them keeps its
    // user and password, and only its host changes.
    this.adminSecret = new rds.DatabaseSecret(this, 'AdminSecret', {
      username: db.adminUsername,
      secretName: props.names.adminSecret,
      encryptionKey: this.key,
    });
    // Needed to open any snapshot taken on delete.
    this.adminSecret.applyRemovalPolicy(RemovalPolicy.RETAIN);
    acknowledgeNag(
      this.adminSecret,
      'SMG4',
      "Not rotated on a schedule: every module secret carries a copy of this password, set at deploy time, so a rotation would lock the modules out until the next deploy. Rotate by changing the secret and redeploying.",
    );

    this.securityGroup = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: props.vpc,
      description: 'Hybrid Aurora clusters: PostgreSQL from the FOLIO client networks only',
      allowAllOutbound: false,
    });
    for (const cidr of props.clientCidrs) {
      this.securityGroup.addIngressRule(ec2.Peer.ipv4(cidr), ec2.Port.tcp(db.port), `PostgreSQL from ${cidr}`);
    }

    const subnetGroup = new rds.SubnetGroup(this, 'SubnetGroup', {
      vpc: props.vpc,
      vpcSubnets: props.subnets,
      description: 'Database subnets of the hybrid Aurora clusters',
    });

    const engine = auroraPostgresEngine(db.engineVersion);
    const parameterGroup = tlsOnlyParameters(this, engine, 'Hybrid Aurora cluster parameters');
    const monitoringRole = db.monitoringIntervalSeconds > 0 ? enhancedMonitoringRole(this) : undefined;

    const common = {
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
      storageType: db.storageType === 'aurora-iopt1' ? rds.DBClusterStorageType.AURORA_IOPT1 : rds.DBClusterStorageType.AURORA,
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
    } satisfies Partial<rds.DatabaseClusterProps>;

    const instanceType = new ec2.InstanceType(props.writerInstanceClass.replace(/^db\./, ''));
    const provisionedName = props.names.provisionedCluster;
    const provisioned = new rds.DatabaseCluster(this, 'Provisioned', {
      ...common,
      clusterIdentifier: provisionedName,
      writer: rds.ClusterInstance.provisioned('Writer', { instanceType, instanceIdentifier: writerInstanceIdentifier(provisionedName) }),
      readers: Array.from({ length: db.provisionedReaders }, (_, i) =>
        rds.ClusterInstance.provisioned(`Reader${i + 1}`, { instanceType, instanceIdentifier: `${provisionedName}-reader-${i + 1}` }),
      ),
    });

    const serverlessName = props.names.serverlessCluster;
    const serverless = new rds.DatabaseCluster(this, 'Serverless', {
      ...common,
      clusterIdentifier: serverlessName,
      writer: rds.ClusterInstance.serverlessV2('Writer', { instanceIdentifier: writerInstanceIdentifier(serverlessName) }),
      serverlessV2MinCapacity: props.serverlessAcu.min,
      serverlessV2MaxCapacity: props.serverlessAcu.max,
      // At 0 ACU the writer pauses after this long without a connection (config says when).
      serverlessV2AutoPauseDuration: autoPauseDuration(props.serverlessAcu),
    });

    if (!props.protect)
      acknowledgeNag(this, 'RDS10', 'Deletion protection is lifted only by `-c unprotect=true`, the first of the two teardown steps; every other deploy turns it on.');
    for (const cluster of [provisioned, serverless]) {
      Annotations.of(cluster).acknowledgeWarning(
        '@aws-cdk/aws-rds:instancePerformanceInsightsOverridden',
        'Performance Insights is set once, on the cluster; its instances inherit it',
      );
    }
    this.provisioned = { cluster: provisioned, identifier: provisionedName, hasReader: db.provisionedReaders > 0 };
    this.serverless = { cluster: serverless, identifier: serverlessName, hasReader: false };
  }

  member(role: ClusterRole): PairMember {
    return role === 'provisioned' ? this.provisioned : this.serverless;
  }
}
