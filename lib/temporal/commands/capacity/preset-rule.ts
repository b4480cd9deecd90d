import { EC2_INSTANCE_TYPES } from '../../../../config/ec2-instance-types';
import { TEMPORAL_ROLES, type TemporalRole } from '../../../../config/temporal-roles';
import type { TemporalScenarioInput } from '../../../../config/temporal-schema';

/*
 * The sizing rule of `capacity --rate`, written once (docs/configuration.md, "How a preset's
 * numbers are chosen"). Its anchors are the shipped presets of the store: the seed's 150/s, the
 * reference's plans and its ~1,170/s run, and the presets sized between them. A rate between two
 * presets gets each count on the line between theirs, counted in vCPUs and rounded up to whole
 * tasks of the upper preset's size; every shape and setting is the upper preset's, the one sized
 * for at least that rate. Past the top preset the counts grow in proportion to the rate, but the
 * worker role's: it runs Temporal's own system workflows, not the benchmark's. Below the
 * smallest preset, that preset: it is the smallest working cluster.
 */

/** A preset as config writes it out (config/temporal-scenarios.ts, after the chain). */
export type PresetInput = TemporalScenarioInput;

/** Where a rate falls among the presets of its store. */
export interface Neighbours {
  /** at: a preset has the rate; between: lower < rate < upper; above: past the top; below: under the smallest. */
  readonly kind: 'at' | 'between' | 'above' | 'below';
  readonly lower: PresetInput;
  /** The preset whose shapes and settings the proposal takes. */
  readonly upper: PresetInput;
}

const rateOf = (p: PresetInput) => p.benchmark.targetRate;

/** The presets either side of `rate`, of the given presets (one store's). */
export function neighboursOf(rate: number, presets: readonly PresetInput[]): Neighbours {
  const sorted = [...presets].sort((a, b) => rateOf(a) - rateOf(b));
  const at = sorted.find((p) => rateOf(p) === rate);
  if (at) return { kind: 'at', lower: at, upper: at };
  const upper = sorted.find((p) => rateOf(p) > rate);
  const lower = [...sorted].reverse().find((p) => rateOf(p) < rate);
  if (!upper) return { kind: 'above', lower: lower!, upper: lower! };
  if (!lower) return { kind: 'below', lower: upper, upper };
  return { kind: 'between', lower, upper };
}

/** A quantity at `rate`: on the line between the neighbours', or grown in proportion past the top one. */
export function grownQuantity(n: Neighbours, rate: number, quantity: (p: PresetInput) => number, grows = true): number {
  const [l, u] = [quantity(n.lower), quantity(n.upper)];
  if (n.kind === 'at' || n.kind === 'below') return u;
  if (n.kind === 'above') return grows ? (u * rate) / rateOf(n.upper) : u;
  return l + ((u - l) * (rate - rateOf(n.lower))) / (rateOf(n.upper) - rateOf(n.lower));
}

/** Whole units of `size` that hold `amount`, rounded up (a hair of float error is not a unit). */
export const wholeUnits = (amount: number, size: number) => Math.max(1, Math.ceil(Math.round((amount / size) * 1e6) / 1e6));

const vcpusOf = (type: string) => EC2_INSTANCE_TYPES[type]?.vcpus ?? NaN;

/** The counts the rule gives at `rate`, before the packing and quota checks move any of them. */
export interface RuleCounts {
  readonly services: Readonly<Record<TemporalRole, number>>;
  readonly benchmarkWorkers: number;
  readonly mainInstances: number;
  readonly benchmarkInstances: number;
}

export function ruleCounts(n: Neighbours, rate: number): RuleCounts {
  const u = n.upper;
  const services = Object.fromEntries(
    TEMPORAL_ROLES.map((role) => {
      const vcpus = grownQuantity(n, rate, (p) => p.services[role].replicas * p.services[role].vcpu, role !== 'worker');
      return [role, wholeUnits(vcpus, u.services[role].vcpu)];
    }),
  ) as Record<TemporalRole, number>;
  const workers = grownQuantity(n, rate, (p) => p.benchmark.workers.replicas * p.benchmark.workers.vcpu);
  const main = grownQuantity(n, rate, (p) => p.capacity.main.instances * vcpusOf(p.capacity.main.instanceType));
  const bench = grownQuantity(n, rate, (p) => p.capacity.benchmark.maxInstances * vcpusOf(p.capacity.benchmark.instanceType));
  return {
    services,
    benchmarkWorkers: wholeUnits(workers, u.benchmark.workers.vcpu),
    mainInstances: wholeUnits(main, vcpusOf(u.capacity.main.instanceType)),
    benchmarkInstances: wholeUnits(bench, vcpusOf(u.capacity.benchmark.instanceType)),
  };
}

/** The upper neighbour with the rule's counts and the rate: what the checks then hold to the limits. */
export function presetAt(n: Neighbours, rate: number, counts: RuleCounts): Omit<PresetInput, 'name' | 'title'> {
  const { name: _name, title: _title, recorded: _recorded, ...u } = structuredClone(n.upper);
  for (const role of TEMPORAL_ROLES) u.services[role].replicas = counts.services[role];
  u.capacity.main.instances = counts.mainInstances;
  u.capacity.benchmark.maxInstances = counts.benchmarkInstances;
  u.benchmark.workers.replicas = counts.benchmarkWorkers;
  u.benchmark.targetRate = rate;
  return u;
}
