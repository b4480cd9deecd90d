import { DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { ConfigError } from '../../../../config';
import { resolveTargetOf } from '../../../commands/shared/target';
import { DASHBOARD_UID } from '../../contract/dashboards';
import { TEMPORAL_OUTPUTS as O } from '../../contract/temporal-stack-outputs';
import { loadAwsClients } from '../../../commands/aws/load-clients';
import { deployedStack, pickOutputs } from '../../../commands/aws/read-stack-outputs';
import { isHibernated } from '../shared/hibernated';
import { CommandFailure, type CommandDeps, type CommandOutput, EXIT_FAILED } from '../../../commands/shared/cli';
import { numberOption } from '../../../commands/shared/option-values';

/*
 * `npm run ui`: how to reach the deployed preset's Temporal Web UI, or with --dashboards its
 * Grafana and the live dashboard. Each answers only inside the VPC (ui.<namespace>,
 * grafana.<namespace>), admitting the main pool's instances; a Session Manager port-forwarding
 * session through one of them brings it to a local port. The command reads the stack and the
 * pool and prints that session's command; it changes nothing.
 */

export interface UiOptions {
  readonly scenario: string;
  readonly envName?: string;
  readonly endpointUrl?: string;
  readonly localPort?: string;
  /** Grafana and the live dashboard instead of the Web UI. */
  readonly dashboards?: boolean;
}

/**
 * Prints the Session Manager command that forwards a port to the UI, which the user then runs.
 * @iamActions ssm:StartSession arn:aws:ec2:${Region}:${Account}:instance/*
 * @iamActions ssm:StartSession arn:aws:ssm:${Region}::document/AWS-StartPortForwardingSessionToRemoteHost
 */
export async function runUi(o: UiOptions, deps: CommandDeps = {}): Promise<CommandOutput> {
  const { scenario, aws: target } = resolveTargetOf('temporal', 'ui', o);
  const { environment: e, preset } = scenario;
  const to = o.dashboards
    ? {
        what: 'Grafana with the live dashboard',
        runs: preset.dashboards,
        refusal: `${scenario.name} runs no Grafana (dashboards: false in config/temporal-scenarios.ts) (valid: a preset with dashboards: true, or set it and deploy)`,
        port: e.dashboards.port,
        output: O.grafanaAddress,
        path: `/d/${DASHBOARD_UID}`,
      }
    : {
        what: 'The Temporal Web UI',
        runs: preset.ui,
        refusal: `${scenario.name} runs no Web UI (ui: false in config/temporal-scenarios.ts) (valid: a preset with ui: true, or set it and deploy)`,
        port: e.ui.port,
        output: O.uiAddress,
        path: `/namespaces/${preset.benchmark.namespace}/workflows`,
      };
  const localPort = numberOption('--local-port', o.localPort, { min: 1024, max: 65535, integer: true, what: 'a port on this machine' }) ?? to.port;
  if (!to.runs) throw new ConfigError(to.refusal);
  const aws = (deps.aws ?? loadAwsClients)();
  const stack = await deployedStack(aws.cloudFormation(target), scenario.stackName);
  const wake = `npm run wake -- --scenario ${scenario.name}${scenario.envName ? ` --env-name ${scenario.envName}` : ''}`;
  if (isHibernated(stack))
    throw new CommandFailure(
      `${scenario.stackName} is hibernated: ${o.dashboards ? 'Grafana does' : 'the UI does'} not run (${wake} brings it back)`,
      EXIT_FAILED,
    );
  const out = pickOutputs(
    scenario.stackName,
    stack.outputs,
    { address: to.output, pool: O.mainAsgName, deployed: O.scenario },
    'deployed by an older version: deploy this one first',
  );
  if (out.deployed !== scenario.name)
    throw new ConfigError(`${scenario.stackName} was last deployed with ${out.deployed}, not ${scenario.name} (valid: --scenario ${out.deployed})`);
  const { AutoScalingGroups } = await aws.autoScaling(target).send(new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [out.pool] }));
  const instance = (AutoScalingGroups?.[0]?.Instances ?? [])
    .filter((i) => i.LifecycleState === 'InService' && i.HealthStatus !== 'Unhealthy')
    .map((i) => i.InstanceId!)
    .sort()[0];
  if (!instance)
    throw new CommandFailure(
      `${out.pool} has no instance in service to forward through: is the preset up? (npm run environment -- status --scenario ${scenario.name})`,
      EXIT_FAILED,
    );
  const [host, port] = out.address.split(':');
  const parameters = JSON.stringify({ host: [host], portNumber: [port], localPortNumber: [String(localPort)] });
  return {
    stdout: [
      `${to.what} of ${scenario.stackName} (${scenario.name}) answers at ${out.address}, inside the VPC only. Forward a port of this machine to it`,
      `through ${instance} of ${out.pool} (Session Manager: the AWS CLI with its session-manager-plugin, and ssm:StartSession on that instance):`,
      '',
      `  aws ssm start-session --region ${scenario.env.region} --target ${instance} --document-name AWS-StartPortForwardingSessionToRemoteHost --parameters '${parameters}'`,
      '',
      `then open http://localhost:${localPort}${to.path} (the session ends with Ctrl-C).`,
      '',
    ].join('\n'),
  };
}
