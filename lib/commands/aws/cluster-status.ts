import { DescribeDBClustersCommand, type RDSClient, StartDBClusterCommand, StopDBClusterCommand } from '@aws-sdk/client-rds';
import { CommandFailure, EXIT_FAILED } from '../shared/cli';
import { type Waiting, waitUntil } from '../shared/waiting';

/** An Aurora cluster's status (available, stopped, stopping, starting...), or `missing`. */
export async function clusterStatus(rds: RDSClient, id: string): Promise<string> {
  try {
    const { DBClusters } = await rds.send(new DescribeDBClustersCommand({ DBClusterIdentifier: id }));
    return DBClusters?.[0]?.Status ?? 'missing';
  } catch (e) {
    if (e instanceof Error && e.name === 'DBClusterNotFoundFault') return 'missing';
    throw e;
  }
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
