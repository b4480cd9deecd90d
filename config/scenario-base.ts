import { type AwsNameKind, resolvedNameProblem } from './aws-names';
import { ConfigError } from './errors';
import type { Resolving, ScenarioBase } from './family-catalog';

/* What every family's resolve shares: names prefixed by envName, checked as AWS would, and the scenario's base. */

/** Refuses the first physical name AWS would refuse, once envName has prefixed them all. */
export function checkNames(envName: string | undefined, names: readonly (readonly [AwsNameKind, string])[]): void {
  const problem = resolvedNameProblem(names, envName);
  if (problem) throw new ConfigError(problem);
}

/** `<envName><sep><name>`, or the name alone when there is no envName. */
export function prefixer(envName: string | undefined, sep: string): (name: string) => string {
  return (name) => (envName ? `${envName}${sep}${name}` : name);
}

/** The observability stack, dashboard and topic of a second copy carry its envName too. */
export function prefixObservability<T extends { stackName: string; dashboard: string; alarmTopic: string }>(o: T, envName: string | undefined): T {
  const dash = prefixer(envName, '-');
  return { ...o, stackName: dash(o.stackName), dashboard: dash(o.dashboard), alarmTopic: dash(o.alarmTopic) };
}

/** What every family's scenario carries: its name, protection, stack name and target. */
export function scenarioBase(r: Resolving, environment: { stackName: string; account?: string; region: string }): ScenarioBase {
  const { name, envName, protect } = r;
  return {
    name,
    envName,
    protect,
    stackName: prefixer(envName, '-')(environment.stackName),
    env: { account: environment.account, region: environment.region },
  };
}
