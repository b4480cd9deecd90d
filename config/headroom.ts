import { EC2_INSTANCE_TYPES } from './ec2-instance-types';
import { durationSeconds } from './fields';
import { rollingDeployment } from './packing';
import { TEMPORAL_ROLES, type TemporalRole } from './temporal-roles';

/*
 * How far a Temporal preset is from the two limits it can hit before anything else: Aurora
 * DSQL's connections per cluster, and the account's On-Demand vCPU quota. Seed 000's "Scaling
 * Headroom" table, computed: the synth-time check (temporal-schema.ts) and `npm run capacity`
 * read the same figures. Structural input types, so config needs no import of the schema.
 */

interface Limits {
  readonly dsqlConnectionsPerCluster: number;
  readonly ec2VcpuQuota: number;
  readonly headroomPercent: number;
}
interface HeadroomEnvironment {
  readonly deployment: { readonly minimumHealthyPercent: number; readonly maximumPercent: number };
  readonly limits: Limits;
  readonly persistence: {
    readonly pool: { readonly maxConnLifetime: string };
    readonly connectionRateLimits: Readonly<Record<TemporalRole, { readonly perSecond: number; readonly burst: number }>>;
  };
}
/** The DSQL plugin's connection controls (config/temporal-schema.ts), as far as they bound connections. */
interface ConnectionControls {
  readonly limiter:
    | { readonly kind: 'per-task' }
    | { readonly kind: 'counter'; readonly perSecond: number }
    | { readonly kind: 'token-bucket'; readonly perSecond: number; readonly burst: number };
  readonly reservoir?: { readonly baseLifetime: string; readonly lifetimeJitter: string };
  readonly lease?: { readonly blockSize: number; readonly blockCount: number };
}
interface HeadroomPreset {
  readonly store: { readonly engine: 'dsql'; readonly connections: ConnectionControls } | { readonly engine: 'aurora-postgresql' };
  readonly capacity: {
    readonly main: { readonly instanceType: string; readonly instances: number };
    readonly benchmark: { readonly instanceType: string; readonly maxInstances: number };
  };
  readonly services: Readonly<Record<TemporalRole, { readonly replicas: number }>>;
  readonly pools: Readonly<Record<TemporalRole, { readonly maxConns: number }>>;
  readonly deployment?: { readonly maximumPercent: number };
}

interface Figure {
  readonly used: number;
  readonly limit: number;
  /** The limit less the configured headroom: what a preset may use. */
  readonly allowed: number;
}

interface RoleConnections {
  readonly replicas: number;
  readonly maxConns: number;
  readonly surge: number;
  /** The most one task holds open: its pool, plus as many ready in its reservoir, capped by its leased slots. */
  readonly perTask: number;
  /** Slots one task leases (whole blocks covering its pool); 0 without the lease. */
  readonly slots: number;
}

export interface Headroom {
  /** DSQL connections: every task at the most it holds; null for a store that is not DSQL. */
  readonly connections: null | {
    readonly byRole: Readonly<Record<TemporalRole, RoleConnections>>;
    readonly steady: Figure;
    /** Steady plus the extra tasks of the one service rolling at a time (services roll in order). */
    readonly rolling: Figure & { readonly role: TemporalRole; readonly extra: number };
    /** How a preset holds that many: 'pools', 'pools and reservoirs', with ', leased' when the lease caps them. */
    readonly held: string;
    /** The lease's slots in use at a rolling deploy's peak, against the blocks it offers; null without the lease. */
    readonly lease: null | (Figure & { readonly role: TemporalRole; readonly extra: number; readonly blockSize: number });
    /** New connections per second: DSQL's 100/s (burst 1,000) against what the preset asks of it. */
    readonly rate: {
      /** The pace the limiter lets through, cluster-wide (per task: the sum of every task's). */
      readonly limiterPerSecond: number;
      /** Opened at once before the pace applies (the token bucket's capacity; per task, the sum of their bursts). */
      readonly burst: number;
      /** Mean lifetime of a connection before it is replaced: the reservoir's, else the pool's maxConnLifetime. */
      readonly lifetimeSeconds: number;
      /** Replacements per second in steady state: every held connection, once a lifetime. */
      readonly churn: Figure;
      /** Seconds for the rolling service's extra tasks to open theirs at the limiter's pace, beyond the burst. */
      readonly rollingFillSeconds: number;
      /** Seconds for the whole cluster to open its connections from nothing (a first deploy, a wake). */
      readonly coldStartSeconds: number;
    };
  };
  /** vCPUs of both pools at their maximum size, against the account's quota. */
  readonly vcpus: Figure & { readonly main: number; readonly benchmark: number };
}

/** Aurora DSQL's fixed rate of new connections per cluster, and its burst. */
export const DSQL_CONNECTION_RATE = { perSecond: 100, burst: 1000 } as const;

export function temporalHeadroom(env: HeadroomEnvironment, preset: HeadroomPreset): Headroom {
  const margin = 1 - env.limits.headroomPercent / 100;
  const figure = (used: number, limit: number): Figure => ({ used, limit, allowed: Math.floor(limit * margin) });
  const maximumPercent = preset.deployment?.maximumPercent ?? env.deployment.maximumPercent;
  const vcpusOf = (type: string) => EC2_INSTANCE_TYPES[type]?.vcpus ?? NaN;
  const main = preset.capacity.main.instances * vcpusOf(preset.capacity.main.instanceType);
  const benchmark = preset.capacity.benchmark.maxInstances * vcpusOf(preset.capacity.benchmark.instanceType);
  const vcpus = { ...figure(main + benchmark, env.limits.ec2VcpuQuota), main, benchmark };
  if (preset.store.engine !== 'dsql') return { connections: null, vcpus };

  const { limiter, reservoir, lease } = preset.store.connections;
  const byRole = Object.fromEntries(
    TEMPORAL_ROLES.map((role) => {
      const replicas = preset.services[role].replicas;
      const maxConns = preset.pools[role].maxConns;
      // The reservoir keeps a pool's worth ready besides those the pool has checked out.
      const open = reservoir ? 2 * maxConns : maxConns;
      const slots = lease ? Math.ceil(maxConns / lease.blockSize) * lease.blockSize : 0;
      const perTask = lease ? Math.min(open, slots) : open;
      return [role, { replicas, maxConns, surge: rollingDeployment(replicas, env.deployment.minimumHealthyPercent, maximumPercent).surge, perTask, slots }];
    }),
  ) as Record<TemporalRole, RoleConnections>;
  const sum = (f: (r: RoleConnections, role: TemporalRole) => number) =>
    TEMPORAL_ROLES.reduce((n, role) => n + byRole[role].replicas * f(byRole[role], role), 0);
  const peak = (f: (r: RoleConnections) => number) =>
    TEMPORAL_ROLES.map((r) => [r, byRole[r].surge * f(byRole[r])] as const).reduce((a, b) => (b[1] > a[1] ? b : a));

  const steady = sum((r) => r.perTask);
  const [role, extra] = peak((r) => r.perTask);
  const limit = env.limits.dsqlConnectionsPerCluster;
  const leaseFigure = lease
    ? (() => {
        const [leaseRole, leaseExtra] = peak((r) => r.slots);
        return {
          ...figure(sum((r) => r.slots) + leaseExtra, lease.blockSize * lease.blockCount),
          role: leaseRole,
          extra: leaseExtra,
          blockSize: lease.blockSize,
        };
      })()
    : null;

  const limiterPerSecond = limiter.kind === 'per-task' ? sum((_, r) => env.persistence.connectionRateLimits[r].perSecond) : limiter.perSecond;
  const burst =
    limiter.kind === 'token-bucket' ? limiter.burst : limiter.kind === 'per-task' ? sum((_, r) => env.persistence.connectionRateLimits[r].burst) : 0;
  const lifetimeSeconds = reservoir
    ? durationSeconds(reservoir.baseLifetime) + durationSeconds(reservoir.lifetimeJitter) / 2
    : durationSeconds(env.persistence.pool.maxConnLifetime);
  const pace = Math.min(limiterPerSecond, DSQL_CONNECTION_RATE.perSecond);
  const afterBurst = (connections: number) => Math.max(0, connections - Math.min(burst, DSQL_CONNECTION_RATE.burst)) / pace;
  const rate = {
    limiterPerSecond,
    burst,
    lifetimeSeconds,
    // Against the limiter's pace, not DSQL's: the limiter is what every replacement waits on.
    churn: figure(round1(steady / lifetimeSeconds), pace),
    rollingFillSeconds: round1(afterBurst(extra)),
    coldStartSeconds: round1(afterBurst(steady)),
  };
  const held = `${reservoir ? 'pools and reservoirs' : 'pools'}${lease ? ', leased' : ''}`;
  return {
    connections: { byRole, steady: figure(steady, limit), rolling: { ...figure(steady + extra, limit), role, extra }, held, lease: leaseFigure, rate },
    vcpus,
  };
}

const round1 = (v: number) => Math.round(v * 10) / 10;

const n = (v: number) => v.toLocaleString('en-US');

/** What synth says of a preset over a limit less its headroom, one sentence per limit; none when it fits. */
export function headroomProblems(name: string, h: Headroom, headroomPercent: number): string[] {
  const out: string[] = [];
  const c = h.connections;
  if (c && c.rolling.used > c.rolling.allowed)
    out.push(
      `${name} may hold ${n(c.rolling.used)} DSQL connections (${n(c.steady.used)} steady + ${n(c.rolling.extra)} while ${c.rolling.role} rolls; ${c.held}), over ${n(c.rolling.allowed)}: ` +
        `the cluster's ${n(c.rolling.limit)} less the ${headroomPercent}% headroom (valid: smaller pools or fewer replicas, or a lower deployment.maximumPercent)`,
    );
  if (c?.lease && c.lease.limit > c.steady.limit)
    out.push(
      `${name}'s lease offers ${n(c.lease.limit)} slots (blockSize × blockCount), over the cluster's ${n(c.steady.limit)} connections: it would let tasks open connections DSQL refuses (valid: blockSize × blockCount at most ${n(c.steady.limit)})`,
    );
  if (c?.lease && c.lease.used > c.lease.limit)
    out.push(
      `${name}'s tasks lease ${n(c.lease.used)} slots while ${c.lease.role} rolls (whole blocks of ${n(c.lease.blockSize)}), over the ${n(c.lease.limit)} the lease offers: a task started then gets fewer than its pool or none, and cannot fill its reservoir (valid: more blocks, blocks that fit the pools more closely, or smaller pools)`,
    );
  if (c && c.rate.churn.used > c.rate.churn.allowed)
    out.push(
      `${name} replaces ${c.rate.churn.used} connections/s as they reach their ${Math.round(c.rate.lifetimeSeconds)}-second lifetime, over ${n(c.rate.churn.allowed)}: its limiter's ${n(c.rate.churn.limit)}/s less the ${headroomPercent}% headroom (valid: longer lifetimes, fewer connections, or a faster limiter up to DSQL's 100/s)`,
    );
  if (h.vcpus.used > h.vcpus.allowed)
    out.push(
      `${name} needs ${n(h.vcpus.used)} vCPUs at its pools' maximum (${n(h.vcpus.main)} main + ${n(h.vcpus.benchmark)} benchmark), over ${n(h.vcpus.allowed)}: ` +
        `the account's ${n(h.vcpus.limit)} vCPU quota (limits.ec2VcpuQuota) less the ${headroomPercent}% headroom (valid: fewer or smaller instances, or a raised quota)`,
    );
  return out;
}
