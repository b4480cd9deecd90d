// @ts-check
/*
 * Custom resource that records what an environment's history store keeps for life, and refuses
 * what it cannot take. Its engine (dsql, aurora-postgresql) and its number of history shards are
 * kept in the physical resource id on creation; an update that asks for another engine or count
 * fails with a clear message, and the rollback that follows (which asks for the recorded values)
 * succeeds. The Temporal server release and the schema version it brings the store to may only
 * move forward: Temporal migrates a schema up, never down, so a deploy of an older release than
 * the last one deployed (OldResourceProperties) is refused too, except as CloudFormation's own
 * rollback of a failed upgrade, which must be let through (the older server still runs on the
 * newer schema; a refused rollback would leave the stack UPDATE_ROLLBACK_FAILED). Every store
 * resource, and the schema task, depend on this one, so a refused deploy fails before anything
 * changes.
 */
const PATTERN = /^temporal-history-(.+)-shards-(\d+)$/;

/** @param {{ Store: string, NumHistoryShards: string | number }} p */
const physicalId = (p) => `temporal-history-${p.Store}-shards-${p.NumHistoryShards}`;

/** -1, 0 or 1 as dotted version a is older than, the same as or newer than b (1.9 < 1.19). */
function compareVersions(/** @type {string} */ a, /** @type {string} */ b) {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0) ? -1 : 1;
  return 0;
}

/** @param {(stackId: string) => Promise<string>} stackStatus */
function makeOnEvent(stackStatus) {
  /** @param {any} event */
  return async function onEvent(event) {
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
      const old = event.OldResourceProperties || {};
      // Records written before releases were recorded carry none: nothing to compare against.
      const downgrade =
        (old.ServerRelease && p.ServerRelease && compareVersions(p.ServerRelease, old.ServerRelease) < 0) ||
        (old.SchemaVersion && p.SchemaVersion && compareVersions(p.SchemaVersion, old.SchemaVersion) < 0);
      if (downgrade && !/ROLLBACK/.test(await stackStatus(event.StackId)))
        throw new Error(
          `Temporal cannot be downgraded: this environment runs ${old.ServerRelease} (store schema ${old.SchemaVersion}) and the deploy asks for ` +
            `${p.ServerRelease} (schema ${p.SchemaVersion}); a schema is only ever migrated up. Deploy ${old.ServerRelease} or newer ` +
            '(environment.servers in config), or create a new environment (-c envName=...) for the older release.',
        );
    }
    return { PhysicalResourceId: physicalId(p) };
  };
}

/** @type {(stackId: string) => Promise<string>} */
async function cloudFormationStatus(stackId) {
  // The Node.js Lambda runtime ships the AWS SDK v3.
  const sdk = require('@aws-sdk/client-cloudformation');
  const out = await new sdk.CloudFormationClient({}).send(new sdk.DescribeStacksCommand({ StackName: stackId }));
  return (out.Stacks && out.Stacks[0] && out.Stacks[0].StackStatus) || '';
}

exports.onEvent = makeOnEvent(cloudFormationStatus);
exports.makeOnEvent = makeOnEvent;
