import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BootstrapEnvironments, Toolkit } from '@aws-cdk/toolkit-lib';
import { CloudFormationClient, DescribeStacksCommand, type Stack } from '@aws-sdk/client-cloudformation';
import { DeleteBucketCommand, DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { CATALOG } from '../../../config';
import { type Moto, MOTO_START_MS, startMoto, useMotoCredentials } from '../../../harness/moto';
import { awsCampaignActions } from '../../../lib/campaign/campaign-actions';
import { campaignIoHost, campaignToolkit } from '../../../lib/campaign/toolkit-deploy';
import { recordHibernation } from '../../../lib/temporal/commands/environment/stack-parameter';
import { HIBERNATED_PARAMETER } from '../../../lib/temporal/contract/temporal-stack-outputs';
import { recordingIO } from '../../support/command-io';
import { tempDir } from '../../support/temp-dir';

/*
 * A campaign's deploy stage through the real @aws-cdk/toolkit-lib, with moto answering every AWS
 * call the toolkit makes: the account (STS), the bootstrap that the toolkit itself deploys (its
 * stack, bucket, roles and version parameter), the assets published to that bucket, change sets
 * created and executed, the stacks' parameters, outputs and termination protection. moto's
 * CloudFormation creates the resource types it models and accepts the others (DSQL, Aurora,
 * capacity providers, ...) without creating them, so this proves the toolkit's path and what the
 * campaign asks of it and makes of its answers, not that CloudFormation creates the resources.
 */

useMotoCredentials();

const ACCOUNT = '123456789012'; // moto's default account
const REGION = 'eu-west-1'; // the Temporal environment's
let moto: Moto;
let cfn: CloudFormationClient;
/** The endpoint as the toolkit is given it: moto reads a change set's template from its own S3 only through a URL that names localhost. */
let endpoint: string;
const io = recordingIO();

beforeAll(async () => {
  moto = await startMoto();
  endpoint = moto.endpoint.replace('127.0.0.1', 'localhost');
  cfn = new CloudFormationClient({ region: REGION, endpoint: moto.endpoint });
  // `cdk bootstrap`, as a user runs it once per account and region, by the same toolkit.
  process.env.AWS_ENDPOINT_URL = endpoint;
  const toolkit = new Toolkit({ ioHost: campaignIoHost(recordingIO()), color: false });
  const result = await toolkit.bootstrap(BootstrapEnvironments.fromList([`aws://${ACCOUNT}/${REGION}`]), {});
  expect(result.environments.map((e) => e.status)).toEqual(['success']);
  // The campaign's deploy must point the toolkit at the endpoint it is given (--endpoint-url) itself.
  delete process.env.AWS_ENDPOINT_URL;
}, MOTO_START_MS + 120_000);

afterAll(() => moto?.stop());

const deploy = (scenario: string, dir: string) =>
  awsCampaignActions({ endpointUrl: endpoint, interval: '1s' }, { io, toolkit: () => campaignToolkit(io, endpoint) }).deploy(
    { name: scenario, catalog: CATALOG },
    dir,
  );

async function stack(name: string): Promise<Stack> {
  const { Stacks } = await cfn.send(new DescribeStacksCommand({ StackName: name }));
  return Stacks![0];
}
const output = (s: Stack, key: string) => s.Outputs?.find((o) => o.OutputKey === key)?.OutputValue;
const parameter = (s: Stack, key: string) => s.Parameters?.find((p) => p.ParameterKey === key)?.ParameterValue;

let created: Stack;

test("the first step's deploy creates both stacks through the bootstrap: its assets in the bootstrap's bucket, termination protection on, the preset's outputs, the toolkit's progress on the status line", async () => {
  const dir = tempDir('campaign-deploy-');
  const line = await deploy('temporal-150wps', dir);
  expect(line).toBe('deployed TemporalDsql, TemporalDsqlObservability with temporal-150wps');
  created = await stack('TemporalDsql');
  expect(created).toMatchObject({ StackStatus: 'CREATE_COMPLETE', EnableTerminationProtection: true });
  expect(output(created, 'Scenario')).toBe('temporal-150wps');
  expect(parameter(created, HIBERNATED_PARAMETER)).toBe('false');
  expect((await stack('TemporalDsqlObservability')).StackStatus).toBe('CREATE_COMPLETE');
  // What was deployed is kept in the step's directory: the assembly the toolkit built.
  const template = JSON.parse(readFileSync(join(dir, 'cdk.out', 'TemporalDsql.template.json'), 'utf8'));
  expect(template.Outputs.Scenario.Value).toBe('temporal-150wps');
  // Every asset went up to the bootstrap's bucket: the templates and the custom resources' code.
  const s3 = new S3Client({ region: REGION, endpoint: moto.endpoint, forcePathStyle: true });
  const { Contents } = await s3.send(new ListObjectsV2Command({ Bucket: `cdk-hnb659fds-assets-${ACCOUNT}-${REGION}` }));
  const keys = (Contents ?? []).map((o) => o.Key!);
  expect(keys.filter((k) => k.endsWith('.json')).length).toBeGreaterThanOrEqual(2);
  expect(keys.filter((k) => k.endsWith('.zip')).length).toBeGreaterThanOrEqual(1);
  expect(io.statuses).toEqual(expect.arrayContaining(['TemporalDsql: deploying... [1/2]', 'TemporalDsqlObservability: deploying... [2/2]']));
  expect(io.notes.filter((n) => n.startsWith('error:'))).toEqual([]);
}, 180_000);

test('a switch on a hibernated environment updates both stacks in place and keeps Hibernated as hibernate recorded it', async () => {
  expect(await recordHibernation(cfn, 'TemporalDsql', true, { timeoutSeconds: 60, intervalSeconds: 0.2 })).toBe('recorded');
  const line = await deploy('temporal-800wps', tempDir('campaign-deploy-'));
  expect(line).toBe('deployed TemporalDsql, TemporalDsqlObservability with temporal-800wps');
  const updated = await stack('TemporalDsql');
  expect(updated.StackId).toBe(created.StackId);
  expect(updated.StackStatus).toBe('UPDATE_COMPLETE');
  expect(output(updated, 'Scenario')).toBe('temporal-800wps');
  expect(parameter(updated, HIBERNATED_PARAMETER)).toBe('true');
}, 180_000);

test("a deploy the toolkit cannot finish fails the stage with the toolkit's reason in one line, the stacks left as they were", async () => {
  // The bootstrap's bucket gone (emptied and deleted behind the toolkit's back): the new template cannot be published.
  const s3 = new S3Client({ region: REGION, endpoint: moto.endpoint, forcePathStyle: true });
  const Bucket = `cdk-hnb659fds-assets-${ACCOUNT}-${REGION}`;
  const { Contents } = await s3.send(new ListObjectsV2Command({ Bucket }));
  await s3.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: (Contents ?? []).map((o) => ({ Key: o.Key! })) } }));
  await s3.send(new DeleteBucketCommand({ Bucket }));
  const failed = await deploy('temporal-1200wps', tempDir('campaign-deploy-')).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(failed?.message).toMatch(/^Failed to publish asset .*\): TemporalDsql: fail: No bucket named 'cdk-hnb659fds-assets-123456789012-eu-west-1'/);
  expect(failed?.message).not.toContain('\n');
  const left = await stack('TemporalDsql');
  expect(left.StackStatus).toBe('UPDATE_COMPLETE');
  expect(output(left, 'Scenario')).toBe('temporal-800wps');
}, 180_000);
