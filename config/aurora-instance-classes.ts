/**
 * DB instance classes that Aurora PostgreSQL offers, by family (Aurora User Guide,
 * "Supported DB engines for DB instance classes"). Which minor versions support a class
 * varies: confirm with `aws rds describe-orderable-db-instance-options --engine aurora-postgresql`.
 */
export const AURORA_POSTGRES_INSTANCE_CLASSES: Readonly<Record<string, readonly string[]>> = {
  r6g: ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge'],
  r6i: ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '32xlarge'],
  r7g: ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge'],
  r7i: ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge'],
  r8g: ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge'],
  t4g: ['medium', 'large'],
};
