import { ConfigError, type TemporalScenario } from '../../../../config';
import type { AwsClients, AwsTarget } from '../../../commands/aws/clients';
import { type DeployedStack, deployedStack } from '../../../commands/aws/read-stack-outputs';
import { HIBERNATED_PARAMETER } from '../../contract/temporal-stack-outputs';

/** Whether a deployed stack is hibernated (its Hibernated parameter; older stacks have none and are not). */
export const isHibernated = (stack: DeployedStack): boolean => stack.parameters[HIBERNATED_PARAMETER] === 'true';

/**
 * A sentence saying the environment is hibernated now (its Hibernated parameter), or undefined
 * when it is awake or not deployed: what bench, report and capacity say instead of failing on
 * an empty cluster.
 */
export async function temporalHibernatedNow(aws: AwsClients, target: AwsTarget, scenario: TemporalScenario): Promise<string | undefined> {
  const wake = `npm run wake -- --scenario ${scenario.name}${scenario.envName ? ` --env-name ${scenario.envName}` : ''}`;
  try {
    return isHibernated(await deployedStack(aws.cloudFormation(target), scenario.stackName))
      ? `${scenario.stackName} is hibernated: no server or instance runs (${wake} brings the preset back)`
      : undefined;
  } catch (e) {
    if (e instanceof ConfigError) return undefined;
    throw e;
  }
}
