import { RemovalPolicy, Stack } from 'aws-cdk-lib/core';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import { Construct, type IConstruct } from 'constructs';
import { acknowledgeControl, acknowledgeNag, nagResource } from '../../platform/constructs/lint-acknowledgements';

export interface VisibilityDomainProps {
  readonly vpc: ec2.IVpc;
  /** One private subnet per availability zone the nodes spread over. */
  readonly subnets: ec2.SubnetSelection;
  readonly availabilityZoneCount: number;
  readonly domainName: string;
  /** e.g. OpenSearch_2.19 */
  readonly engineVersion: string;
  readonly instanceType: string;
  readonly instances: number;
  readonly volumeGiB: number;
  /** How long the domain's error log is kept. */
  readonly logRetention: logs.RetentionDays;
}

/**
 * Temporal's visibility store: an OpenSearch domain inside the VPC, encrypted at rest and
 * between nodes, HTTPS only (TLS 1.2+), reachable on 443 from the groups given to
 * `allowFrom`, and usable only with SigV4 by the principals given to `grantReadWrite`. Its
 * error log (OpenSearch's application log: rejected writes, mapping and query errors) goes to
 * CloudWatch, where a slow or failing visibility store explains itself after a run.
 * Retained when the stack goes.
 */
export class VisibilityDomain extends Construct {
  readonly domain: opensearch.Domain;
  readonly securityGroup: ec2.SecurityGroup;

  constructor(scope: Construct, id: string, props: VisibilityDomainProps) {
    super(scope, id);
    this.securityGroup = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: props.vpc,
      description: 'Temporal visibility (OpenSearch): HTTPS from the Temporal servers only',
      allowAllOutbound: false,
    });
    // The log group's resource policy names the domain by its ARN, built from the name: taking it
    // from the domain would make each wait for the other.
    const { partition, region, account } = Stack.of(this);
    const domainArn = `arn:${partition}:es:${region}:${account}:domain/${props.domainName}`;
    const errorLogs = new logs.LogGroup(this, 'ErrorLogs', { retention: props.logRetention, removalPolicy: RemovalPolicy.RETAIN });
    const logPolicy = new logs.ResourcePolicy(this, 'ErrorLogsPolicy', {
      policyStatements: [
        new iam.PolicyStatement({
          principals: [new iam.ServicePrincipal('es.amazonaws.com')],
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          resources: [errorLogs.logGroupArn],
          conditions: { StringEquals: { 'aws:SourceAccount': account }, ArnLike: { 'aws:SourceArn': domainArn } },
        }),
      ],
    });
    this.domain = new opensearch.Domain(this, 'Domain', {
      domainName: props.domainName,
      version: opensearch.EngineVersion.openSearch(props.engineVersion.replace(/^OpenSearch_/, '')),
      vpc: props.vpc,
      vpcSubnets: [{ ...props.subnets, onePerAz: true }],
      securityGroups: [this.securityGroup],
      zoneAwareness: { enabled: props.availabilityZoneCount > 1, availabilityZoneCount: props.availabilityZoneCount },
      capacity: {
        dataNodes: props.instances,
        dataNodeInstanceType: props.instanceType,
        multiAzWithStandbyEnabled: false,
      },
      ebs: { volumeSize: props.volumeGiB, volumeType: ec2.EbsDeviceVolumeType.GP3 },
      encryptionAtRest: { enabled: true },
      nodeToNodeEncryption: true,
      enforceHttps: true,
      tlsSecurityPolicy: opensearch.TLSSecurityPolicy.TLS_1_2,
      // CT.OPENSEARCH.PR.12. The policy above, not CDK's: CDK's is written by a Lambda-backed custom resource.
      logging: { appLogEnabled: true, appLogGroup: errorLogs },
      suppressLogsResourcePolicy: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.domain.node.addDependency(logPolicy);
    const acknowledge = (rule: string, reason: string) => acknowledgeNag(this.domain, rule, reason);
    acknowledge(
      'OS3',
      'Access is by network (a VPC domain whose security group admits only the Temporal servers) and by IAM (SigV4); an IP allow-list cannot name awsvpc tasks, whose addresses change on every deploy.',
    );
    acknowledge(
      'OS5',
      'No anonymous access is possible: the domain sits in private subnets, enforces HTTPS, and only principals granted es:ESHttp* by an identity policy in this account can sign requests.',
    );
    acknowledge(
      'OS4',
      'No dedicated master nodes: a visibility store for benchmark runs on 3 data nodes across zones; dedicated masters would add 3 more instances for a cluster this small.',
    );
    acknowledge(
      'OS9[LogExport::SEARCH_SLOW_LOGS]',
      "Slow logs are off: visibility queries are Temporal's own, and the dashboard's latency panels show when they slow down.",
    );
    const accessByIam =
      "Access is decided by IAM alone: a VPC domain whose security group admits only the Temporal servers, and es:ESHttp* granted by identity policy to the servers' and schema task's roles, which Temporal signs with SigV4. Fine-grained access control would add an internal user database and a master user to a store that has one client, and turning it on later is a blue/green redeploy of the domain.";
    acknowledgeControl(this.domain, 'CT.OPENSEARCH.PR.15', accessByIam);
    acknowledgeControl(
      this.domain,
      'CT.OPENSEARCH.PR.13',
      `OpenSearch's audit log requires fine-grained access control, which this domain leaves off (CT.OPENSEARCH.PR.15). Who may call the domain is IAM's decision, and CloudTrail records the domain's configuration calls.`,
    );
    acknowledge(
      'OS9[LogExport::INDEX_SLOW_LOGS]',
      "Slow logs are off: indexing is Temporal's own visibility writes, and the dashboard's latency panels show when they slow down.",
    );
  }

  /** HTTPS from a group of clients. */
  allowFrom(peer: ec2.ISecurityGroup): void {
    this.securityGroup.addIngressRule(peer, ec2.Port.tcp(443), 'HTTPS from the Temporal servers');
  }

  /**
   * Index and search over HTTPS, signed with the grantee's credentials. An identity policy
   * on the grantee is enough within the account: the domain has no resource policy, and no
   * anonymous access.
   */
  grantReadWrite(grantee: iam.IGrantable & IConstruct): void {
    this.domain.grantReadWrite(grantee);
    acknowledgeNag(
      grantee,
      `IAM5[Resource::${nagResource(this, this.domain.domainArn)}/*]`,
      'Index paths under this one domain: Temporal creates and reads its visibility indices by name at run time.',
    );
  }
}
