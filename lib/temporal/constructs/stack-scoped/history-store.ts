import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as ecs from 'aws-cdk-lib/aws-ecs';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { TemporalEnvironment, TemporalPreset } from '../../../../config';
import { PASSWORD_VARIABLE, type StoreWiring, auroraServerLogin } from '../../contract/temporal-config';
import { AuroraHistoryStore } from '../aurora-history-store';
import { DsqlCluster } from '../dsql-cluster';
import { HistoryStoreGuard } from '../history-store-guard';
import { DsqlPluginTable } from '../dsql-plugin-table';

/*
 * A stack-scoped group, not a construct: it has no id and adds its resources to the stack it is
 * given, under the construct paths (and so the logical IDs) every deployed environment has. Made
 * into a construct, its resources would move under a new path and CloudFormation would replace
 * them: the DSQL cluster or the Aurora store and its secret, with their data.
 * test/lib/temporal/constructs/stack-scoped/logical-ids.test.ts pins those IDs.
 */

export interface HistoryStoreProps {
  readonly environment: TemporalEnvironment;
  /** The preset's store: its engine, and for aurora-postgresql its writer. */
  readonly store: TemporalPreset['store'];
  readonly protect: boolean;
  readonly vpc: ec2.IVpc;
  readonly subnets: ec2.SubnetSelection;
  /** The servers' security group: the only one that reaches the store. */
  readonly servers: ec2.SecurityGroup;
  /** The servers' task role: DSQL connect and the limiter's counter are granted to it. */
  readonly taskRole: iam.IRole;
  /** The NAT gateways' public addresses: DSQL's one path in when the environment reaches it over NAT. */
  readonly natAddresses: readonly string[];
  /** The DynamoDB gateway endpoint the limiter is reached through. */
  readonly dynamoDbEndpoint: Construct;
  /** The schema task's log group, where the guard and the cluster policy's function log. */
  readonly logGroup: logs.ILogGroup;
}

/**
 * Temporal's history store, the one an environment keeps for life: Aurora DSQL with the
 * DynamoDB table that rate-limits its new connections (the fork's plugin), or an Aurora
 * PostgreSQL writer (upstream's driver), behind the guard that refuses a changed store or
 * shard count before any store resource changes.
 */
export class HistoryStore {
  readonly guard: HistoryStoreGuard;
  readonly dsql?: DsqlCluster;
  readonly limiter?: DsqlPluginTable;
  readonly lease?: DsqlPluginTable;
  readonly aurora?: AuroraHistoryStore;
  /** The host the servers connect to. */
  readonly host: string;
  /** DSQL's endpoint, for which the servers sign their IAM tokens. */
  readonly tokenEndpoint?: string;
  /** What the server's environment needs to reach the store. */
  readonly wiring: StoreWiring;
  /** Secrets a server gets: Aurora's password where its release cannot sign IAM tokens, else none. */
  readonly secrets: Record<string, ecs.Secret>;
  /** Secrets the schema task gets: Aurora's password (it logs in as the master user), none for DSQL. */
  readonly schemaSecrets: Record<string, ecs.Secret>;
  /** The password the servers (and so the store probe) log in with, where they use one. */
  readonly password?: ecs.Secret;
  /** What must exist before any task connects. */
  readonly ready: Construct[];

  constructor(scope: Construct, props: HistoryStoreProps) {
    const { environment: e, store } = props;
    const servers = e.servers;
    const server =
      store.engine === 'dsql'
        ? { release: servers.dsqlFork.upstream.branchedAfter, schemaVersion: e.persistence.schema.version }
        : { release: servers.upstream.release, schemaVersion: servers.upstream.schemas.history };
    this.guard = new HistoryStoreGuard(scope, 'HistoryStore', {
      store: store.engine,
      numHistoryShards: e.persistence.numHistoryShards,
      server,
      logGroup: props.logGroup,
    });
    if (store.engine === 'dsql') {
      const dsql = new DsqlCluster(scope, 'Dsql', { name: e.names.cluster, protect: props.protect });
      const limiter = new DsqlPluginTable(scope, 'RateLimiter', { tableName: e.names.rateLimiterTable });
      // Kept whether or not the preset leases (a preset switch never creates or deletes it); granted only when it does.
      const lease = new DsqlPluginTable(scope, 'ConnectionLease', { tableName: e.names.connectionLeaseTable });
      this.guard.guard(dsql);
      if (e.persistence.network === 'privatelink') dsql.connectThroughPrivateLink(props.vpc, props.subnets, props.servers, e.persistence.port);
      else props.servers.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(e.persistence.port), 'Aurora DSQL public endpoint through NAT (IAM auth, TLS)');
      dsql.admitOnlyTheEnvironment(props.natAddresses, props.logGroup);
      dsql.grantConnectAdmin(props.taskRole);
      const c = store.connections;
      if (c.limiter.kind === 'counter') limiter.grantItems(props.taskRole, 'dynamodb:UpdateItem');
      if (c.limiter.kind === 'token-bucket') limiter.grantItems(props.taskRole, 'dynamodb:GetItem', 'dynamodb:UpdateItem');
      if (c.lease) lease.grantItems(props.taskRole, 'dynamodb:PutItem', 'dynamodb:UpdateItem');
      [this.dsql, this.limiter, this.lease] = [dsql, limiter, lease];
      this.host = dsql.connectHost;
      this.tokenEndpoint = dsql.endpoint;
      this.wiring = {
        engine: 'dsql',
        rateLimiterTable: limiter.table.tableName,
        connectionLeaseTable: lease.table.tableName,
        tokenEndpoint: dsql.endpoint,
        connections: c,
      };
      this.secrets = {};
      this.schemaSecrets = {};
      // Every new DSQL connection first goes through the limiter's (and the lease's) table; a
      // DynamoDB error fails the connection, so the tables and the route to them come before any
      // server. The PrivateLink name resolves only once the endpoint exists.
      this.ready = [limiter, lease, props.dynamoDbEndpoint, ...(dsql.privateEndpoint ? [dsql.privateEndpoint] : [])];
    } else {
      const aurora = new AuroraHistoryStore(scope, 'Aurora', {
        vpc: props.vpc,
        subnets: props.subnets,
        settings: e.auroraPostgresql,
        clusterIdentifier: e.names.auroraCluster,
        secretName: e.names.auroraSecret,
        writer: store.writer,
        protect: props.protect,
      });
      this.guard.guard(aurora);
      aurora.allowFrom(props.servers);
      this.aurora = aurora;
      this.host = aurora.host;
      this.wiring = { engine: 'aurora-postgresql' };
      // Servers that sign a token per connection log in as their own user (which the schema
      // task creates): rds-db:connect for that user alone, and no password.
      const login = auroraServerLogin(e);
      if (login.iam) aurora.cluster.grantConnect(props.taskRole, login.user);
      this.secrets = login.iam ? {} : { [PASSWORD_VARIABLE]: aurora.password };
      this.schemaSecrets = { [PASSWORD_VARIABLE]: aurora.password };
      this.password = login.iam ? undefined : aurora.password;
      this.ready = [aurora.cluster];
    }
  }
}
