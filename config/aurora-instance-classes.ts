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

/** vCPUs by instance size; an Aurora memory-optimized (r) class has 8 GiB per vCPU. */
const SIZE_VCPUS: Readonly<Record<string, number>> = {
  large: 2,
  xlarge: 4,
  '2xlarge': 8,
  '4xlarge': 16,
  '8xlarge': 32,
  '12xlarge': 48,
  '16xlarge': 64,
  '24xlarge': 96,
  '32xlarge': 128,
  '48xlarge': 192,
};
/** Burstable classes' memory, GiB. */
const T4G_GIB: Readonly<Record<string, number>> = { medium: 4, large: 8 };

/**
 * An Aurora PostgreSQL writer's default max_connections: LEAST({DBInstanceClassMemory/9531392}, 5000)
 * (Aurora User Guide, "Maximum connections to an Aurora PostgreSQL DB instance"); Serverless v2
 * counts 2 GiB per ACU at its maximum. DBInstanceClassMemory is a little under the class's memory,
 * so this is the most it can be.
 */
export function auroraMaxConnections(writer: { readonly instanceClass?: string; readonly serverlessAcu?: { readonly max: number } }): number {
  const [, family, size] = (writer.instanceClass ?? '').split('.');
  const gib = writer.serverlessAcu ? writer.serverlessAcu.max * 2 : family === 't4g' ? T4G_GIB[size] : SIZE_VCPUS[size] * 8;
  return Math.min(Math.floor((gib * 1024 ** 3) / 9_531_392), 5000);
}
