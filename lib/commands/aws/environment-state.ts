import type { FolioScenario, TemporalScenario } from '../../../config';
import { ConfigError } from '../../../config';
import type { AwsClients, AwsTarget } from './clients';
import { folioClusterStatus } from './cluster-status';
import { deployedStack, isHibernated } from './read-stack-outputs';

/**
 * A sentence saying the environment is hibernated now (npm run hibernate: Temporal's
 * Hibernated parameter; FOLIO's clusters stopped), or undefined when it is awake or not
 * deployed: what bench, report and capacity say instead of failing on an empty cluster.
 */
export async function hibernatedNow(aws: AwsClients, target: AwsTarget, scenario: TemporalScenario | FolioScenario): Promise<string | undefined> {
  const wake = `npm run wake -- --scenario ${scenario.name}${scenario.envName ? ` --env-name ${scenario.envName}` : ''}`;
  if (scenario.family === 'folio') {
    const s = await folioClusterStatus(aws.rds(target), scenario);
    const down = [s.primary, s.offload].filter((x) => /^stop/.test(x));
    return down.length ? `${scenario.stackName} is hibernated: its clusters are ${s.primary} and ${s.offload} (${wake} starts them)` : undefined;
  }
  try {
    return isHibernated(await deployedStack(aws.cloudFormation(target), scenario.stackName))
      ? `${scenario.stackName} is hibernated: no server or instance runs (${wake} brings the preset back)`
      : undefined;
  } catch (e) {
    if (e instanceof ConfigError) return undefined;
    throw e;
  }
}
