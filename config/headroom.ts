import { EC2_INSTANCE_TYPES } from './ec2-instance-types';
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
}
interface HeadroomPreset {
  readonly store: { readonly engine: string };
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

export interface Headroom {
  /** DSQL connections: every task's full pool; null for a store that is not DSQL. */
  readonly connections: null | {
    readonly byRole: Readonly<Record<TemporalRole, { readonly replicas: number; readonly maxConns: number; readonly surge: number }>>;
    readonly steady: Figure;
    /** Steady plus the extra tasks of the one service rolling at a time (services roll in order). */
    readonly rolling: Figure & { readonly role: TemporalRole; readonly extra: number };
  };
  /** vCPUs of both pools at their maximum size, against the account's quota. */
  readonly vcpus: Figure & { readonly main: number; readonly benchmark: number };
}

export function temporalHeadroom(env: HeadroomEnvironment, preset: HeadroomPreset): Headroom {
  const margin = 1 - env.limits.headroomPercent / 100;
  const figure = (used: number, limit: number): Figure => ({ used, limit, allowed: Math.floor(limit * margin) });
  const maximumPercent = preset.deployment?.maximumPercent ?? env.deployment.maximumPercent;
  const vcpusOf = (type: string) => EC2_INSTANCE_TYPES[type]?.vcpus ?? NaN;
  const main = preset.capacity.main.instances * vcpusOf(preset.capacity.main.instanceType);
  const benchmark = preset.capacity.benchmark.maxInstances * vcpusOf(preset.capacity.benchmark.instanceType);
  const vcpus = { ...figure(main + benchmark, env.limits.ec2VcpuQuota), main, benchmark };
  if (preset.store.engine !== 'dsql') return { connections: null, vcpus };

  const byRole = Object.fromEntries(
    TEMPORAL_ROLES.map((role) => {
      const replicas = preset.services[role].replicas;
      return [role, { replicas, maxConns: preset.pools[role].maxConns, surge: rollingDeployment(replicas, env.deployment.minimumHealthyPercent, maximumPercent).surge }];
    }),
  ) as Record<TemporalRole, { replicas: number; maxConns: number; surge: number }>;
  const steady = TEMPORAL_ROLES.reduce((n, r) => n + byRole[r].replicas * byRole[r].maxConns, 0);
  const [role, extra] = TEMPORAL_ROLES.map((r) => [r, byRole[r].surge * byRole[r].maxConns] as const).reduce((a, b) => (b[1] > a[1] ? b : a));
  const limit = env.limits.dsqlConnectionsPerCluster;
  return { connections: { byRole, steady: figure(steady, limit), rolling: { ...figure(steady + extra, limit), role, extra } }, vcpus };
}

const n = (v: number) => v.toLocaleString('en-US');

/** What synth says of a preset over a limit less its headroom, one sentence per limit; none when it fits. */
export function headroomProblems(name: string, h: Headroom, headroomPercent: number): string[] {
  const out: string[] = [];
  const c = h.connections;
  if (c && c.rolling.used > c.rolling.allowed)
    out.push(
      `${name} may hold ${n(c.rolling.used)} DSQL connections (${n(c.steady.used)} steady + ${n(c.rolling.extra)} while ${c.rolling.role} rolls), over ${n(c.rolling.allowed)}: ` +
        `the cluster's ${n(c.rolling.limit)} less the ${headroomPercent}% headroom (valid: smaller pools or fewer replicas, or a lower deployment.maximumPercent)`,
    );
  if (h.vcpus.used > h.vcpus.allowed)
    out.push(
      `${name} needs ${n(h.vcpus.used)} vCPUs at its pools' maximum (${n(h.vcpus.main)} main + ${n(h.vcpus.benchmark)} benchmark), over ${n(h.vcpus.allowed)}: ` +
        `the account's ${n(h.vcpus.limit)} vCPU quota (limits.ec2VcpuQuota) less the ${headroomPercent}% headroom (valid: fewer or smaller instances, or a raised quota)`,
    );
  return out;
}
