import { DescribeImagesCommand, type ECRClient } from '@aws-sdk/client-ecr';
import { GetRoleCommand, type IAMClient } from '@aws-sdk/client-iam';
import { GetParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import type { ImageRef, Scenario } from '../../../config';
import { CommandFailure, EXIT_FAILED } from '../shared/cli';
import { deployedOutputs, type LifelongSetting, lifelongChanges } from '../shared/lifelong';
import { markdownTable } from '../shared/markdown-table';

/*
 * What a first deploy needs that CloudFormation does not create, checked before it starts:
 * the CDK bootstrap of the scenario's account and region (at the version the app's templates
 * require), every ECR image config names (repository and tag), Docker where an image is a CDK
 * asset, and OpenSearch's service-linked role for a VPC domain. Each missing piece is named
 * with the command that supplies it, so nothing is found an hour into a rollback.
 */

export interface PreflightClients {
  readonly ssm: SSMClient;
  readonly ecr: ECRClient;
  readonly iam: IAMClient;
  readonly cloudFormation: CloudFormationClient;
}

/** What the app's data template says of its bootstrap: the SSM parameter that holds the version, and the versions it refuses. */
export interface BootstrapRequirement {
  readonly parameter: string;
  readonly refused: readonly string[];
}

/** What a scenario's family adds (lib/families.ts): the images its stacks run, and its own checks. */
export interface FamilyPreflight {
  images(scenario: Scenario): [string, ImageRef][];
  preflightChecks(clients: PreflightClients): Promise<PreflightCheck[]>;
  lifelongSettings(scenario: Scenario): readonly LifelongSetting[];
}

export interface PreflightCheck {
  readonly what: string;
  readonly ok: boolean;
  readonly status: string;
  readonly fix: string;
  /** Not missing but refused: the config asks for what the deployed environment cannot take. */
  readonly refused?: boolean;
}

/** What the deployed data stack keeps for life against config's values now: a change is refused before CloudFormation starts. */
async function lifelongCheck(scenario: Scenario, settings: readonly LifelongSetting[], cfn: CloudFormationClient): Promise<PreflightCheck | undefined> {
  if (!settings.length) return undefined;
  const what = `What ${scenario.stackName} keeps for life`;
  const outputs = await deployedOutputs(cfn, scenario.stackName);
  if (!outputs) return { what, ok: true, status: 'not deployed yet: the first deploy records it', fix: '' };
  const changes = lifelongChanges(settings, outputs, scenario.stackName);
  if (changes.length)
    return { what, ok: false, refused: true, status: changes.join('; '), fix: 'set config back, or deploy another environment (-c envName=<name>)' };
  const recorded = settings.filter((s) => outputs[s.output] !== undefined);
  return {
    what,
    ok: true,
    status: recorded.length
      ? `as deployed: ${recorded.map((s) => `${s.setting} ${s.value}`).join(', ')}`
      : "not recorded by the deployed stack (an older version's): the deploy's own guard still refuses a change",
    fix: '',
  };
}

/** OpenSearch's service-linked role, which a VPC domain needs and CloudFormation does not create. */
export const OPENSEARCH_SERVICE_LINKED_ROLE = 'AWSServiceRoleForAmazonOpenSearchService';

/** The bootstrap requirement of a synthesized template: its BootstrapVersion parameter and CheckBootstrapVersion rule, as CDK writes them. */
export function bootstrapRequirement(template: { Parameters?: Record<string, any>; Rules?: Record<string, any> }): BootstrapRequirement {
  const parameter = template.Parameters?.BootstrapVersion?.Default;
  const refused = template.Rules?.CheckBootstrapVersion?.Assertions?.[0]?.Assert?.['Fn::Not']?.[0]?.['Fn::Contains']?.[0];
  if (typeof parameter !== 'string' || !Array.isArray(refused))
    throw new Error('the template has no BootstrapVersion parameter or CheckBootstrapVersion rule: not a DefaultStackSynthesizer template');
  return { parameter, refused };
}

const errorName = (e: unknown) => (e instanceof Error ? e.name : '');

async function bootstrapCheck(scenario: Scenario, need: BootstrapRequirement, ssm: SSMClient): Promise<PreflightCheck> {
  const what = `CDK bootstrap of ${scenario.env.region}`;
  const fix = `npx cdk bootstrap -c scenario=${scenario.name}`;
  try {
    const version = (await ssm.send(new GetParameterCommand({ Name: need.parameter }))).Parameter?.Value ?? '';
    if (need.refused.includes(version))
      return { what, ok: false, status: `version ${version}, older than the app's templates accept (${need.parameter})`, fix };
    return { what, ok: true, status: `version ${version}`, fix: '' };
  } catch (e) {
    if (errorName(e) === 'ParameterNotFound') return { what, ok: false, status: `not bootstrapped (no ${need.parameter})`, fix };
    throw e;
  }
}

async function imageCheck(where: string, ref: ImageRef, scenario: Scenario, ecr: ECRClient, hasDocker: () => boolean): Promise<PreflightCheck> {
  if ('asset' in ref) {
    const ok = hasDocker();
    return {
      what: `${where}: CDK asset ${ref.asset}`,
      ok,
      status: ok ? 'docker found: cdk deploy builds it' : 'no docker on PATH: cdk deploy cannot build it',
      fix: ok ? '' : 'install Docker with buildx, or name an ECR image in config',
    };
  }
  if ('registry' in ref)
    return { what: `${where}: ${ref.registry}`, ok: true, status: 'a public registry: ECS pulls it at deploy (not checked here)', fix: '' };
  const { repository, tag } = ref.ecr;
  const what = `${where}: ECR ${repository}:${tag}`;
  const registry = `<account>.dkr.ecr.${scenario.env.region}.amazonaws.com`;
  try {
    await ecr.send(new DescribeImagesCommand({ repositoryName: repository, imageIds: [{ imageTag: tag }] }));
    return { what, ok: true, status: 'pushed', fix: '' };
  } catch (e) {
    if (errorName(e) === 'RepositoryNotFoundException')
      return {
        what,
        ok: false,
        status: 'no such repository',
        fix: `aws ecr create-repository --region ${scenario.env.region} --repository-name ${repository} --image-scanning-configuration scanOnPush=true, then push ${registry}/${repository}:${tag}`,
      };
    if (errorName(e) === 'ImageNotFoundException')
      return { what, ok: false, status: `no image tagged ${tag}`, fix: `build and push ${registry}/${repository}:${tag} (docs/temporal.md, "Bring it up")` };
    throw e;
  }
}

/** OpenSearch's service-linked role: a VPC domain needs it, and CloudFormation does not create it. */
export async function serviceLinkedRoleCheck(iam: IAMClient): Promise<PreflightCheck> {
  const what = `IAM role ${OPENSEARCH_SERVICE_LINKED_ROLE} (a VPC domain needs it)`;
  try {
    await iam.send(new GetRoleCommand({ RoleName: OPENSEARCH_SERVICE_LINKED_ROLE }));
    return { what, ok: true, status: 'present', fix: '' };
  } catch (e) {
    if (errorName(e) === 'NoSuchEntityException')
      return { what, ok: false, status: 'missing', fix: 'aws iam create-service-linked-role --aws-service-name opensearchservice.amazonaws.com' };
    throw e;
  }
}

/**
 * Every check, in order: the checks, the table to print, and the failure to end with (exit 5,
 * naming what is missing) when anything is.
 */
export async function checkBeforeDeploy(
  scenario: Scenario,
  need: BootstrapRequirement,
  clients: PreflightClients,
  hasDocker: () => boolean,
  family: FamilyPreflight,
): Promise<{ checks: PreflightCheck[]; text: string; failure?: CommandFailure }> {
  const lifelong = await lifelongCheck(scenario, family.lifelongSettings(scenario), clients.cloudFormation);
  const checks = [
    await bootstrapCheck(scenario, need, clients.ssm),
    ...(await Promise.all(family.images(scenario).map(([where, ref]) => imageCheck(where, ref, scenario, clients.ecr, hasDocker)))),
    ...(await family.preflightChecks(clients)),
    ...(lifelong ? [lifelong] : []),
  ];
  const text = `## Before deploying ${scenario.name} to ${scenario.env.region}\n\n${markdownTable(
    ['Check', 'Status', 'What to do'],
    checks.map((c) => [c.what, `${c.ok ? 'ok' : c.refused ? 'REFUSED' : 'MISSING'}: ${c.status}`, c.fix]),
  )}\n`;
  const failed = checks.filter((c) => !c.ok);
  if (!failed.length) return { checks, text };
  const refused = failed.find((c) => c.refused);
  if (refused) return { checks, text, failure: new CommandFailure(refused.status, EXIT_FAILED) };
  return {
    checks,
    text,
    failure: new CommandFailure(
      `${failed.length} of ${checks.length} things the deploy needs are missing: ${failed.map((c) => c.what).join('; ')} (the table says how to supply each)`,
      EXIT_FAILED,
    ),
  };
}
