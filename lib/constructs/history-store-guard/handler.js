// @ts-check
/*
 * Custom resource that records what an environment's history store keeps for life: its engine
 * (dsql, aurora-postgresql) and its number of history shards. Both are kept in the physical
 * resource id on creation; an update that asks for another engine or count fails with a clear
 * message, and the rollback that follows (which asks for the recorded values) succeeds. Every
 * store resource depends on this one, so a refused switch fails before anything is created.
 */
const PATTERN = /^temporal-history-(.+)-shards-(\d+)$/;

/** @param {{ Store: string, NumHistoryShards: string | number }} p */
const physicalId = (p) => `temporal-history-${p.Store}-shards-${p.NumHistoryShards}`;

/** @param {any} event */
async function onEvent(event) {
  const p = event.ResourceProperties;
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
  if (event.RequestType === 'Update') {
    const m = PATTERN.exec(String(event.PhysicalResourceId));
    if (!m) throw new Error(`unrecognized history-store record "${event.PhysicalResourceId}"`);
    const [, store, shards] = m;
    if (store !== p.Store)
      throw new Error(
        `the history store cannot change: this environment keeps Temporal's history in ${store}, and a switch to ${p.Store} ` +
          `would orphan it. Deploy a preset whose store is ${store}, or deploy ${p.Store} as a second environment (-c envName=...).`,
      );
    if (shards !== String(p.NumHistoryShards))
      throw new Error(
        `numHistoryShards cannot change: this Temporal cluster was created with ${shards} history shards ` +
          `and keeps them for life (asked for ${p.NumHistoryShards}). Set persistence.numHistoryShards back to ${shards}, ` +
          'or create a new environment (-c envName=...) for another shard count.',
      );
  }
  return { PhysicalResourceId: physicalId(p) };
}

exports.onEvent = onEvent;
