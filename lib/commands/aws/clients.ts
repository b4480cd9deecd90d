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
import { appendFileSync } from 'node:fs';
import { AWS_TIMEOUTS, requestHandlerSettings, withDeadline } from './deadline';
import { CALL_LOG_VARIABLE, IAM_PREFIX } from './iam-prefixes';

/** Where the companion commands send their AWS calls. */
export interface AwsTarget {
  readonly region: string;
  /** An AWS-API-compatible endpoint (a local emulator); AWS itself when absent. */
  readonly endpoint?: string;
}

/**
 * Client settings shared by every command: the adaptive retry mode backs off on throttling
 * (GetMetricData allows 50 calls a second per account) and retries transient faults; an attempt
 * ends when the endpoint does not connect or answer in time (deadline.ts bounds the whole call).
 */
function clientConfig(target: AwsTarget) {
  return {
    region: target.region,
    endpoint: target.endpoint,
    maxAttempts: 8,
    retryMode: 'adaptive' as const,
    requestHandler: requestHandlerSettings(AWS_TIMEOUTS.attemptSeconds),
  };
}

interface Stackable {
  middlewareStack: { add(m: (next: any, context: any) => (args: any) => Promise<any>, o: { step: 'initialize'; name: string }): void };
  send(command: { constructor: { name: string } }, options?: unknown): Promise<unknown>;
}

/**
 * The client, each call ending by its deadline (deadline.ts) and, when the call log is asked for,
 * its action (`ecs:ListTasks`) logged before it is sent.
 */
function logged<C extends Stackable>(client: C, pkg: keyof typeof IAM_PREFIX, target: AwsTarget): C {
  const log = process.env[CALL_LOG_VARIABLE];
  if (log)
    client.middlewareStack.add(
      (next, context) => (args) => {
        appendFileSync(log, `${IAM_PREFIX[pkg]}:${String(context.commandName).replace(/Command$/, '')}\n`);
        return next(args);
      },
      { step: 'initialize', name: 'operatorCallLog' },
    );
  const where = target.endpoint ?? `${IAM_PREFIX[pkg]} in ${target.region}`;
  // The prototype's send, read at each call: a test's mock of the class still answers.
  const send = (command: { constructor: { name: string } }, options?: object) =>
    withDeadline(`${IAM_PREFIX[pkg]}:${command.constructor.name.replace(/Command$/, '')}`, where, (abortSignal) =>
      Object.getPrototypeOf(client).send.call(client, command, { abortSignal, ...options }),
    );
  client.send = send as C['send'];
  return client;
}

/** The Price List API answers in us-east-1 (and two other regions), whatever region it prices. */
const pricingClient = ({ endpoint }: Pick<AwsTarget, 'endpoint'>) => {
  const target = { region: 'us-east-1', endpoint };
  return logged(new PricingClient(clientConfig(target)), 'client-pricing', target);
};
const cloudWatchClient = (target: AwsTarget) => logged(new CloudWatchClient(clientConfig(target)), 'client-cloudwatch', target);
const cloudFormationClient = (target: AwsTarget) => logged(new CloudFormationClient(clientConfig(target)), 'client-cloudformation', target);
const ecsClient = (target: AwsTarget) => logged(new ECSClient(clientConfig(target)), 'client-ecs', target);
const autoScalingClient = (target: AwsTarget) => logged(new AutoScalingClient(clientConfig(target)), 'client-auto-scaling', target);
const dsqlClient = (target: AwsTarget) => logged(new DSQLClient(clientConfig(target)), 'client-dsql', target);
const logsClient = (target: AwsTarget) => logged(new CloudWatchLogsClient(clientConfig(target)), 'client-cloudwatch-logs', target);
/** @public loaded lazily with require(), which knip does not follow */
const rdsClient = (target: AwsTarget) => logged(new RDSClient(clientConfig(target)), 'client-rds', target);
/** Route 53's API is global; the region only picks the partition. */
const route53Client = (target: AwsTarget) => logged(new Route53Client(clientConfig(target)), 'client-route-53', target);
/** @public loaded lazily with require(), which knip does not follow */
const serviceQuotasClient = (target: AwsTarget) => logged(new ServiceQuotasClient(clientConfig(target)), 'client-service-quotas', target);
const ecrClient = (target: AwsTarget) => logged(new ECRClient(clientConfig(target)), 'client-ecr', target);
const iamClient = (target: AwsTarget) => logged(new IAMClient(clientConfig(target)), 'client-iam', target);
const ssmClient = (target: AwsTarget) => logged(new SSMClient(clientConfig(target)), 'client-ssm', target);
/** Performance Insights: where a writer's load waited. @public loaded lazily with require(), which knip does not follow */
const piClient = (target: AwsTarget) => logged(new PIClient(clientConfig(target)), 'client-pi', target);

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
