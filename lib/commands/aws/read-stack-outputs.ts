import { type CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { ConfigError } from '../../../config';

/**
 * The outputs of a deployed stack. A stack that does not exist is the user's problem (not
 * deployed yet, wrong envName or region), so it becomes a one-line ConfigError.
 */
export async function stackOutputs(client: CloudFormationClient, stackName: string, instead?: string): Promise<Record<string, string>> {
  return (await deployedStack(client, stackName, instead)).outputs;
}

/** A deployed stack's outputs, parameters and status, by key. */
export interface DeployedStack {
  readonly outputs: Record<string, string>;
  readonly parameters: Record<string, string>;
  readonly status: string;
}

export async function deployedStack(client: CloudFormationClient, stackName: string, instead?: string): Promise<DeployedStack> {
  try {
    const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    const stack = Stacks?.[0];
    const outputs = stack?.Outputs ?? [];
    const parameters = stack?.Parameters ?? [];
    return {
      outputs: Object.fromEntries(outputs.filter((o) => o.OutputKey && o.OutputValue !== undefined).map((o) => [o.OutputKey!, o.OutputValue!])),
      parameters: Object.fromEntries(
        parameters.filter((p) => p.ParameterKey && p.ParameterValue !== undefined).map((p) => [p.ParameterKey!, p.ParameterValue!]),
      ),
      status: stack?.StackStatus ?? 'UNKNOWN',
    };
  } catch (e) {
    if (e instanceof Error && e.name === 'ValidationError' && /does not exist/.test(e.message))
      throw new ConfigError(
        `stack "${stackName}" is not deployed in ${await client.config.region()}; deploy it first${instead ? `, or pass ${instead}` : ''}, or check --env-name and the scenario's region`,
      );
    throw e;
  }
}

/**
 * One output, or a ConfigError that names the stack and the outputs it has; `instead` names
 * the option that gives the value without a deployed stack, where there is one.
 * @public loaded lazily with require(), which knip does not follow
 */
export async function stackOutput(client: CloudFormationClient, stackName: string, key: string, instead?: string): Promise<string> {
  const outputs = await stackOutputs(client, stackName, instead);
  const value = outputs[key];
  if (value === undefined)
    throw new ConfigError(
      `stack "${stackName}" has no output "${key}"; it has: ${Object.keys(outputs).join(', ') || 'none'} (deployed with an older version?)`,
    );
  return value;
}

/**
 * The outputs a command acts on, by the names it uses for them; a stack without one of them
 * (deployed by an older version) is one ConfigError naming the missing outputs.
 */
export async function requiredOutputs<K extends string>(
  client: CloudFormationClient,
  stackName: string,
  keys: Record<K, string>,
  older: string,
  known?: Record<string, string>,
): Promise<Record<K, string>> {
  return pickOutputs(stackName, known ?? (await stackOutputs(client, stackName)), keys, older);
}

/** `requiredOutputs` of outputs already read. */
export function pickOutputs<K extends string>(stackName: string, outputs: Record<string, string>, keys: Record<K, string>, older: string): Record<K, string> {
  const missing = Object.values<string>(keys).filter((k) => outputs[k] === undefined);
  if (missing.length) throw new ConfigError(`stack "${stackName}" has no output ${missing.map((m) => `"${m}"`).join(', ')} (${older})`);
  return Object.fromEntries(Object.entries<string>(keys).map(([name, key]) => [name, outputs[key]])) as Record<K, string>;
}
