// The custom resource's handler, run against a recorded ECS: the shard guard and the task wait.
const { makeHandlers } = require('../../../lib/constructs/schema-setup/handler.js');

const props = { Cluster: 'temporal-dsql', TaskDefinition: 'arn:td', Container: 'Schema', CapacityProvider: 'cp', Subnets: ['s1'], SecurityGroups: ['sg'], NumHistoryShards: '4096' };

function fakeEcs(describe: Record<string, unknown> = {}) {
  const calls: Array<[string, any]> = [];
  const call = async (op: string, input: any) => {
    calls.push([op, input]);
    return op === 'runTask' ? { tasks: [{ taskArn: 'arn:task/1' }], failures: [] } : { tasks: [{ lastStatus: 'STOPPED', containers: [{ name: 'Schema', exitCode: 0 }], ...describe }] };
  };
  return { calls, handlers: makeHandlers(call) };
}

test('create: runs the schema task with SCHEMA_ACTION=create and records the shard count', async () => {
  const { calls, handlers } = fakeEcs();
  const out = await handlers.onEvent({ RequestType: 'Create', ResourceProperties: props });
  expect(out).toEqual({ PhysicalResourceId: 'temporal-schema-shards-4096', Data: { TaskArn: 'arn:task/1' } });
  expect(calls[0][1]).toMatchObject({
    cluster: 'temporal-dsql',
    taskDefinition: 'arn:td',
    capacityProviderStrategy: [{ capacityProvider: 'cp', weight: 1 }],
    overrides: { containerOverrides: [{ name: 'Schema', environment: [{ name: 'SCHEMA_ACTION', value: 'create' }] }] },
  });
});

test('update with the same shard count: runs update-schema', async () => {
  const { calls, handlers } = fakeEcs();
  await handlers.onEvent({ RequestType: 'Update', PhysicalResourceId: 'temporal-schema-shards-4096', ResourceProperties: props, OldResourceProperties: props });
  expect(calls[0][1].overrides.containerOverrides[0].environment).toEqual([{ name: 'SCHEMA_ACTION', value: 'update' }]);
});

test('update that changes numHistoryShards: refused with a clear message, and no task runs', async () => {
  const { calls, handlers } = fakeEcs();
  const event = { RequestType: 'Update', PhysicalResourceId: 'temporal-schema-shards-4096', ResourceProperties: { ...props, NumHistoryShards: '8192' }, OldResourceProperties: props };
  await expect(handlers.onEvent(event)).rejects.toThrow(/numHistoryShards cannot change: this Temporal cluster was created with 4096 history shards .*asked for 8192.*Set persistence.numHistoryShards back to 4096/);
  expect(calls).toEqual([]);
});

test('the rollback after a refused change succeeds (it asks for the original count)', async () => {
  const { handlers } = fakeEcs();
  const rollback = { RequestType: 'Update', PhysicalResourceId: 'temporal-schema-shards-4096', ResourceProperties: props, OldResourceProperties: { ...props, NumHistoryShards: '8192' } };
  await expect(handlers.onEvent(rollback)).resolves.toMatchObject({ PhysicalResourceId: 'temporal-schema-shards-4096' });
});

test('delete leaves the schema alone', async () => {
  const { calls, handlers } = fakeEcs();
  await expect(handlers.onEvent({ RequestType: 'Delete', PhysicalResourceId: 'temporal-schema-shards-4096', ResourceProperties: props })).resolves.toEqual({ PhysicalResourceId: 'temporal-schema-shards-4096' });
  expect(calls).toEqual([]);
});

test('waits while the task runs, completes on exit 0, fails the deploy on any other exit', async () => {
  const event = { RequestType: 'Create', ResourceProperties: props, Data: { TaskArn: 'arn:task/1' } };
  await expect(fakeEcs({ lastStatus: 'RUNNING' }).handlers.isComplete(event)).resolves.toEqual({ IsComplete: false });
  await expect(fakeEcs().handlers.isComplete(event)).resolves.toEqual({ IsComplete: true });
  const failed = fakeEcs({ containers: [{ name: 'Schema', exitCode: 1 }], stoppedReason: 'Essential container in task exited' });
  await expect(failed.handlers.isComplete(event)).rejects.toThrow(/schema task arn:task\/1 failed \(exit 1\): Essential container in task exited/);
});
