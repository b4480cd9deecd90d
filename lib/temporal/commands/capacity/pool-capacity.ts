import type { TemporalScenario } from '../../../../config';
import { EC2_INSTANCE_TYPES } from '../../../../config/ec2-instance-types';
import { type PriceFile, priceOf } from '../../../../config/prices';
import { DSQL_CONNECTION_RATE, type Headroom, temporalHeadroom } from '../../../../config/headroom';
import { type Packing, type PoolPlan, type PoolSpec, planPool, temporalPoolSpecs } from '../../../../config/packing';
import { HOURS_PER_DAY, usd } from '../../../commands/shared/money';
import { markdownTable } from '../../../commands/shared/markdown-table';
import { percent } from '../../../commands/shared/figure';

/*
 * The `capacity` command: the packing model of config/packing.ts (the same one the synth-time
 * check runs) applied to a preset's pools, with and without ENI trunking and on every
 * instance size of the catalog, priced per day.
 */

interface PoolOption {
  readonly instanceType: string;
  readonly trunking: boolean;
  /** Fewest instances that hold steady state, every rolling deploy and every one-shot task. */
  readonly smallestFitting?: number;
  readonly usdPerDay?: number;
}

interface PoolReport {
  readonly plan: PoolPlan;
  readonly usdPerDay: number;
  /** The configured instance type, with the other trunking setting. */
  readonly otherTrunking: PoolOption;
  /** Every instance size of the catalog, with the configured trunking, cheapest first. */
  readonly alternatives: readonly PoolOption[];
}

/** One instance family's price per vCPU-hour, at the size a pool is configured with. */
interface FamilyPrice {
  readonly family: string;
  readonly instanceType: string;
  readonly usdPerVcpuHour: number;
}

export interface CapacityReport {
  readonly scenario: TemporalScenario;
  readonly pools: readonly PoolReport[];
  /** Seed 000's "Scaling Headroom": DSQL connections and vCPUs against their limits. */
  readonly headroom: Headroom;
  /** Where the vCPU quota came from: config, or the Service Quotas API. */
  readonly quotaSource: string;
  /** Per pool: each Graviton family at the configured size, cheapest per vCPU first. */
  readonly perVcpu: Readonly<Record<string, readonly FamilyPrice[]>>;
}

export interface CapacityReportOptions {
  /** The account's vCPU quota as read from Service Quotas, replacing config's. */
  readonly vcpuQuota?: { readonly value: number; readonly source: string };
}

export function capacityReport(scenario: TemporalScenario, prices: PriceFile, options: CapacityReportOptions = {}): CapacityReport {
  const hourly = (type: string) => priceOf(prices, `ec2:${type}`).usd;
  const option = (spec: PoolSpec, instanceType: string, trunking: boolean): PoolOption => {
    const smallestFitting = planPool({ ...spec, instanceTypeName: instanceType, instanceType: EC2_INSTANCE_TYPES[instanceType], trunking }).smallestFitting;
    const price = prices.prices[`ec2:${instanceType}`]?.usd;
    return {
      instanceType,
      trunking,
      smallestFitting,
      ...(smallestFitting !== undefined && price !== undefined ? { usdPerDay: smallestFitting * price * HOURS_PER_DAY } : {}),
    };
  };
  const pools = temporalPoolSpecs(scenario.environment, scenario.preset).map((spec) => ({
    plan: planPool(spec),
    usdPerDay: spec.instances * hourly(spec.instanceTypeName) * HOURS_PER_DAY,
    otherTrunking: option(spec, spec.instanceTypeName, !spec.trunking),
    alternatives: Object.keys(EC2_INSTANCE_TYPES)
      .map((t) => option(spec, t, spec.trunking))
      .sort((a, b) => (a.usdPerDay ?? Infinity) - (b.usdPerDay ?? Infinity)),
  }));
  const env = scenario.environment;
  const limits = { ...env.limits, ...(options.vcpuQuota ? { ec2VcpuQuota: options.vcpuQuota.value } : {}) };
  const headroom = temporalHeadroom({ ...env, limits }, scenario.preset);
  const perVcpu = Object.fromEntries(
    pools.map((p) => {
      const size = p.plan.spec.instanceTypeName.split('.')[1];
      const families = [...new Set(Object.keys(EC2_INSTANCE_TYPES).map((t) => t.split('.')[0]))];
      const priced = families
        .map((family) => ({ family, instanceType: `${family}.${size}` }))
        .filter((f) => EC2_INSTANCE_TYPES[f.instanceType] && prices.prices[`ec2:${f.instanceType}`])
        .map((f) => ({ ...f, usdPerVcpuHour: priceOf(prices, `ec2:${f.instanceType}`).usd / EC2_INSTANCE_TYPES[f.instanceType].vcpus }))
        .sort((a, b) => a.usdPerVcpuHour - b.usdPerVcpuHour);
      return [p.plan.spec.pool, priced];
    }),
  );
  return { scenario, pools, headroom, quotaSource: options.vcpuQuota?.source ?? 'config (limits.ec2VcpuQuota)', perVcpu };
}

/** Seed 000's "Scaling Headroom" table, for any preset, with what the DSQL plugin's connection controls promise. */
/** Seed 000's "Scaling Headroom" table: each limit, what the preset uses of it, and what synth allows. */
export function renderHeadroom(r: CapacityReport): string[] {
  const h = r.headroom;
  const n = (v: number) => v.toLocaleString('en-US');
  const row = (what: string, used: number, limit: number, note: string) => [what, n(used), n(limit), pct(used, limit), note];
  const c = h.connections;
  const roles = c
    ? Object.entries(c.byRole)
        .map(([role, x]) => `${role} ${x.replicas} × ${x.perTask}`)
        .join(', ')
    : '';
  const rows = [
    ...(c
      ? [
          row('DSQL connections (steady)', c.steady.used, c.steady.limit, `each task at the most it holds (${c.held}): ${roles}`),
          row(
            `DSQL connections, rolling ${c.rolling.role}`,
            c.rolling.used,
            c.rolling.limit,
            `+${n(c.rolling.extra)}: its extra tasks' connections, one service rolling at a time`,
          ),
          ...(c.lease
            ? [
                row(
                  `Leased slots, rolling ${c.lease.role}`,
                  c.lease.used,
                  c.lease.limit,
                  `whole blocks of ${n(c.lease.blockSize)} per task; the lease's blocks × their size is the cap`,
                ),
              ]
            : []),
          row(
            'New DSQL connections/s (steady)',
            c.rate.churn.used,
            c.rate.churn.limit,
            `every held connection once per ${seconds(c.rate.lifetimeSeconds)} lifetime, against the limiter's pace (DSQL's is ${DSQL_CONNECTION_RATE.perSecond}/s)`,
          ),
        ]
      : []),
    row(
      'EC2 vCPUs (On-Demand standard)',
      h.vcpus.used,
      h.vcpus.limit,
      `both pools at their maximum: ${n(h.vcpus.main)} main + ${n(h.vcpus.benchmark)} benchmark; quota from ${r.quotaSource}`,
    ),
  ];
  const headroomPercent = r.scenario.environment.limits.headroomPercent;
  const burst = c && c.rate.burst > 0 ? `, after a burst of ${n(Math.min(c.rate.burst, DSQL_CONNECTION_RATE.burst))}` : '';
  return [
    '### Scaling Headroom',
    '',
    markdownTable(['Resource', 'Current', 'Limit', 'Utilization', 'Counted'], rows),
    '',
    `Synth refuses a preset above ${100 - headroomPercent}% of any limit (limits.headroomPercent ${headroomPercent}).` +
      (c
        ? ` At the limiter's ${n(Math.min(c.rate.limiterPerSecond, DSQL_CONNECTION_RATE.perSecond))} new connections/s${burst}, a rolling deploy of ${c.rolling.role} waits ${seconds(c.rate.rollingFillSeconds)} for its new tasks' ${n(c.rolling.extra)} connections, and the whole cluster ${seconds(c.rate.coldStartSeconds)} for its ${n(c.steady.used)} from nothing.`
        : " The Aurora store's connection limit is its writer's max_connections; DSQL's does not apply."),
    '',
  ];
}

/** 45 s, 12 min, 1.3 h: as a person reads a duration. */
const seconds = (s: number) => (s < 120 ? `${Math.round(s * 10) / 10} s` : s < 7200 ? `${Math.round(s / 6) / 10} min` : `${Math.round(s / 360) / 10} h`);

const pct = (used: number, of: number) => percent((100 * used) / of);

function load(p: PoolPlan, packing: Packing) {
  const cap = p.capacity;
  const n = packing.instances.length;
  const cpu = packing.instances.reduce((a, l) => a + l.cpu, 0);
  const mem = packing.instances.reduce((a, l) => a + l.memoryMiB, 0);
  const tasks = packing.instances.reduce((a, l) => a + l.tasks.length, 0);
  return {
    cpu: `${cpu / 1024} / ${(n * cap.cpu) / 1024} vCPU (${pct(cpu, n * cap.cpu)})`,
    memory: `${(mem / 1024).toFixed(1)} / ${((n * cap.memoryMiB) / 1024).toFixed(1)} GiB (${pct(mem, n * cap.memoryMiB)})`,
    slots: `${tasks} / ${n * cap.tasks} (${pct(tasks, n * cap.tasks)})`,
  };
}

const fewest = (o: PoolOption, type: string) => (o.smallestFitting === undefined ? 'none up to 500 fit' : `${o.smallestFitting} × ${type}`);
const trunkingName = (on: boolean) => (on ? 'with ENI trunking' : 'without ENI trunking');

export function renderCapacity(r: CapacityReport): string {
  const env = r.scenario.environment;
  return [
    `## Capacity: ${r.scenario.name}`,
    '',
    `${r.scenario.preset.title}. ENI trunking is ${env.awsvpcTrunking ? 'on' : 'off'} (config \`awsvpcTrunking\`); ${env.ecsReservedMemoryMiB} MiB reserved per instance; ` +
      `rolling deploys run up to ${r.scenario.preset.deployment?.maximumPercent ?? env.deployment.maximumPercent}% of a service.`,
    '',
    ...renderHeadroom(r),
    ...poolsTable(r),
    ...r.pools.flatMap((pool) => poolSections(r, pool)),
    'Steady state counts the services at their replica counts; a pool fits when it also holds any one service rolling and any one-shot task ' +
      '(schema setup, load generator). ECS places with its own strategies, so keep slack beyond the smallest fit.',
    '',
  ].join('\n');
}

/** One row a pool: what it is, what each instance gives, its steady load, whether it fits a rolling deploy, and the smallest that would. */
function poolsTable(r: CapacityReport): string[] {
  const env = r.scenario.environment;
  const rows = r.pools.map(({ plan, usdPerDay, otherTrunking }) => {
    const s = plan.spec;
    const steady = load(plan, plan.steady);
    const fewestNow: PoolOption = { instanceType: s.instanceTypeName, trunking: s.trunking, smallestFitting: plan.smallestFitting };
    const price = usdPerDay / s.instances;
    return [
      s.pool,
      `${s.instances} × ${s.instanceTypeName}`,
      `${plan.capacity.cpu / 1024} vCPU, ${(plan.capacity.memoryMiB / 1024).toFixed(1)} GiB, ${plan.capacity.tasks} tasks`,
      steady.cpu,
      steady.memory,
      steady.slots,
      plan.fits ? `yes; tightest: ${plan.peak.during}` : `**no**: ${plan.problem}`,
      `${fewest(fewestNow, s.instanceTypeName)} (${usd((plan.smallestFitting ?? NaN) * price)}/day)`,
      `${fewest(otherTrunking, s.instanceTypeName)}${otherTrunking.usdPerDay !== undefined ? ` (${usd(otherTrunking.usdPerDay)}/day)` : ''}`,
      usd(usdPerDay),
    ];
  });
  return [
    markdownTable(
      [
        'Pool',
        'Configured',
        'Each instance gives tasks',
        'CPU (steady)',
        'Memory (steady)',
        'awsvpc slots (steady)',
        'Fits with a rolling deploy',
        'Smallest that fits',
        `Smallest ${trunkingName(!env.awsvpcTrunking)}`,
        'Per day now',
      ],
      rows,
    ),
    '',
  ];
}

/** A pool's steady-state placement, instance by instance, and the fewest instances of each size, cheapest first. */
function poolSections(r: CapacityReport, { plan, alternatives }: CapacityReport['pools'][number]): string[] {
  const placement = plan.steady.instances.map((l, i) => {
    const names = new Map<string, number>();
    for (const t of l.tasks) names.set(t, (names.get(t) ?? 0) + 1);
    return [
      String(i + 1),
      [...names].map(([t, n]) => `${n} × ${t}`).join(', ') || '(empty)',
      `${l.cpu / 1024} vCPU`,
      `${(l.memoryMiB / 1024).toFixed(1)} GiB`,
      `${l.tasks.length}/${plan.capacity.tasks}`,
    ];
  });
  const priced = alternatives.filter((a) => a.usdPerDay !== undefined);
  const families = r.perVcpu[plan.spec.pool] ?? [];
  return [
    `### ${plan.spec.pool}: steady-state placement`,
    '',
    markdownTable(['Instance', 'Tasks', 'CPU', 'Memory', 'Slots'], placement),
    '',
    `### ${plan.spec.pool}: the fewest instances of each size ${trunkingName(plan.spec.trunking)}, cheapest first`,
    '',
    markdownTable(
      ['Instance type', 'Instances', 'Per day'],
      priced.map((a) => [a.instanceType, String(a.smallestFitting), usd(a.usdPerDay!)]),
    ),
    '',
    ...(families.length > 1
      ? [
          `Per vCPU at this size: ${families.map((f) => `${f.instanceType} $${f.usdPerVcpuHour.toFixed(4)}/vCPU-hour`).join(', ')}; ${families[0].family} is the cheaper per vCPU ` +
            '(Graviton4 is faster per vCPU, which this price does not count).',
          '',
        ]
      : []),
  ];
}
