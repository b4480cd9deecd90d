// The DSQL cluster policy's function, as CloudFormation calls it: what it sets, and what it refuses.
const { makeOnEvent } = require('../../../../lib/temporal/constructs/dsql-cluster-policy/handler.js');

const policy = JSON.stringify({
  Version: '2012-10-17',
  Statement: [
    { Effect: 'Deny', Principal: { AWS: '*' }, Action: ['dsql:DbConnect'], Resource: 'arn', Condition: { StringNotEquals: { 'aws:SourceVpce': 'vpce-1' } } },
  ],
});
const event = (RequestType: string) => ({
  RequestType,
  PhysicalResourceId: 'abc',
  ResourceProperties: { ServiceToken: 'arn:fn', Identifier: 'abc', Policy: policy },
});

/** A cluster's policy store that answers with what `answer` makes of what was put. */
function api(answer: (put: string) => string | undefined = (put) => put) {
  const puts: string[] = [];
  let stored: string | undefined;
  return {
    puts,
    put: async (identifier: string, p: string) => {
      puts.push(`${identifier} ${p}`);
      stored = answer(p);
    },
    get: async () => stored,
  };
}

test.each(['Create', 'Update'])('%s puts the rendered policy and keeps the cluster as the physical id', async (type) => {
  const store = api();
  await expect(makeOnEvent(store)(event(type))).resolves.toEqual({ PhysicalResourceId: 'abc' });
  expect(store.puts).toEqual([`abc ${policy}`]);
});

test('the policy read back in another layout and key order is the same policy', async () => {
  const store = api((p) => {
    const o = JSON.parse(p);
    return JSON.stringify({ Statement: o.Statement, Version: o.Version }, null, 2);
  });
  await expect(makeOnEvent(store)(event('Create'))).resolves.toEqual({ PhysicalResourceId: 'abc' });
});

test('a policy that reads back other than rendered fails the deploy, saying the cluster may be open', async () => {
  const store = api((p) => p.replace('vpce-1', 'vpce-2'));
  await expect(makeOnEvent(store)(event('Update'))).rejects.toThrow(
    /^the resource policy of DSQL cluster abc reads back as .*vpce-2.* after it was set: the cluster may be open to connections from outside the environment/,
  );
});

test('no policy read back fails the deploy too', async () => {
  await expect(makeOnEvent(api(() => undefined))(event('Create'))).rejects.toThrow(/reads back as none after it was set/);
});

test('delete leaves the policy of the retained cluster in force', async () => {
  const store = api();
  await expect(makeOnEvent(store)(event('Delete'))).resolves.toEqual({ PhysicalResourceId: 'abc' });
  expect(store.puts).toEqual([]);
});
