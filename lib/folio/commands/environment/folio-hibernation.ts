import type { RDSClient } from '@aws-sdk/client-rds';
import type { FolioScenario } from '../../../../config';
import { clustersTo } from '../../../commands/aws/cluster-status';
import type { CommandIO } from '../../../commands/shared/cli';
import type { Waiting } from '../../../commands/shared/waiting';

/*
 * A FOLIO environment hibernated: both Aurora clusters stopped (the provisioned writer, and the
 * offload cluster whether Serverless v2 or provisioned), which ends their instance charges;
 * storage and backups stay, and so does every secret, route and the mover. Aurora starts a
 * stopped cluster by itself after 7 days; the environment's idle rule stops it again.
 */

const clusters = (scenario: FolioScenario) => [scenario.environment.names.primaryCluster, scenario.environment.names.offloadCluster];

/** What keeps it stopped past Aurora's 7 days, from config. */
function afterSevenDays(scenario: FolioScenario): string {
  const idle = scenario.environment.spending.idle;
  return idle.action === 'stop-clusters'
    ? `Aurora starts a stopped cluster after 7 days; this environment's idle rule stops both again after ${idle.minutes} minutes without a connection.`
    : 'Aurora starts a stopped cluster after 7 days, and this environment has no idle rule (spending.idle is off): run npm run hibernate again then, or turn the rule on in config/folio-environment.ts.';
}

export async function hibernateFolio(rds: RDSClient, scenario: FolioScenario, w: Waiting, io: CommandIO): Promise<string[]> {
  const lines = await clustersTo(rds, clusters(scenario), 'stopped', w, (id) => io.note(`${id}: stopping`));
  return [...lines, afterSevenDays(scenario)];
}

export async function wakeFolio(rds: RDSClient, scenario: FolioScenario, w: Waiting, io: CommandIO): Promise<string[]> {
  return clustersTo(rds, clusters(scenario), 'available', w, (id) => io.note(`${id}: starting`));
}
