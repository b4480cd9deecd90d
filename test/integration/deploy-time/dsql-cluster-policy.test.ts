import { CreateClusterCommand, DSQLClient, GetClusterPolicyCommand } from '@aws-sdk/client-dsql';
import { dsqlConnectionPolicy } from '../../../lib/temporal/constructs/dsql-cluster-policy';
import { CREDENTIALS, type Moto, MOTO_START_MS, startMoto, useMotoCredentials } from '../../../harness/moto';

/*
 * The DSQL cluster policy's function as it runs in Lambda (the SDK from the environment, no
 * client injected), against moto's DSQL on loopback: what it puts is what the cluster holds,
 * an update replaces it, and a delete leaves it.
 */

useMotoCredentials();
const { onEvent } = require('../../../lib/temporal/constructs/dsql-cluster-policy/handler.js');

let moto: Moto;
let dsql: DSQLClient;
const region = 'eu-west-1';
const saved = { ...process.env };

beforeAll(async () => {
  moto = await startMoto();
  dsql = new DSQLClient({ region, endpoint: moto.endpoint, credentials: CREDENTIALS });
  // What the function's own client reads in Lambda: the region, and here the endpoint too.
  Object.assign(process.env, { AWS_REGION: region, AWS_ENDPOINT_URL: moto.endpoint });
}, MOTO_START_MS + 60_000);

afterAll(() => {
  process.env = saved;
  return moto?.stop();
});

const event = (RequestType: string, identifier: string, policy: unknown) => ({
  RequestType,
  PhysicalResourceId: identifier,
  ResourceProperties: { ServiceToken: 'arn:fn', Identifier: identifier, Policy: JSON.stringify(policy) },
});

test('create and update set the policy the cluster then holds; delete leaves it', async () => {
  const { identifier, arn } = await dsql.send(new CreateClusterCommand({ deletionProtectionEnabled: true }));
  const held = async () => JSON.parse((await dsql.send(new GetClusterPolicyCommand({ identifier }))).policy!);
  const throughEndpoint = dsqlConnectionPolicy(arn!, { vpcEndpointId: 'vpce-0123456789abcdef0' });
  await expect(onEvent(event('Create', identifier!, throughEndpoint))).resolves.toEqual({ PhysicalResourceId: identifier });
  expect(await held()).toEqual(throughEndpoint);

  const overNat = dsqlConnectionPolicy(arn!, { natAddresses: ['198.51.100.7'] });
  await expect(onEvent(event('Update', identifier!, overNat))).resolves.toEqual({ PhysicalResourceId: identifier });
  expect(await held()).toEqual(overNat);

  await expect(onEvent(event('Delete', identifier!, overNat))).resolves.toEqual({ PhysicalResourceId: identifier });
  expect(await held()).toEqual(overNat);
}, 60_000);

test('a cluster that does not exist fails the deploy', async () => {
  await expect(onEvent(event('Create', 'nosuchcluster0000000000000', dsqlConnectionPolicy('arn', { natAddresses: [] })))).rejects.toThrow(/doesn't exist/);
}, 60_000);
