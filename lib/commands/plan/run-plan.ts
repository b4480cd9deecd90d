import { type CommandOutput, EXIT_UNSAFE } from '../shared/cli';
import { planTransition, renderPlan } from './transition-plan';

/* `npm run plan`: what deploying one scenario over another would do; exits EXIT_UNSAFE when something stateful would be replaced. */

export interface PlanOptions {
  readonly from: string;
  readonly to: string;
  readonly envName?: string;
  readonly json?: boolean;
}

export async function runPlan(o: PlanOptions): Promise<CommandOutput> {
  const plan = planTransition(o.from, o.to, { envName: o.envName });
  const exitCode = plan.unsafe.length ? EXIT_UNSAFE : 0;
  if (!o.json) return { stdout: renderPlan(plan), exitCode };
  const stacks = plan.stacks.map((s) => ({ stackName: s.stackName, changes: s.changes }));
  const data = { from: plan.from.name, to: plan.to.name, stacks, unsafe: plan.unsafe.length, ...(plan.moves ? { moves: plan.moves } : {}) };
  return { stdout: `${JSON.stringify(data, null, 2)}\n`, exitCode };
}
