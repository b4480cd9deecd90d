/*
 * The interface VPC endpoints each network creates, by construct id and AWS service short name
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

/**
 * What a task in the isolated database subnets needs to start: image pulls (ECR, with layers
 * from S3 through the gateway), logs, and the admin secret. One zone is enough for a one-shot
 * task, and costs a third.
 */
export const MOVER_ENDPOINTS = [
  ['MoverEcrApi', 'ecr.api'],
  ['MoverEcrDocker', 'ecr.dkr'],
  ['MoverLogs', 'logs'],
  ['MoverSecretsManager', 'secretsmanager'],
] as const;
