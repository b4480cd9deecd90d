// The custom resource's handler, run against a recorded ECS: the task it starts and the wait.
const { makeHandlers } = require('../../../../lib/temporal/constructs/schema-setup/handler.js');

const props = { Cluster: 'temporal-dsql', TaskDefinition: 'arn:td', Container: 'Schema', CapacityProvider: 'cp', Subnets: ['s1'], SecurityGroups: ['sg'] };

function fakeEcs(describe: Record<string, unknown> = {}) {
  const calls: Array<[string, any]> = [];
  const call = async (op: string, input: any) => {
    calls.push([op, input]);
    return op === 'runTask'
      ? { tasks: [{ taskArn: 'arn:task/1' }], failures: [] }
      : { tasks: [{ lastStatus: 'STOPPED', containers: [{ name: 'Schema', exitCode: 0 }], ...describe }] };
  };
  return { calls, handlers: makeHandlers(call) };
}

test('create: runs the schema task with SCHEMA_ACTION=create', async () => {
  const { calls, handlers } = fakeEcs();
  const out = await handlers.onEvent({ RequestType: 'Create', ResourceProperties: props });
  expect(out).toEqual({ PhysicalResourceId: 'temporal-schema', Data: { TaskArn: 'arn:task/1' } });
  expect(calls[0][1]).toMatchObject({
    cluster: 'temporal-dsql',
    taskDefinition: 'arn:td',
    capacityProviderStrategy: [{ capacityProvider: 'cp', weight: 1 }],
    overrides: { containerOverrides: [{ name: 'Schema', environment: [{ name: 'SCHEMA_ACTION', value: 'create' }] }] },
  });
});

test('update: runs update-schema and keeps the id it was created with (earlier versions named it after the shard count)', async () => {
  const { calls, handlers } = fakeEcs();
  const out = await handlers.onEvent({
    RequestType: 'Update',
    PhysicalResourceId: 'temporal-schema-shards-4096',
    ResourceProperties: props,
    OldResourceProperties: props,
  });
  expect(calls[0][1].overrides.containerOverrides[0].environment).toEqual([{ name: 'SCHEMA_ACTION', value: 'update' }]);
  expect(out.PhysicalResourceId).toBe('temporal-schema-shards-4096');
});

test('delete leaves the schema alone', async () => {
  const { calls, handlers } = fakeEcs();
  await expect(handlers.onEvent({ RequestType: 'Delete', PhysicalResourceId: 'temporal-schema-shards-4096', ResourceProperties: props })).resolves.toEqual({
    PhysicalResourceId: 'temporal-schema-shards-4096',
  });
  expect(calls).toEqual([]);
});

test('waits while the task runs, completes on exit 0, fails the deploy on any other exit', async () => {
  const event = { RequestType: 'Create', ResourceProperties: props, Data: { TaskArn: 'arn:task/1' } };
  await expect(fakeEcs({ lastStatus: 'RUNNING' }).handlers.isComplete(event)).resolves.toEqual({ IsComplete: false });
  await expect(fakeEcs().handlers.isComplete(event)).resolves.toEqual({ IsComplete: true });
  const failed = fakeEcs({ containers: [{ name: 'Schema', exitCode: 1 }], stoppedReason: 'Essential container in task exited' });
  await expect(failed.handlers.isComplete(event)).rejects.toThrow(/schema task arn:task\/1 failed \(exit 1\): Essential container in task exited/);
});
