import { spawnSync } from 'node:child_process';
import { familyOf, resolveScenario } from '../../families';
import { scenarioTemplates } from '../../assembly/scenario-app';
import { loadAwsClients } from '../aws/load-clients';
import type { CommandDeps, CommandOutput } from '../shared/cli';
import { bootstrapRequirement, checkBeforeDeploy } from './preflight-checks';

/* `npm run preflight`: what a first deploy of a scenario needs that CloudFormation does not create. */

export interface PreflightOptions {
  readonly scenario: string;
  readonly envName?: string;
  readonly endpointUrl?: string;
}

export interface PreflightDeps extends Pick<CommandDeps, 'aws'> {
  /** Whether Docker runs here (an image built as a CDK asset needs it). */
  readonly hasDocker?: () => boolean;
}

const dockerRuns = () => spawnSync('docker', ['--version'], { stdio: 'ignore' }).status === 0;

export async function runPreflight(o: PreflightOptions, deps: PreflightDeps = {}): Promise<CommandOutput> {
  const context = { scenario: o.scenario, ...(o.envName ? { envName: o.envName } : {}) };
  const scenario = resolveScenario(context, undefined, '--scenario');
  const need = bootstrapRequirement(scenarioTemplates(scenario, context).get(scenario.stackName)!);
  const aws = (deps.aws ?? loadAwsClients)();
  const target = { region: scenario.env.region, endpoint: o.endpointUrl };
  const { text, failure } = await checkBeforeDeploy(
    scenario,
    need,
    { ssm: aws.ssm(target), ecr: aws.ecr(target), iam: aws.iam(target) },
    deps.hasDocker ?? dockerRuns,
    familyOf(scenario),
  );
  return { stdout: text, failure };
}
