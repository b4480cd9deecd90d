import { familyOf } from '../../../../lib/families';
import { DescribeImagesCommand, ECRClient } from '@aws-sdk/client-ecr';
import { GetRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { resolveScenario } from '../../../../config';
import { editedCatalog } from '../../../../harness/catalog';
import { scenarioTemplates } from '../../../../lib/assembly/scenario-app';
import { bootstrapRequirement, OPENSEARCH_SERVICE_LINKED_ROLE, checkBeforeDeploy } from '../../../../lib/commands/preflight/preflight-checks';

const ssm = mockClient(SSMClient);
const ecr = mockClient(ECRClient);
const iam = mockClient(IAMClient);
const cfn = mockClient(CloudFormationClient);
const clients = {
  ssm: new SSMClient({ region: 'eu-west-1' }),
  ecr: new ECRClient({ region: 'eu-west-1' }),
  iam: new IAMClient({ region: 'eu-west-1' }),
  cloudFormation: new CloudFormationClient({ region: 'eu-west-1' }),
};
const notDeployed = () => Object.assign(new Error('Stack with id TemporalDsql does not exist'), { name: 'ValidationError', $metadata: {} });
const awsError = (name: string) => Object.assign(new Error(name), { name, $metadata: {} });

const temporal = resolveScenario({ scenario: 'temporal-25wps' });
const folio = resolveScenario({ scenario: 'baseline' });
const need = bootstrapRequirement(scenarioTemplates(temporal, { scenario: 'temporal-25wps' }).get(temporal.stackName)!);

/** An account where everything is in place. */
function ready() {
  ssm.reset();
  ecr.reset();
  iam.reset();
  cfn.reset();
  cfn.on(DescribeStacksCommand).rejects(notDeployed());
  ssm.on(GetParameterCommand, { Name: '/cdk-bootstrap/hnb659fds/version' }).resolves({ Parameter: { Value: '30' } });
  ecr.on(DescribeImagesCommand).resolves({ imageDetails: [{}] });
  iam.on(GetRoleCommand, { RoleName: OPENSEARCH_SERVICE_LINKED_ROLE }).resolves({ Role: undefined });
}
beforeEach(ready);

test("the bootstrap requirement is read from the app's own template: its SSM parameter and the versions it refuses", () => {
  expect(need).toEqual({ parameter: '/cdk-bootstrap/hnb659fds/version', refused: ['1', '2', '3', '4', '5'] });
  expect(() => bootstrapRequirement({ Resources: {} } as never)).toThrow(/not a DefaultStackSynthesizer template/);
});

test('an account with everything in place passes, each check named', async () => {
  const { text, failure } = await checkBeforeDeploy(temporal, need, clients, () => true, familyOf(temporal));
  expect(failure).toBeUndefined();
  expect(text).toContain('| CDK bootstrap of eu-west-1 | ok: version 30 |  |');
  expect(text).toContain('| images.server: ECR temporal-dsql:1.30.0-dsql-e74d6b69 | ok: pushed |  |');
  expect(text).toContain(
    '| images.collector: public.ecr.aws/aws-observability/aws-otel-collector:v0.43.3 | ok: a public registry: ECS pulls it at deploy (not checked here) |  |',
  );
  expect(text).toContain('| images.benchmark: ECR temporal-dsql-bench:1.0.0 | ok: pushed |  |');
  expect(text).toContain(`| IAM role ${OPENSEARCH_SERVICE_LINKED_ROLE} (a VPC domain needs it) | ok: present |  |`);
  expect(ecr.commandCalls(DescribeImagesCommand).map((c) => c.args[0].input)).toEqual([
    { repositoryName: 'temporal-dsql', imageIds: [{ imageTag: '1.30.0-dsql-e74d6b69' }] },
    { repositoryName: 'temporal-dsql-bench', imageIds: [{ imageTag: '1.0.0' }] },
  ]);
});

test('a FOLIO phase checks its mover image and no OpenSearch role', async () => {
  const { text, failure } = await checkBeforeDeploy(folio, need, clients, () => true, familyOf(folio));
  expect(failure).toBeUndefined();
  expect(text).toContain('| mover.image: ECR folio-mover:16.8-alpine | ok: pushed |  |');
  expect(text).not.toContain(OPENSEARCH_SERVICE_LINKED_ROLE);
  expect(iam.commandCalls(GetRoleCommand)).toHaveLength(0);
});

test.each([
  [
    'no bootstrap',
    () => ssm.on(GetParameterCommand).rejects(awsError('ParameterNotFound')),
    '| CDK bootstrap of eu-west-1 | MISSING: not bootstrapped (no /cdk-bootstrap/hnb659fds/version) | npx cdk bootstrap -c scenario=temporal-25wps |',
  ],
  [
    'a bootstrap too old',
    () => ssm.on(GetParameterCommand).resolves({ Parameter: { Value: '5' } }),
    "| CDK bootstrap of eu-west-1 | MISSING: version 5, older than the app's templates accept (/cdk-bootstrap/hnb659fds/version) | npx cdk bootstrap -c scenario=temporal-25wps |",
  ],
  [
    'no repository',
    () => ecr.on(DescribeImagesCommand, { repositoryName: 'temporal-dsql-bench' }).rejects(awsError('RepositoryNotFoundException')),
    '| images.benchmark: ECR temporal-dsql-bench:1.0.0 | MISSING: no such repository | aws ecr create-repository --region eu-west-1 --repository-name temporal-dsql-bench --image-scanning-configuration scanOnPush=true, then push <account>.dkr.ecr.eu-west-1.amazonaws.com/temporal-dsql-bench:1.0.0 |',
  ],
  [
    'no image of the tag',
    () => ecr.on(DescribeImagesCommand, { repositoryName: 'temporal-dsql' }).rejects(awsError('ImageNotFoundException')),
    '| images.server: ECR temporal-dsql:1.30.0-dsql-e74d6b69 | MISSING: no image tagged 1.30.0-dsql-e74d6b69 |',
  ],
  [
    'no service-linked role',
    () => iam.on(GetRoleCommand).rejects(awsError('NoSuchEntityException')),
    `| IAM role ${OPENSEARCH_SERVICE_LINKED_ROLE} (a VPC domain needs it) | MISSING: missing | aws iam create-service-linked-role --aws-service-name opensearchservice.amazonaws.com |`,
  ],
])('%s is refused with exit 5, naming it and how to supply it', async (_, breakIt, row) => {
  breakIt();
  const { text, failure, checks } = await checkBeforeDeploy(temporal, need, clients, () => true, familyOf(temporal));
  expect(text).toContain(row);
  expect(failure).toMatchObject({ exitCode: 5, message: expect.stringMatching(new RegExp(`^1 of ${checks.length} things the deploy needs are missing: `)) });
});

test('an asset image needs Docker, which cdk deploy builds it with', async () => {
  const withAsset = resolveScenario(
    { scenario: 'temporal-25wps' },
    editedCatalog((c) => (c.temporal.environment.images.benchmark = { asset: 'benchmark', user: '1000:1000' })),
  );
  expect((await checkBeforeDeploy(withAsset, need, clients, () => true, familyOf(withAsset))).text).toContain(
    '| images.benchmark: CDK asset benchmark | ok: docker found: cdk deploy builds it |  |',
  );
  const { text, failure } = await checkBeforeDeploy(withAsset, need, clients, () => false, familyOf(withAsset));
  expect(text).toContain(
    '| images.benchmark: CDK asset benchmark | MISSING: no docker on PATH: cdk deploy cannot build it | install Docker with buildx, or name an ECR image in config |',
  );
  expect(failure?.exitCode).toBe(5);
});

test('any other AWS answer is not read as missing: it reaches the caller', async () => {
  ssm.on(GetParameterCommand).rejects(awsError('AccessDeniedException'));
  await expect(checkBeforeDeploy(temporal, need, clients, () => true, familyOf(temporal))).rejects.toThrow('AccessDeniedException');
});

describe('what the deployed environment keeps for life', () => {
  const deployed = (outputs: Record<string, string>) =>
    cfn.on(DescribeStacksCommand).resolves({
      Stacks: [
        {
          StackName: 'TemporalDsql',
          StackStatus: 'UPDATE_COMPLETE',
          CreationTime: new Date(0),
          Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
        },
      ],
    });

  test('not deployed yet, or deployed with the same values: ok, each said', async () => {
    expect((await checkBeforeDeploy(temporal, need, clients, () => true, familyOf(temporal))).text).toContain(
      '| What TemporalDsql keeps for life | ok: not deployed yet: the first deploy records it |  |',
    );
    deployed({ HistoryShards: '4096', HistoryStoreEngine: 'dsql' });
    const { text, failure } = await checkBeforeDeploy(temporal, need, clients, () => true, familyOf(temporal));
    expect(failure).toBeUndefined();
    expect(text).toContain("ok: as deployed: persistence.numHistoryShards (config/temporal-environment.ts) 4096, temporal-25wps's store.engine dsql");
  });

  test('config lowered numHistoryShards since the environment was created: refused in one line naming the setting and both values', async () => {
    deployed({ HistoryShards: '8192', HistoryStoreEngine: 'dsql' });
    const { text, failure } = await checkBeforeDeploy(temporal, need, clients, () => true, familyOf(temporal));
    expect(failure?.message).toBe(
      'persistence.numHistoryShards (config/temporal-environment.ts) is 8192 in the deployed TemporalDsql and 4096 in config: it can never change once the environment holds data ' +
        '(valid: 8192, as it was created; or another environment: -c envName=<name>)',
    );
    expect(text).toContain('| What TemporalDsql keeps for life | REFUSED: persistence.numHistoryShards');
  });

  test("a stack an older version deployed records nothing: ok, and says the deploy's own guard still refuses a change", async () => {
    deployed({ Scenario: 'temporal-25wps' });
    const { text, failure } = await checkBeforeDeploy(temporal, need, clients, () => true, familyOf(temporal));
    expect(failure).toBeUndefined();
    expect(text).toContain("ok: not recorded by the deployed stack (an older version's)");
  });

  test('a FOLIO phase keeps nothing of this kind: no such check, no CloudFormation call', async () => {
    await checkBeforeDeploy(folio, need, clients, () => true, familyOf(folio));
    expect(cfn.commandCalls(DescribeStacksCommand)).toHaveLength(0);
  });
});
