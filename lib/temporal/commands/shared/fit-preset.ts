import { ConfigError, type TemporalEnvironment } from '../../../../config';
import { planPool, temporalPoolSpecs } from '../../../../config/packing';
import { temporalScenarioSchema, type TemporalPreset, type TemporalScenarioInput } from '../../../../config/temporal-schema';

/* A preset as written, fitted to its pools: what a proposal of capacity --rate and of a report's next run both do. */

/** A preset as written; its name and title are not read. */
export type Body = Omit<TemporalScenarioInput, 'name' | 'title'> & { name?: string; title?: string };

/** A preset as written, with the defaults config fills in, for the packing and headroom models. */
export function parsed(body: Body): TemporalPreset {
  const out = temporalScenarioSchema.safeParse({ ...body, name: 'proposal', title: 'proposal' });
  if (!out.success) throw new ConfigError(`the proposed preset is not valid: ${out.error.issues[0].message}`);
  return out.data;
}

/**
 * Each pool grown, in place, to the fewest instances that hold its tasks, a rolling deploy and
 * the one-shot tasks; one sentence per pool grown. A pool no number of instances holds is left
 * for config to refuse, naming the task.
 */
export function fitPools(body: Body, env: TemporalEnvironment): string[] {
  const moved: string[] = [];
  for (const spec of temporalPoolSpecs(env, parsed(body))) {
    const plan = planPool(spec);
    if (plan.smallestFitting === undefined || plan.smallestFitting <= spec.instances) continue;
    if (spec.pool === 'main') body.capacity.main.instances = plan.smallestFitting;
    else body.capacity.benchmark.maxInstances = plan.smallestFitting;
    moved.push(
      `capacity.${spec.pool}: ${plan.smallestFitting} × ${spec.instanceTypeName}, the fewest that hold its tasks with a rolling deploy and the one-shot tasks, not ${spec.instances} (packing binds)`,
    );
  }
  return moved;
}
