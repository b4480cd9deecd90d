/**
 * What the capacity model needs to know of an ECS container instance type.
 *
 * - vcpus, memoryMiB, maxEnis: `aws ec2 describe-instance-types` (VCpuInfo, MemoryInfo,
 *   NetworkInfo.MaximumNetworkInterfaces).
 * - ecsMemoryMiB: the memory the ECS agent registers on the ECS-optimized AL2023 AMI: the
 *   kernel's MemTotal, which sits about 3.5% under the nominal size. An estimate; read the
 *   real figure from `aws ecs describe-container-instances` (registeredResources) and
 *   correct it here.
 * - awsvpcTasks: tasks in `awsvpc` mode, one ENI each. Without ENI trunking the primary ENI
 *   is the instance's own, so maxEnis - 1; with the account setting `awsvpcTrunking` on,
 *   the ECS docs' per-type limit ("Supported Amazon EC2 instance types" under ENI trunking).
 */
export interface Ec2InstanceType {
  readonly vcpus: number;
  readonly memoryMiB: number;
  readonly ecsMemoryMiB: number;
  readonly maxEnis: number;
  readonly awsvpcTasks: { readonly untrunked: number; readonly trunked: number };
  readonly arch: 'arm64' | 'x86_64';
}

const graviton = (vcpus: number, maxEnis: number, trunked: number): Ec2InstanceType => ({
  vcpus,
  memoryMiB: vcpus * 4096,
  ecsMemoryMiB: Math.floor(vcpus * 4096 * 0.965),
  maxEnis,
  awsvpcTasks: { untrunked: maxEnis - 1, trunked },
  arch: 'arm64',
});

/**
 * The m7g (Graviton3) and m8g (Graviton4) sizes this project runs ECS on, 4 GiB per vCPU.
 * m8g's ENI and trunking limits are taken as m7g's size for size (both Nitro, same sizes);
 * confirm them with describe-instance-types and the ECS trunking table before relying on them.
 */
export const EC2_INSTANCE_TYPES: Readonly<Record<string, Ec2InstanceType>> = {
  'm7g.large': graviton(2, 3, 10),
  'm7g.xlarge': graviton(4, 4, 20),
  'm7g.2xlarge': graviton(8, 4, 40),
  'm7g.4xlarge': graviton(16, 8, 60),
  'm7g.8xlarge': graviton(32, 8, 60),
  'm7g.12xlarge': graviton(48, 8, 60),
  'm7g.16xlarge': graviton(64, 15, 120),
  'm8g.large': graviton(2, 3, 10),
  'm8g.xlarge': graviton(4, 4, 20),
  'm8g.2xlarge': graviton(8, 4, 40),
  'm8g.4xlarge': graviton(16, 8, 60),
  'm8g.8xlarge': graviton(32, 8, 60),
  'm8g.12xlarge': graviton(48, 8, 60),
  'm8g.16xlarge': graviton(64, 15, 120),
};
