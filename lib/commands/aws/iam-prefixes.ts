/** The IAM prefix of each SDK v3 client package the commands use: what their calls are authorized as. */
export const IAM_PREFIX: Readonly<Record<string, string>> = {
  'client-auto-scaling': 'autoscaling',
  'client-cloudformation': 'cloudformation',
  'client-cloudwatch': 'cloudwatch',
  'client-cloudwatch-logs': 'logs',
  'client-dsql': 'dsql',
  'client-ecr': 'ecr',
  'client-ecs': 'ecs',
  'client-iam': 'iam',
  'client-pi': 'pi',
  'client-pricing': 'pricing',
  'client-rds': 'rds',
  'client-route-53': 'route53',
  'client-service-quotas': 'servicequotas',
  'client-ssm': 'ssm',
};

/** The file a command appends each AWS call's IAM action to, a line each, when this variable names one: to audit it against its operator policy. */
export const CALL_LOG_VARIABLE = 'DB_BENCH_AWS_CALL_LOG';
