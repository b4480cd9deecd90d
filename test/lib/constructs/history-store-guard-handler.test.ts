// The history store's check, as CloudFormation calls it: what it records, and what it refuses.
const { onEvent } = require('../../../lib/constructs/history-store-guard/handler.js');

const dsql = { ServiceToken: 'arn:fn', Store: 'dsql', NumHistoryShards: '4096' };
const recorded = 'temporal-history-dsql-shards-4096';

test('create records the store and the shard count in the physical id', async () => {
  await expect(onEvent({ RequestType: 'Create', ResourceProperties: dsql })).resolves.toEqual({ PhysicalResourceId: recorded });
  await expect(onEvent({ RequestType: 'Create', ResourceProperties: { ...dsql, Store: 'aurora-postgresql' } })).resolves.toEqual({
    PhysicalResourceId: 'temporal-history-aurora-postgresql-shards-4096',
  });
});

test('an update that keeps both passes and keeps the id (a preset switch)', async () => {
  await expect(onEvent({ RequestType: 'Update', PhysicalResourceId: recorded, ResourceProperties: dsql, OldResourceProperties: dsql })).resolves.toEqual({ PhysicalResourceId: recorded });
});

test('a store switch is refused in one message that names both stores and the way out', async () => {
  const event = { RequestType: 'Update', PhysicalResourceId: recorded, ResourceProperties: { ...dsql, Store: 'aurora-postgresql' }, OldResourceProperties: dsql };
  await expect(onEvent(event)).rejects.toThrow(
    /^the history store cannot change: this environment keeps Temporal's history in dsql, and a switch to aurora-postgresql would orphan it\. .*second environment \(-c envName=\.\.\.\)\.$/,
  );
});

test('a shard-count change is refused, naming the recorded count', async () => {
  const event = { RequestType: 'Update', PhysicalResourceId: recorded, ResourceProperties: { ...dsql, NumHistoryShards: '8192' }, OldResourceProperties: dsql };
  await expect(onEvent(event)).rejects.toThrow(/numHistoryShards cannot change: this Temporal cluster was created with 4096 history shards .*asked for 8192.*Set persistence.numHistoryShards back to 4096/);
});

test('the rollback after a refusal succeeds: it asks for the recorded values', async () => {
  const rollback = { RequestType: 'Update', PhysicalResourceId: recorded, ResourceProperties: dsql, OldResourceProperties: { ...dsql, Store: 'aurora-postgresql' } };
  await expect(onEvent(rollback)).resolves.toEqual({ PhysicalResourceId: recorded });
});

test('delete keeps nothing and refuses nothing', async () => {
  await expect(onEvent({ RequestType: 'Delete', PhysicalResourceId: recorded, ResourceProperties: dsql })).resolves.toEqual({ PhysicalResourceId: recorded });
});

test('an id it did not write is an error, not a silent pass', async () => {
  await expect(onEvent({ RequestType: 'Update', PhysicalResourceId: 'something-else', ResourceProperties: dsql })).rejects.toThrow(/unrecognized history-store record "something-else"/);
});
