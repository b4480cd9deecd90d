import { type RDSClient, StartDBClusterCommand, StopDBClusterCommand } from '@aws-sdk/client-rds';
import type { FolioScenario } from '../../../config';
import { folioClusterStatus } from '../aws/cluster-status';
import { type CommandIO, CommandFailure, EXIT_FAILED } from '../shared/cli';
import { type Waiting, waitUntil } from '../shared/waiting';

/*
 * A FOLIO environment hibernated: both Aurora clusters stopped (the provisioned writer, and the
 * offload cluster whether Serverless v2 or provisioned), which ends their instance charges;
 * storage and backups stay, and so does every secret, route and the mover. Aurora starts a
 * stopped cluster by itself after 7 days; the environment's idle rule stops it again.
 */

const ROLES = ['primary', 'offload'] as const;

function identifiers(scenario: FolioScenario): Record<(typeof ROLES)[number], string> {
  const n = scenario.environment.names;
  return { primary: n.primaryCluster, offload: n.offloadCluster };
}

async function waitForBoth(rds: RDSClient, scenario: FolioScenario, status: 'stopped' | 'available', w: Waiting): Promise<void> {
  await waitUntil(
    `both clusters to be ${status}`,
    async () => {
      const s = await folioClusterStatus(rds, scenario);
      return { done: s.primary === status && s.offload === status, text: `primary ${s.primary}, offload ${s.offload}` };
    },
    w,
  );
}

/** What keeps it stopped past Aurora's 7 days, from config. */
function afterSevenDays(scenario: FolioScenario): string {
  const idle = scenario.environment.spending.idle;
  return idle.action === 'stop-clusters'
    ? `Aurora starts a stopped cluster after 7 days; this environment's idle rule stops both again after ${idle.minutes} minutes without a connection.`
    : 'Aurora starts a stopped cluster after 7 days, and this environment has no idle rule (spending.idle is off): run npm run hibernate again then, or turn the rule on in config/folio-environment.ts.';
}

export async function hibernateFolio(rds: RDSClient, scenario: FolioScenario, w: Waiting, io: CommandIO): Promise<string[]> {
  const ids = identifiers(scenario);
  const before = await folioClusterStatus(rds, scenario);
  for (const role of ROLES) {
    if (before[role] === 'missing') throw new CommandFailure(`cluster ${ids[role]} not found: is ${scenario.stackName} deployed?`, EXIT_FAILED);
    if (before[role] === 'available') {
      await rds.send(new StopDBClusterCommand({ DBClusterIdentifier: ids[role] }));
      io.note(`${ids[role]}: stopping`);
    } else if (!/^(stopped|stopping)$/.test(before[role]))
      throw new CommandFailure(`cluster ${ids[role]} is ${before[role]}: wait until it is available, then run this again`, EXIT_FAILED);
  }
  await waitForBoth(rds, scenario, 'stopped', w);
  return [...ROLES.map((r) => `${ids[r]}: ${before[r]} -> stopped`), afterSevenDays(scenario)];
}

export async function wakeFolio(rds: RDSClient, scenario: FolioScenario, w: Waiting, io: CommandIO): Promise<string[]> {
  const ids = identifiers(scenario);
  const before = await folioClusterStatus(rds, scenario);
  for (const role of ROLES) {
    if (before[role] === 'missing') throw new CommandFailure(`cluster ${ids[role]} not found: is ${scenario.stackName} deployed?`, EXIT_FAILED);
    if (before[role] === 'stopped') {
      await rds.send(new StartDBClusterCommand({ DBClusterIdentifier: ids[role] }));
      io.note(`${ids[role]}: starting`);
    } else if (before[role] === 'stopping') throw new CommandFailure(`cluster ${ids[role]} is still stopping: run this again once it has stopped`, EXIT_FAILED);
  }
  await waitForBoth(rds, scenario, 'available', w);
  return ROLES.map((r) => `${ids[r]}: ${before[r]} -> available`);
}
