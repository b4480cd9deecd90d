import { Duration, SecretValue } from 'aws-cdk-lib/core';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import type { ClusterRole, ModuleRoute } from '../../../config';
import { moduleRouteNames } from '../../platform/contract/physical-names';
import { acknowledgeNag } from '../../platform/constructs/lint-acknowledgements';
import type { PairMember } from './aurora-pair';

export interface ModuleRoutingProps {
  readonly routes: readonly ModuleRoute[];
  readonly member: (role: ClusterRole) => PairMember;
  /** The shared admin credential (JSON with `username` and `password`). */
  readonly adminSecret: secretsmanager.ISecret;
  readonly encryptionKey: kms.IKey;
  readonly port: number;
  readonly databaseName: string;
  readonly manifestParameterName: string;
  readonly vpc: ec2.IVpc;
  /** The private zone the routes live in (`<module>.<zone>`). */
  readonly zoneName: string;
  readonly ttlSeconds: number;
}

/**
 * One Secrets Manager secret per FOLIO module, at a name that never changes, holding the
 * `DB_*` values FOLIO modules read; its host is the module's route, a CNAME in a private zone
 * (`<module>.<zone>`, and `<module>-reader.<zone>` for reads) that the phase points at the
 * module's cluster. An online move repoints the records within its pause (`npm run move
 * --online`); the next deploy of the phase writes the same values. Plus one SSM parameter
 * listing module -> cluster. A phase switch rewrites values only.
 */
export class ModuleRouting extends Construct {
  readonly secrets: ReadonlyMap<string, secretsmanager.Secret>;
  readonly manifest: ssm.StringParameter;
  readonly zone: route53.PrivateHostedZone;

  constructor(scope: Construct, id: string, props: ModuleRoutingProps) {
    super(scope, id);
    acknowledgeNag(
      this,
      'SMG4',
      "Module secrets are not rotated on their own: each is a deploy-time copy of the admin credential plus the module's host; changing the admin secret and redeploying rewrites them all.",
    );
    this.zone = new route53.PrivateHostedZone(this, 'Zone', {
      zoneName: props.zoneName,
      vpc: props.vpc,
      comment: "FOLIO modules' database routes: each module's name leads to the cluster that holds its schemas",
    });
    const ttl = Duration.seconds(props.ttlSeconds);
    const secrets = new Map<string, secretsmanager.Secret>();
    for (const route of props.routes) {
      const { cluster, hasReader } = props.member(route.cluster);
      const names = moduleRouteNames(props.zoneName, route.module);
      // An Aurora reader endpoint leads to the writer when the cluster has no reader: a route for
      // reads exists for every module, whatever cluster it moves to.
      new route53.CnameRecord(this, `${route.module}-route`, { zone: this.zone, recordName: names.writer, domainName: cluster.clusterEndpoint.hostname, ttl });
      new route53.CnameRecord(this, `${route.module}-reader-route`, {
        zone: this.zone,
        recordName: names.reader,
        domainName: cluster.clusterReadEndpoint.hostname,
        ttl,
      });
      const values: Record<string, SecretValue> = {
        DB_HOST: SecretValue.unsafePlainText(names.writer),
        DB_PORT: SecretValue.unsafePlainText(String(props.port)),
        DB_DATABASE: SecretValue.unsafePlainText(props.databaseName),
        DB_USERNAME: props.adminSecret.secretValueFromJson('username'),
        DB_PASSWORD: props.adminSecret.secretValueFromJson('password'),
      };
      if (hasReader) {
        values.DB_HOST_READER = SecretValue.unsafePlainText(names.reader);
        values.DB_PORT_READER = SecretValue.unsafePlainText(String(props.port));
      }
      // The construct id is the module name: the logical ID depends on nothing a phase changes.
      secrets.set(
        route.module,
        new secretsmanager.Secret(this, route.module, {
          secretName: route.secretName,
          description: `Database connection of ${route.module} (DB_* variables)`,
          encryptionKey: props.encryptionKey,
          secretObjectValue: values,
        }),
      );
    }
    this.secrets = secrets;

    const manifest = Object.fromEntries(
      [...props.routes]
        .sort((a, b) => a.module.localeCompare(b.module))
        .map((r) => [r.module, { cluster: r.cluster, clusterIdentifier: props.member(r.cluster).identifier, secret: r.secretName }]),
    );
    this.manifest = new ssm.StringParameter(this, 'Manifest', {
      parameterName: props.manifestParameterName,
      description: 'FOLIO module -> Aurora cluster routing of the deployed phase',
      stringValue: JSON.stringify(manifest),
    });
  }
}
