import { DescribeDBClustersCommand, type RDSClient, StartDBClusterCommand, StopDBClusterCommand } from '@aws-sdk/client-rds';
import type { FolioScenario } from '../../../config';
import { CommandFailure, EXIT_FAILED } from '../shared/cli';
import { type Waiting, waitUntil } from '../shared/waiting';

/** An Aurora cluster's status (available, stopped, stopping, starting...), or `missing`. */
async function clusterStatus(rds: RDSClient, id: string): Promise<string> {
  try {
    const { DBClusters } = await rds.send(new DescribeDBClustersCommand({ DBClusterIdentifier: id }));
    return DBClusters?.[0]?.Status ?? 'missing';
  } catch (e) {
    if (e instanceof Error && e.name === 'DBClusterNotFoundFault') return 'missing';
    throw e;
  }
}

/** Each FOLIO cluster's status, by role. */
export async function folioClusterStatus(rds: RDSClient, scenario: FolioScenario): Promise<{ primary: string; offload: string }> {
  const n = scenario.environment.names;
  const [primary, offload] = await Promise.all([clusterStatus(rds, n.primaryCluster), clusterStatus(rds, n.offloadCluster)]);
  return { primary, offload };
}

/**
 * Aurora clusters stopped or started (FOLIO's two, Temporal's store): each one asked that is not
 * there yet, then all waited for. A cluster on its way there already is waited for too; one in
 * another state (modifying, backing-up) is refused before any is asked. Returns each one's
 * `<id>: <before> -> <target>`.
 */
export async function clustersTo(
  rds: RDSClient,
  ids: readonly string[],
  target: 'stopped' | 'available',
  w: Waiting,
  onAsked: (id: string) => void,
): Promise<string[]> {
  const on = target === 'stopped' ? 'stopping' : 'starting';
  const before = await Promise.all(ids.map((id) => clusterStatus(rds, id)));
  ids.forEach((id, i) => {
    const from = target === 'stopped' ? 'available' : 'stopped';
    if (before[i] === 'missing') throw new CommandFailure(`cluster ${id} not found: is the stack deployed, in this region?`, EXIT_FAILED);
    if (![target, on, from].includes(before[i]))
      throw new CommandFailure(`cluster ${id} is ${before[i]}: wait until it is ${from}, then run this again`, EXIT_FAILED);
  });
  for (const [i, id] of ids.entries()) {
    if (before[i] !== (target === 'stopped' ? 'available' : 'stopped')) continue;
    await rds.send(target === 'stopped' ? new StopDBClusterCommand({ DBClusterIdentifier: id }) : new StartDBClusterCommand({ DBClusterIdentifier: id }));
    onAsked(id);
  }
  await waitUntil(
    `${ids.join(' and ')} to be ${target}`,
    async () => {
      const now = await Promise.all(ids.map((id) => clusterStatus(rds, id)));
      return { done: now.every((x) => x === target), text: ids.map((id, i) => `${id} ${now[i]}`).join(', ') };
    },
    w,
  );
  return ids.map((id, i) => `${id}: ${before[i]} -> ${target}`);
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
