import { BatchDeleteImageCommand, CreateRepositoryCommand, ECRClient, PutImageCommand } from '@aws-sdk/client-ecr';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { runPreflight } from '../../../lib/commands/preflight/run-preflight';
import { runCli } from '../../support/cli';
import { CREDENTIALS, type Moto, MOTO_START_MS, startMoto, useMotoCredentials } from '../../../harness/moto';

/*
 * preflight end to end against moto on loopback, through the real SDK clients: an account that
 * has everything a first deploy of temporal-25wps needs passes (the flow, called as the entry
 * point calls it); one image taken away, the real process exits 5 naming it and the command
 * that supplies it.
 */

useMotoCredentials();

let moto: Moto;
const region = 'eu-west-1';
let ecr: ECRClient;

/** An image manifest as a registry stores it: moto keeps it by tag. */
const manifest = (tag: string) =>
  JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
    config: { digest: `sha256:${tag.padEnd(64, '0').slice(0, 64)}` },
    layers: [],
  });

beforeAll(async () => {
  moto = await startMoto();
  const config = { region, endpoint: moto.endpoint, credentials: CREDENTIALS };
  ecr = new ECRClient(config);
  await new SSMClient(config).send(new PutParameterCommand({ Name: '/cdk-bootstrap/hnb659fds/version', Value: '30', Type: 'String' }));
  // The role as AWS names it (moto's CreateServiceLinkedRole would name it AWSServiceRoleForopensearchservice).
  await new IAMClient(config).send(
    new CreateRoleCommand({
      RoleName: 'AWSServiceRoleForAmazonOpenSearchService',
      Path: '/aws-service-role/opensearchservice.amazonaws.com/',
      AssumeRolePolicyDocument: JSON.stringify({
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: 'opensearchservice.amazonaws.com' }, Action: 'sts:AssumeRole' }],
      }),
    }),
  );
  for (const [repositoryName, tag] of [
    ['temporal-dsql', '1.30.0-dsql-e74d6b69'],
    ['temporal-dsql-bench', '1.0.0'],
  ]) {
    await ecr.send(new CreateRepositoryCommand({ repositoryName }));
    await ecr.send(new PutImageCommand({ repositoryName, imageTag: tag, imageManifest: manifest(tag) }));
  }
}, MOTO_START_MS + 60_000);

afterAll(() => moto?.stop());

const preflight = () => runCli('preflight.ts', ['--scenario', 'temporal-25wps', '--endpoint-url', moto.endpoint]);

test('an account with the bootstrap, both images and the service-linked role passes', async () => {
  const out = await runPreflight({ scenario: 'temporal-25wps', endpointUrl: moto.endpoint }, { hasDocker: () => false });
  expect(out.failure).toBeUndefined();
  expect(out.stdout).toContain('| CDK bootstrap of eu-west-1 | ok: version 30 |  |');
  expect(out.stdout).toContain('| images.server: ECR temporal-dsql:1.30.0-dsql-e74d6b69 | ok: pushed |  |');
  expect(out.stdout).toContain('| images.benchmark: ECR temporal-dsql-bench:1.0.0 | ok: pushed |  |');
  expect(out.stdout).toContain('| IAM role AWSServiceRoleForAmazonOpenSearchService (a VPC domain needs it) | ok: present |  |');
}, 60_000);

test('an image taken away: exit 5, naming it and how to push it', async () => {
  await ecr.send(new BatchDeleteImageCommand({ repositoryName: 'temporal-dsql-bench', imageIds: [{ imageTag: '1.0.0' }] }));
  const out = await preflight();
  expect(out.status).toBe(5);
  expect(out.stdout).toContain(
    '| images.benchmark: ECR temporal-dsql-bench:1.0.0 | MISSING: no image tagged 1.0.0 | build and push <account>.dkr.ecr.eu-west-1.amazonaws.com/temporal-dsql-bench:1.0.0 (docs/temporal.md, "Bring it up") |',
  );
  // Every row of the table is a check, less its header and its rule (| --- |).
  const checks = out.stdout.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| ---')).length - 1;
  expect(out.stderr).toBe(
    `error: 1 of ${checks} things the deploy needs are missing: images.benchmark: ECR temporal-dsql-bench:1.0.0 (the table says how to supply each)\n`,
  );
}, 60_000);
