import type { RDSClient } from '@aws-sdk/client-rds';
import type { FolioScenario } from '../../../../config';
import { clusterStatus } from '../../../commands/aws/cluster-status';
import { CommandFailure, EXIT_FAILED } from '../../../commands/shared/cli';

/* FOLIO's two clusters as the environment and move commands see them: each one's status, and a refusal when either is down. */

/** Each FOLIO cluster's status, by role. */
export async function folioClusterStatus(rds: RDSClient, scenario: FolioScenario): Promise<{ primary: string; offload: string }> {
  const n = scenario.environment.names;
  const [primary, offload] = await Promise.all([clusterStatus(rds, n.primaryCluster), clusterStatus(rds, n.offloadCluster)]);
  return { primary, offload };
}

/**
 * What a command that needs both clusters up says when either is not: hibernated, or on its
 * way. A cluster not found is left to the command's own stack lookup (not deployed, wrong region).
 */
export async function refuseUnlessAvailable(rds: RDSClient, scenario: FolioScenario, what: string): Promise<void> {
  const s = await folioClusterStatus(rds, scenario);
  const down = (['primary', 'offload'] as const).filter((r) => s[r] !== 'available' && s[r] !== 'missing');
  if (!down.length) return;
  const n = scenario.environment.names;
  const names = down.map((r) => `${r === 'primary' ? n.primaryCluster : n.offloadCluster} is ${s[r]}`).join(', ');
  const env = scenario.envName ? ` --env-name ${scenario.envName}` : '';
  throw new CommandFailure(
    `${what} needs both clusters available, and ${names}${down.some((r) => /^stop/.test(s[r])) ? ` (hibernated: npm run wake -- --scenario ${scenario.name}${env} starts them)` : ''}`,
    EXIT_FAILED,
  );
}
