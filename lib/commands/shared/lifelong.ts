import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { ConfigError } from '../../../config';
import { deployedStack } from '../aws/read-stack-outputs';

/*
 * What a deployed environment keeps for life (Temporal's history shard count, its store's
 * engine): the data stack records each as an output on every deploy, and a deploy that would
 * change one is refused by the stack's own guard only once CloudFormation has started. plan
 * (--check-deployed), preflight and a campaign compare config with those outputs first.
 */

/** One setting an environment keeps for life: where config sets it, the stack output that records it, and config's value now. */
export interface LifelongSetting {
  readonly setting: string;
  readonly output: string;
  readonly value: string;
}

/** Each setting whose recorded value config no longer has, as a line naming the setting and both values. */
export function lifelongChanges(settings: readonly LifelongSetting[], outputs: Readonly<Record<string, string>>, stackName: string): string[] {
  return settings
    .filter((s) => outputs[s.output] !== undefined && outputs[s.output] !== s.value)
    .map(
      (s) =>
        `${s.setting} is ${outputs[s.output]} in the deployed ${stackName} and ${s.value} in config: it can never change once the environment holds data ` +
        `(valid: ${outputs[s.output]}, as it was created; or another environment: -c envName=<name>)`,
    );
}

/** Refuses, in one line, a config that would change what the deployed stack keeps for life. */
export function refuseLifelongChanges(settings: readonly LifelongSetting[], outputs: Readonly<Record<string, string>>, stackName: string): void {
  const changes = lifelongChanges(settings, outputs, stackName);
  if (changes.length) throw new ConfigError(changes.join('; '));
}

/** The deployed data stack's outputs, or undefined where it is not deployed (a first deploy: nothing recorded yet). */
export async function deployedOutputs(cfn: CloudFormationClient, stackName: string): Promise<Record<string, string> | undefined> {
  try {
    return (await deployedStack(cfn, stackName)).outputs;
  } catch (e) {
    if (e instanceof ConfigError && /is not deployed/.test(e.message)) return undefined;
    throw e;
  }
}
