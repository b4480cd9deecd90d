// The history store's check, as CloudFormation calls it: what it records, and what it refuses.
const { onEvent } = require('../../../../lib/temporal/constructs/history-store-guard/handler.js');

const dsql = { ServiceToken: 'arn:fn', Store: 'dsql', NumHistoryShards: '4096' };
const recorded = 'temporal-history-dsql-shards-4096';

test('create records the store and the shard count in the physical id', async () => {
  await expect(onEvent({ RequestType: 'Create', ResourceProperties: dsql })).resolves.toEqual({ PhysicalResourceId: recorded });
  await expect(onEvent({ RequestType: 'Create', ResourceProperties: { ...dsql, Store: 'aurora-postgresql' } })).resolves.toEqual({
    PhysicalResourceId: 'temporal-history-aurora-postgresql-shards-4096',
  });
});

test('an update that keeps both passes and keeps the id (a preset switch)', async () => {
  await expect(onEvent({ RequestType: 'Update', PhysicalResourceId: recorded, ResourceProperties: dsql, OldResourceProperties: dsql })).resolves.toEqual({
    PhysicalResourceId: recorded,
  });
});

test('a store switch is refused in one message that names both stores and the way out', async () => {
  const event = {
    RequestType: 'Update',
    PhysicalResourceId: recorded,
    ResourceProperties: { ...dsql, Store: 'aurora-postgresql' },
    OldResourceProperties: dsql,
  };
  await expect(onEvent(event)).rejects.toThrow(
    /^the history store cannot change: this environment keeps Temporal's history in dsql, and a switch to aurora-postgresql would orphan it\. .*second environment \(-c envName=\.\.\.\)\.$/,
  );
});

test('a shard-count change is refused, naming the recorded count', async () => {
  const event = { RequestType: 'Update', PhysicalResourceId: recorded, ResourceProperties: { ...dsql, NumHistoryShards: '8192' }, OldResourceProperties: dsql };
  await expect(onEvent(event)).rejects.toThrow(
    /numHistoryShards cannot change: this Temporal cluster was created with 4096 history shards .*asked for 8192.*Set persistence.numHistoryShards back to 4096/,
  );
});

test('the rollback after a refusal succeeds: it asks for the recorded values', async () => {
  const rollback = {
    RequestType: 'Update',
    PhysicalResourceId: recorded,
    ResourceProperties: dsql,
    OldResourceProperties: { ...dsql, Store: 'aurora-postgresql' },
  };
  await expect(onEvent(rollback)).resolves.toEqual({ PhysicalResourceId: recorded });
});

test('delete keeps nothing and refuses nothing', async () => {
  await expect(onEvent({ RequestType: 'Delete', PhysicalResourceId: recorded, ResourceProperties: dsql })).resolves.toEqual({ PhysicalResourceId: recorded });
});

test('an id it did not write is an error, not a silent pass', async () => {
  await expect(onEvent({ RequestType: 'Update', PhysicalResourceId: 'something-else', ResourceProperties: dsql })).rejects.toThrow(
    /unrecognized history-store record "something-else"/,
  );
});

describe('the Temporal release only moves forward', () => {
  const { makeOnEvent } = require('../../../../lib/temporal/constructs/history-store-guard/handler.js');
  const aurora = { ServiceToken: 'arn:fn', Store: 'aurora-postgresql', NumHistoryShards: '4096' };
  const at = (ServerRelease: string, SchemaVersion: string) => ({ ...aurora, ServerRelease, SchemaVersion });
  const id = 'temporal-history-aurora-postgresql-shards-4096';
  const update = (from: object, to: object) => ({
    RequestType: 'Update',
    StackId: 'arn:aws:cloudformation:eu-west-1:111122223333:stack/TemporalDsql/x',
    PhysicalResourceId: id,
    OldResourceProperties: from,
    ResourceProperties: to,
  });
  const statuses: string[] = [];
  const guard = (status: string) =>
    makeOnEvent(async (stackId: string) => {
      statuses.push(stackId);
      return status;
    });

  test('an upgrade passes, and so does redeploying the same release', async () => {
    await expect(guard('UPDATE_IN_PROGRESS')(update(at('1.30.0', '1.18'), at('1.32.2', '1.19')))).resolves.toEqual({ PhysicalResourceId: id });
    await expect(guard('UPDATE_IN_PROGRESS')(update(at('1.32.2', '1.19'), at('1.32.2', '1.19')))).resolves.toEqual({ PhysicalResourceId: id });
  });

  test('a downgrade is refused, naming both releases and schemas, before anything changes', async () => {
    await expect(guard('UPDATE_IN_PROGRESS')(update(at('1.32.2', '1.19'), at('1.30.1', '1.18')))).rejects.toThrow(
      /^Temporal cannot be downgraded: this environment runs 1\.32\.2 \(store schema 1\.19\) and the deploy asks for 1\.30\.1 \(schema 1\.18\); a schema is only ever migrated up\. Deploy 1\.32\.2 or newer/,
    );
    // Versions compare by number, not as text: 1.9 is older than 1.19.
    await expect(guard('UPDATE_IN_PROGRESS')(update(at('1.32.2', '1.19'), at('1.32.2', '1.9')))).rejects.toThrow(/cannot be downgraded/);
  });

  test("CloudFormation's rollback of a failed upgrade is let through (the stack says it is rolling back)", async () => {
    statuses.length = 0;
    await expect(guard('UPDATE_ROLLBACK_IN_PROGRESS')(update(at('1.32.2', '1.19'), at('1.30.0', '1.18')))).resolves.toEqual({ PhysicalResourceId: id });
    expect(statuses).toEqual(['arn:aws:cloudformation:eu-west-1:111122223333:stack/TemporalDsql/x']);
  });

  test('a record from before releases were recorded compares nothing, and asks nothing of CloudFormation', async () => {
    statuses.length = 0;
    await expect(guard('UPDATE_IN_PROGRESS')(update(aurora, at('1.30.0', '1.18')))).resolves.toEqual({ PhysicalResourceId: id });
    expect(statuses).toEqual([]);
  });
});
