import { EC2_INSTANCE_TYPES, type Ec2InstanceType } from './ec2-instance-types';
import { TEMPORAL_ROLES, type TemporalRole } from './temporal-roles';

/*
 * The one packing model: the synth-time capacity check and the `capacity` command both use
 * it. Tasks are packed first-fit decreasing (by CPU, then memory) onto identical instances,
 * each limited by CPU units, registered memory and awsvpc task slots (one ENI per task).
 * A pool fits when its steady state fits, and still fits while any one service rolls
 * (ECS starts the new tasks before it stops the old ones) or any one-shot task runs.
 *
 * It is a necessary condition, not a placement guarantee: ECS places with its own
 * strategies, so keep some slack beyond what this reports.
 */

export interface TaskShape {
  /** CPU units (1 vCPU = 1024). */
  readonly cpu: number;
  readonly memoryMiB: number;
}

interface ServiceDemand {
  readonly name: string;
  readonly task: TaskShape;
  readonly replicas: number;
  /** Extra tasks while the service rolls (see rollingDeployment). */
  readonly surge: number;
}

interface OneShotDemand {
  readonly name: string;
  readonly task: TaskShape;
}

export interface InstanceCapacity {
  readonly cpu: number;
  readonly memoryMiB: number;
  readonly tasks: number;
}

export interface PoolSpec {
  readonly pool: string;
  readonly instanceTypeName: string;
  readonly instanceType: Ec2InstanceType;
  readonly instances: number;
  readonly trunking: boolean;
  readonly reservedMemoryMiB: number;
  readonly services: readonly ServiceDemand[];
  readonly oneShots?: readonly OneShotDemand[];
}

interface InstanceLoad {
  readonly tasks: string[];
  cpu: number;
  memoryMiB: number;
}

export interface Packing {
  readonly instances: InstanceLoad[];
  /** Tasks that found no instance, by name. */
  readonly unplaced: Map<string, number>;
  /** What stopped the first unplaced task on each instance (cpu, memory or task slots). */
  readonly blockedBy: Map<Limit, number>;
}

type Limit = 'CPU' | 'memory' | 'awsvpc task slots';

export interface PoolPlan {
  readonly spec: PoolSpec;
  readonly capacity: InstanceCapacity;
  readonly steady: Packing;
  /** The situation that fits worst (most unplaced tasks; ties: least spare CPU). */
  readonly peak: { readonly during: string; readonly packing: Packing };
  readonly fits: boolean;
  /** One line naming the service and the shortfall; undefined when the pool fits. */
  readonly problem?: string;
  /** The fewest instances of this type that fit, or undefined if none up to 500 do. */
  readonly smallestFitting?: number;
}

/** What ECS gives tasks on one instance. */
export function instanceCapacity(type: Ec2InstanceType, trunking: boolean, reservedMemoryMiB: number): InstanceCapacity {
  return {
    cpu: type.vcpus * 1024,
    memoryMiB: type.ecsMemoryMiB - reservedMemoryMiB,
    tasks: trunking ? type.awsvpcTasks.trunked : type.awsvpcTasks.untrunked,
  };
}

/**
 * The deployment percentages a service rolls with, and how many extra tasks that means.
 * ECS rounds maximumPercent down, so a small service gets a higher maximum: a rolling
 * deploy must always be able to start at least one new task, or it never progresses.
 */
export function rollingDeployment(replicas: number, minimumHealthyPercent: number, maximumPercent: number) {
  const needed = replicas > 0 ? Math.ceil((100 * (replicas + 1)) / replicas) : maximumPercent;
  const max = Math.max(maximumPercent, needed);
  return { minimumHealthyPercent, maximumPercent: max, surge: Math.floor((replicas * max) / 100) - replicas };
}

/** First-fit decreasing of the given tasks onto `instances` identical instances. */
export function pack(tasks: ReadonlyArray<{ name: string; task: TaskShape; count: number }>, cap: InstanceCapacity, instances: number): Packing {
  const loads: InstanceLoad[] = Array.from({ length: instances }, () => ({ tasks: [], cpu: 0, memoryMiB: 0 }));
  const unplaced = new Map<string, number>();
  const blockedBy = new Map<Limit, number>();
  const order = [...tasks].sort((a, b) => b.task.cpu - a.task.cpu || b.task.memoryMiB - a.task.memoryMiB);
  for (const t of order) {
    for (let i = 0; i < t.count; i++) {
      const home = loads.find((l) => blocker(l, t.task, cap) === undefined);
      if (home) {
        home.tasks.push(t.name);
        home.cpu += t.task.cpu;
        home.memoryMiB += t.task.memoryMiB;
        continue;
      }
      if (unplaced.size === 0)
        for (const l of loads) {
          const b = blocker(l, t.task, cap)!;
          blockedBy.set(b, (blockedBy.get(b) ?? 0) + 1);
        }
      unplaced.set(t.name, (unplaced.get(t.name) ?? 0) + 1);
    }
  }
  return { instances: loads, unplaced, blockedBy };
}

function blocker(l: InstanceLoad, t: TaskShape, cap: InstanceCapacity): Limit | undefined {
  if (l.tasks.length + 1 > cap.tasks) return 'awsvpc task slots';
  if (l.cpu + t.cpu > cap.cpu) return 'CPU';
  if (l.memoryMiB + t.memoryMiB > cap.memoryMiB) return 'memory';
  return undefined;
}

/** Steady state, each service rolling, each one-shot running: every situation a pool must hold. */
function situations(spec: PoolSpec) {
  const steady = spec.services.map((s) => ({ name: s.name, task: s.task, count: s.replicas }));
  return [
    { during: 'steady state', tasks: steady },
    ...spec.services
      .filter((s) => s.surge > 0)
      .map((s) => ({ during: `a rolling deploy of ${s.name}`, tasks: [...steady, { name: s.name, task: s.task, count: s.surge }] })),
    ...(spec.oneShots ?? []).map((o) => ({ during: `the one-shot ${o.name} task`, tasks: [...steady, { name: o.name, task: o.task, count: 1 }] })),
  ];
}

function fitsWith(spec: PoolSpec, cap: InstanceCapacity, instances: number): boolean {
  return situations(spec).every((s) => pack(s.tasks, cap, instances).unplaced.size === 0);
}

export function planPool(spec: PoolSpec): PoolPlan {
  const cap = instanceCapacity(spec.instanceType, spec.trunking, spec.reservedMemoryMiB);
  const packed = situations(spec).map((s) => ({ during: s.during, packing: pack(s.tasks, cap, spec.instances) }));
  const unplacedCount = (p: Packing) => [...p.unplaced.values()].reduce((a, b) => a + b, 0);
  const spareCpu = (p: Packing) => p.instances.reduce((a, l) => a + cap.cpu - l.cpu, 0);
  const peak = [...packed].sort((a, b) => unplacedCount(b.packing) - unplacedCount(a.packing) || spareCpu(a.packing) - spareCpu(b.packing))[0];
  const failing = packed.find((p) => p.packing.unplaced.size > 0);
  let smallestFitting: number | undefined;
  for (let n = 1; n <= 500 && smallestFitting === undefined; n++) if (fitsWith(spec, cap, n)) smallestFitting = n;
  return {
    spec,
    capacity: cap,
    steady: packed[0].packing,
    peak,
    fits: !failing,
    problem: failing && describeShortfall(spec, cap, failing.during, failing.packing, smallestFitting),
    smallestFitting,
  };
}

function describeShortfall(spec: PoolSpec, cap: InstanceCapacity, during: string, p: Packing, smallest?: number): string {
  const [name, missing] = [...p.unplaced.entries()][0];
  const all = [...spec.services.map((s) => ({ name: s.name, task: s.task })), ...(spec.oneShots ?? [])];
  const task = all.find((s) => s.name === name)!.task;
  const limit = [...p.blockedBy.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const slots = `${cap.tasks} awsvpc tasks each ${spec.trunking ? 'with' : 'without'} ENI trunking`;
  const fix =
    smallest === undefined
      ? `no number of these instances fits (valid: tasks of at most ${cap.cpu / 1024} vCPU and ${cap.memoryMiB} MiB, or a larger instance type)`
      : `the smallest ${spec.pool} pool that fits is ${smallest} instances`;
  return (
    `${name}: ${missing} task(s) of ${task.cpu / 1024} vCPU / ${task.memoryMiB} MiB do not fit during ${during} on ` +
    `${spec.pool} (${spec.instances} × ${spec.instanceTypeName}: ${cap.cpu / 1024} vCPU, ${cap.memoryMiB} MiB, ${slots}); ` +
    `short of ${limit}; ${fix}`
  );
}

interface Sized {
  readonly vcpu: number;
  readonly memoryGiB: number;
}
interface Service extends Sized {
  readonly replicas: number;
}

/** What the model reads of a Temporal environment: declared here, so config can use the model without a cycle. */
export interface PoolEnvironment {
  readonly deployment: { readonly minimumHealthyPercent: number; readonly maximumPercent: number };
  readonly awsvpcTrunking: boolean;
  readonly ecsReservedMemoryMiB: number;
  readonly schemaSetupTask: Sized;
  /** The Temporal Web UI's task, on the main pool where a preset runs it: memory and an awsvpc slot, no CPU. */
  readonly ui: { readonly memoryGiB: number };
  /** Grafana's task, likewise. */
  readonly dashboards: { readonly memoryGiB: number };
}

/** What the model reads of a Temporal preset. */
export interface PoolPreset {
  /** A lower rolling-deploy ceiling than the environment's, for this preset. */
  readonly deployment?: { readonly maximumPercent: number };
  readonly capacity: {
    readonly main: { readonly instanceType: string; readonly instances: number };
    readonly benchmark: { readonly instanceType: string; readonly maxInstances: number };
  };
  readonly services: Readonly<Record<TemporalRole, Service>>;
  readonly ui: boolean;
  readonly dashboards: boolean;
  readonly benchmark: { readonly workers: Service; readonly generator: Sized };
}

/** The two capacity-provider pools of a Temporal preset, as the packing model sees them. */
export function temporalPoolSpecs(env: PoolEnvironment, preset: PoolPreset): [PoolSpec, PoolSpec] {
  const shape = (s: Sized): TaskShape => ({ cpu: s.vcpu * 1024, memoryMiB: s.memoryGiB * 1024 });
  const rolling = (name: string, s: Service): ServiceDemand => ({
    name,
    task: shape(s),
    replicas: s.replicas,
    surge: rollingDeployment(s.replicas, env.deployment.minimumHealthyPercent, preset.deployment?.maximumPercent ?? env.deployment.maximumPercent).surge,
  });
  const common = { trunking: env.awsvpcTrunking, reservedMemoryMiB: env.ecsReservedMemoryMiB };
  const { main, benchmark } = preset.capacity;
  return [
    {
      pool: 'main',
      instanceTypeName: main.instanceType,
      instanceType: EC2_INSTANCE_TYPES[main.instanceType],
      instances: main.instances,
      ...common,
      services: [
        ...TEMPORAL_ROLES.map((r) => rolling(r, preset.services[r])),
        ...(preset.ui ? [rolling('temporal-ui', { vcpu: 0, memoryGiB: env.ui.memoryGiB, replicas: 1 })] : []),
        ...(preset.dashboards ? [rolling('temporal-grafana', { vcpu: 0, memoryGiB: env.dashboards.memoryGiB, replicas: 1 })] : []),
      ],
      oneShots: [{ name: 'schema-setup', task: shape(env.schemaSetupTask) }],
    },
    {
      pool: 'benchmark',
      instanceTypeName: benchmark.instanceType,
      instanceType: EC2_INSTANCE_TYPES[benchmark.instanceType],
      instances: benchmark.maxInstances,
      ...common,
      services: [rolling('benchmark-worker', preset.benchmark.workers)],
      oneShots: [{ name: 'load-generator', task: shape(preset.benchmark.generator) }],
    },
  ];
}

/**
 * The most benchmark workers the benchmark pool holds at its maximum size, next to the one
 * load generator a run adds: what `bench up --workers` may ask for.
 */
export function benchmarkWorkerCapacity(
  env: PoolEnvironment,
  preset: PoolPreset,
): { readonly workers: number; readonly instances: number; readonly instanceType: string } {
  const spec = temporalPoolSpecs(env, preset)[1];
  const cap = instanceCapacity(spec.instanceType, spec.trunking, spec.reservedMemoryMiB);
  const [worker] = spec.services;
  const fits = (n: number) =>
    pack([{ name: worker.name, task: worker.task, count: n }, ...(spec.oneShots ?? []).map((o) => ({ ...o, count: 1 }))], cap, spec.instances).unplaced.size ===
    0;
  let workers = 0;
  while (workers < cap.tasks * spec.instances && fits(workers + 1)) workers++;
  return { workers, instances: spec.instances, instanceType: spec.instanceTypeName };
}
