/*
 * The interface VPC endpoints the Temporal network creates, by construct id and AWS service short name
 * (`com.amazonaws.<region>.<name>`). Plain data: the constructs create them, and the cost
 * command counts them without loading the CDK.
 */

/** The Temporal network's endpoints, one per private subnet each: the APIs every task calls. */
export const SERVICE_NETWORK_ENDPOINTS = [
  ['EcrApi', 'ecr.api'],
  ['EcrDocker', 'ecr.dkr'],
  ['Logs', 'logs'],
  ['SecretsManager', 'secretsmanager'],
  ['Ssm', 'ssm'],
  ['Prometheus', 'aps-workspaces'],
] as const;
