import { ConfigError, type TemporalEnvironment } from '../../../../config';
import { auroraMaxConnections } from '../../../../config/aurora-instance-classes';
import { EC2_INSTANCE_TYPES } from '../../../../config/ec2-instance-types';
import { headroomProblems, temporalHeadroom } from '../../../../config/headroom';
import { benchmarkWorkerCapacity, rollingDeployment } from '../../../../config/packing';
import { TEMPORAL_ROLES } from '../../../../config/temporal-roles';
import { presetTitle, type TemporalPreset } from '../../../../config/temporal-schema';
import { type Body, fitPools, parsed } from '../shared/fit-preset';
import { type Neighbours, neighboursOf, type PresetInput, presetAt, ruleCounts, type RuleCounts } from './preset-rule';

/*
 * A whole preset for a rate: the sizing rule's counts (preset-rule.ts), then the pools grown to
 * what the packing model says holds them, the benchmark fleet trimmed to the vCPU quota, and the
 * result held to every limit synth holds a preset to. Each move says which bound made it.
 */

export const PROPOSAL_STORES = ['dsql', 'aurora'] as const;
export type ProposalStore = (typeof PROPOSAL_STORES)[number];

const ENGINE = { dsql: 'dsql', aurora: 'aurora-postgresql' } as const;

export interface Proposal {
  readonly rate: number;
  readonly store: ProposalStore;
  /** Where the rate falls among the DSQL presets, whose sizing every store's proposal takes. */
  readonly neighbours: Neighbours;
  /** The counts as the rule gives them, before a bound moved any. */
  readonly counts: RuleCounts;
  /** The preset written out, every field. */
  readonly preset: PresetInput;
  /** The shipped preset the config entry is written as a change of. */
  readonly from: PresetInput;
  /** One sentence per number a bound moved from the rule's. */
  readonly moved: readonly string[];
}

/** What a proposed preset says of itself (its note; the title is the rate and store, then the note). */
export const proposalNote = (rate: number, store: ProposalStore) =>
  `proposed by npm run capacity -- --rate ${rate}${store === 'dsql' ? '' : ' --store aurora'}, not yet measured`;

/**
 * The preset the rule proposes for `rate` on `store`, named `name`, or a ConfigError naming the
 * limit no preset of the rule's can hold at that rate.
 */
export function proposePreset(rate: number, store: ProposalStore, name: string, presets: readonly PresetInput[], env: TemporalEnvironment): Proposal {
  const ofStore = (s: ProposalStore) => presets.filter((p) => p.store.engine === ENGINE[s]);
  if (!ofStore(store).length) throw new ConfigError(`no ${ENGINE[store]} preset in config/temporal-scenarios.ts to size a proposal from (valid: --store dsql)`);
  const neighbours = neighboursOf(rate, ofStore('dsql'));
  const counts = ruleCounts(neighbours, rate);
  const body = presetAt(neighbours, rate, counts);
  // Another store's proposal is the DSQL sizing on that store's preset nearest above: the shipped Aurora preset is the seed's sizing on it.
  const from = store === 'dsql' ? neighbours.upper : neighboursOf(rate, ofStore(store)).upper;
  if (store !== 'dsql') body.store = structuredClone(from.store);
  const moved = [...fitPools(body, env), ...fitQuota(body, env)];
  const problem = limitProblems(name, body, env)[0];
  if (problem) throw new ConfigError(problem);
  const preset = { ...body, name, title: presetTitle({ ...body, name }, proposalNote(rate, store)) } as PresetInput;
  return { rate, store, neighbours, counts, preset, from, moved };
}

/** The benchmark fleet cut to what the vCPU quota leaves beside the main pool. */
export function fitQuota(body: Body, env: TemporalEnvironment): string[] {
  const h = temporalHeadroom(env, parsed(body)).vcpus;
  if (h.used <= h.allowed) return [];
  const { limits } = env;
  const perInstance = EC2_INSTANCE_TYPES[body.capacity.benchmark.instanceType].vcpus;
  const instances = Math.floor((h.allowed - h.main) / perInstance);
  const quota = `limits.ec2VcpuQuota ${limits.ec2VcpuQuota} less the ${limits.headroomPercent}% headroom`;
  const raise = Math.ceil(h.used / (1 - limits.headroomPercent / 100));
  if (instances < 1)
    throw new ConfigError(
      `the main pool alone needs ${h.main} vCPUs at ${body.benchmark.targetRate}/s, past the ${h.allowed} of ${quota}, with none left for the benchmark pool (valid: a lower --rate, or a quota of at least ${raise})`,
    );
  const wanted = body.benchmark.workers.replicas;
  body.capacity.benchmark.maxInstances = instances;
  const workers = benchmarkWorkerCapacity(env, parsed(body)).workers;
  body.benchmark.workers.replicas = Math.min(wanted, workers);
  return [
    `benchmark: ${instances} instances and ${body.benchmark.workers.replicas} of the ${wanted} workers the rule gives: the vCPU quota binds (${quota} leaves ${h.allowed - h.main} vCPUs beside the main pool's ${h.main}; a quota of ${raise} holds them all)`,
  ];
}

/** What synth would refuse of the preset (its limits less the headroom), and the Aurora writer's connection limit. */
export function limitProblems(name: string, body: Body, env: TemporalEnvironment): string[] {
  const preset = parsed(body);
  const problems = headroomProblems(name, temporalHeadroom(env, preset), env.limits.headroomPercent);
  if (preset.store.engine !== 'aurora-postgresql') return problems;
  const held = auroraConnections(preset, env);
  const limit = auroraMaxConnections(preset.store.writer);
  const allowed = Math.floor(limit * (1 - env.limits.headroomPercent / 100));
  if (held > allowed)
    problems.push(
      `${name} may hold ${n(held)} connections to its Aurora writer at a rolling deploy's peak, over ${n(allowed)}: its max_connections ${n(limit)} less the ${env.limits.headroomPercent}% headroom`,
    );
  return problems;
}

/** Connections to an Aurora writer at a rolling deploy's peak: every task's pool, and the largest role's surge. */
function auroraConnections(preset: TemporalPreset, env: TemporalEnvironment): number {
  const maximumPercent = preset.deployment?.maximumPercent ?? env.deployment.maximumPercent;
  const byRole = TEMPORAL_ROLES.map((r) => {
    const { replicas } = preset.services[r];
    const surge = rollingDeployment(replicas, env.deployment.minimumHealthyPercent, maximumPercent).surge;
    return { steady: replicas * preset.pools[r].maxConns, surge: surge * preset.pools[r].maxConns };
  });
  return byRole.reduce((n, r) => n + r.steady, 0) + Math.max(...byRole.map((r) => r.surge));
}

const n = (v: number) => v.toLocaleString('en-US');

/** The highest whole rate below `rate` the rule can propose a preset for, by bisection (the limits only tighten with the rate). */
export function highestRate(rate: number, fits: (r: number) => boolean): number | undefined {
  let [lo, hi] = [0, rate];
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo > 0 ? lo : undefined;
}
