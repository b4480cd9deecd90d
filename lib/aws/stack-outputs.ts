import { type CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { ConfigError } from '../../config';

/**
 * The outputs of a deployed stack. A stack that does not exist is the user's problem (not
 * deployed yet, wrong envName or region), so it becomes a one-line ConfigError.
 */
export async function stackOutputs(client: CloudFormationClient, stackName: string): Promise<Record<string, string>> {
  try {
    const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    const outputs = Stacks?.[0]?.Outputs ?? [];
    return Object.fromEntries(outputs.filter((o) => o.OutputKey && o.OutputValue !== undefined).map((o) => [o.OutputKey!, o.OutputValue!]));
  } catch (e) {
    if (e instanceof Error && e.name === 'ValidationError' && /does not exist/.test(e.message))
      throw new ConfigError(`stack "${stackName}" is not deployed in ${await client.config.region()}; deploy it first, or pass the value the command needs explicitly`);
    throw e;
  }
}

/** One output, or a ConfigError that names the stack and the outputs it has. */
export async function stackOutput(client: CloudFormationClient, stackName: string, key: string): Promise<string> {
  const outputs = await stackOutputs(client, stackName);
  const value = outputs[key];
  if (value === undefined)
    throw new ConfigError(`stack "${stackName}" has no output "${key}"; it has: ${Object.keys(outputs).join(', ') || 'none'} (deployed with an older version?)`);
  return value;
}
