import { AutoScalingClient } from '@aws-sdk/client-auto-scaling';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import { DSQLClient } from '@aws-sdk/client-dsql';
import { ECRClient } from '@aws-sdk/client-ecr';
import { ECSClient } from '@aws-sdk/client-ecs';
import { IAMClient } from '@aws-sdk/client-iam';
import { PIClient } from '@aws-sdk/client-pi';
import { PricingClient } from '@aws-sdk/client-pricing';
import { RDSClient } from '@aws-sdk/client-rds';
import { Route53Client } from '@aws-sdk/client-route-53';
import { ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { SSMClient } from '@aws-sdk/client-ssm';

/** Where the companion commands send their AWS calls. */
export interface AwsTarget {
  readonly region: string;
  /** An AWS-API-compatible endpoint (a local emulator); AWS itself when absent. */
  readonly endpoint?: string;
}

/**
 * Client settings shared by every command: the adaptive retry mode backs off on throttling
 * (GetMetricData allows 50 calls a second per account) and retries transient faults.
 */
function clientConfig(target: AwsTarget) {
  return { region: target.region, endpoint: target.endpoint, maxAttempts: 8, retryMode: 'adaptive' as const };
}

/** The Price List API answers in us-east-1 (and two other regions), whatever region it prices. */
const pricingClient = (target: Pick<AwsTarget, 'endpoint'>) => new PricingClient(clientConfig({ region: 'us-east-1', endpoint: target.endpoint }));
const cloudWatchClient = (target: AwsTarget) => new CloudWatchClient(clientConfig(target));
const cloudFormationClient = (target: AwsTarget) => new CloudFormationClient(clientConfig(target));
const ecsClient = (target: AwsTarget) => new ECSClient(clientConfig(target));
const autoScalingClient = (target: AwsTarget) => new AutoScalingClient(clientConfig(target));
const dsqlClient = (target: AwsTarget) => new DSQLClient(clientConfig(target));
const logsClient = (target: AwsTarget) => new CloudWatchLogsClient(clientConfig(target));
/** @public loaded lazily with require(), which knip does not follow */
const rdsClient = (target: AwsTarget) => new RDSClient(clientConfig(target));
/** Route 53's API is global; the region only picks the partition. */
const route53Client = (target: AwsTarget) => new Route53Client(clientConfig(target));
/** @public loaded lazily with require(), which knip does not follow */
const serviceQuotasClient = (target: AwsTarget) => new ServiceQuotasClient(clientConfig(target));
const ecrClient = (target: AwsTarget) => new ECRClient(clientConfig(target));
const iamClient = (target: AwsTarget) => new IAMClient(clientConfig(target));
const ssmClient = (target: AwsTarget) => new SSMClient(clientConfig(target));
/** Performance Insights: where a writer's load waited. @public loaded lazily with require(), which knip does not follow */
const piClient = (target: AwsTarget) => new PIClient(clientConfig(target));

/**
 * Every client a command makes, by service: a run function takes them injected, so that a test
 * gives its own. @public loaded lazily with require() (aws/load-clients.ts), which knip does not follow
 */
export const AWS_CLIENTS = {
  autoScaling: autoScalingClient,
  cloudFormation: cloudFormationClient,
  cloudWatch: cloudWatchClient,
  dsql: dsqlClient,
  ecr: ecrClient,
  ecs: ecsClient,
  iam: iamClient,
  logs: logsClient,
  pricing: pricingClient,
  pi: piClient,
  rds: rdsClient,
  route53: route53Client,
  serviceQuotas: serviceQuotasClient,
  ssm: ssmClient,
} as const;
export type AwsClients = typeof AWS_CLIENTS;
