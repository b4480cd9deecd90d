import { ConfigError, type TemporalScenario } from '../../../../config';
import type { AwsClients, AwsTarget } from '../../../commands/aws/clients';
import { deployedStack, isHibernated } from '../../../commands/aws/read-stack-outputs';

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
