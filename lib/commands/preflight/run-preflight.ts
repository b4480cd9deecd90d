import { spawnSync } from 'node:child_process';
import { familyOf } from '../../families';
import { scenarioTemplates } from '../../assembly/scenario-app';
import { loadAwsClients } from '../aws/load-clients';
import type { CommandDeps, CommandOutput } from '../shared/cli';
import { resolveTarget } from '../shared/target';
import { bootstrapRequirement, checkBeforeDeploy } from './preflight-checks';

/* `npm run preflight`: what a first deploy of a scenario needs that CloudFormation does not create. */

export interface PreflightOptions {
  readonly scenario: string;
  readonly envName?: string;
  readonly endpointUrl?: string;
  readonly json?: boolean;
}

export interface PreflightDeps extends Pick<CommandDeps, 'aws'> {
  /** Whether Docker runs here (an image built as a CDK asset needs it). */
  readonly hasDocker?: () => boolean;
}

const dockerRuns = () => spawnSync('docker', ['--version'], { stdio: 'ignore' }).status === 0;

export async function runPreflight(o: PreflightOptions, deps: PreflightDeps = {}): Promise<CommandOutput> {
  const context = { scenario: o.scenario, ...(o.envName ? { envName: o.envName } : {}) };
  const { scenario, aws: target } = resolveTarget(o);
  const need = bootstrapRequirement(scenarioTemplates(scenario, context).get(scenario.stackName)!);
  const aws = (deps.aws ?? loadAwsClients)();
  const { checks, text, failure } = await checkBeforeDeploy(
    scenario,
    need,
    { ssm: aws.ssm(target), ecr: aws.ecr(target), iam: aws.iam(target), cloudFormation: aws.cloudFormation(target) },
    deps.hasDocker ?? dockerRuns,
    familyOf(scenario),
  );
  const json = { scenario: scenario.name, region: scenario.env.region, checks, missing: checks.filter((c) => !c.ok).length };
  return { stdout: o.json ? `${JSON.stringify(json, null, 2)}\n` : text, failure };
}
