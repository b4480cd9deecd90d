import { dsqlConnectionPolicy } from '../../../../lib/temporal/constructs/dsql-cluster-policy';
import { policyProblems } from '../../../../lib/commands/operator-policy/policy-document';

const arn = 'arn:aws:dsql:eu-west-1:123456789012:cluster/abcdefghijklmnopqrstuvwxyz';

test.each([
  ['through the endpoint', { vpcEndpointId: 'vpce-0123456789abcdef0' }],
  ['from the NAT gateways', { natAddresses: ['198.51.100.7', '198.51.100.8'] }],
])('the policy that admits connections only %s passes the policy linter: known actions, the cluster type, global keys', async (_, path) => {
  expect(await policyProblems(dsqlConnectionPolicy(arn, path) as never)).toEqual([]);
});

test('each NAT address is one host', () => {
  expect(dsqlConnectionPolicy(arn, { natAddresses: ['198.51.100.7'] }).Statement[0].Condition).toEqual({
    NotIpAddress: { 'aws:SourceIp': ['198.51.100.7/32'] },
  });
});
