/*
 * The interface VPC endpoints the FOLIO network creates for the mover, by construct id and AWS service short name
 * (`com.amazonaws.<region>.<name>`). Plain data: the constructs create them, and the cost
 * command counts them without loading the CDK.
 */

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
