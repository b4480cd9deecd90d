import { DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { DescribeServicesCommand } from '@aws-sdk/client-ecs';
import type { RDSClient } from '@aws-sdk/client-rds';
import { ConfigError, resolveScenario, TEMPORAL_ROLES, type FolioScenario, type TemporalScenario } from '../../../config';
import { BENCHMARK_WORKER_SERVICE, TEMPORAL_GRAFANA_SERVICE, TEMPORAL_UI_SERVICE, temporalServiceName } from '../../contract/physical-names';
import { folioClusterStatus } from '../aws/cluster-status';
import { loadAwsClients } from '../aws/load-clients';
import { deployedStack, isHibernated } from '../aws/read-stack-outputs';
import { type CommandDeps, type CommandIO, type CommandOutput, processIO } from '../shared/cli';
import { markdownTable } from '../shared/markdown-table';
import { commandWaiting, type Waiting } from '../shared/waiting';
import { hibernateFolio, wakeFolio } from './folio-hibernation';
import { checkParameterStack } from './stack-parameter';
import { hibernateTemporal, type TemporalClients, temporalTargets, wakeTemporal } from './temporal-hibernation';

/*
 * `npm run hibernate`, `npm run wake` and `npm run environment -- status`: a whole environment
 * of either family down to what its data costs, and back. Every argument and the stack's state
 * are checked before the first change.
 */

export type EnvironmentCommand = 'hibernate' | 'wake' | 'status';

export interface EnvironmentOptions {
  readonly scenario: string;
  readonly envName?: string;
  readonly endpointUrl?: string;
  readonly timeout: string;
  readonly interval: string;
  /** hibernate: even while a load generator runs. */
  readonly force?: boolean;
}

/** With a clock and a sleep: waits without real time passing (tests). */
export type EnvironmentDeps = CommandDeps & Pick<Waiting, 'sleep' | 'now'>;

export async function runEnvironment(command: EnvironmentCommand, o: EnvironmentOptions, deps: EnvironmentDeps = {}): Promise<CommandOutput> {
  const io = deps.io ?? processIO();
  const scenario = resolveScenario({ scenario: o.scenario, ...(o.envName ? { envName: o.envName } : {}) }, undefined, '--scenario') as
    TemporalScenario | FolioScenario;
  const waiting = commandWaiting(o.timeout, o.interval, io, deps);
  const aws = (deps.aws ?? loadAwsClients)();
  const target = { region: scenario.env.region, endpoint: o.endpointUrl };
  const lines =
    scenario.family === 'temporal'
      ? await temporal(
          command,
          scenario,
          { ecs: aws.ecs(target), autoScaling: aws.autoScaling(target), cloudFormation: aws.cloudFormation(target), rds: aws.rds(target) },
          waiting,
          io,
          o,
        )
      : await folio(command, scenario, aws.rds(target), waiting, io);
  io.status.done();
  return { stdout: `${lines.join('\n')}\n` };
}

async function temporal(
  command: EnvironmentCommand,
  scenario: TemporalScenario,
  c: TemporalClients,
  w: Waiting,
  io: CommandIO,
  o: EnvironmentOptions,
): Promise<string[]> {
  const stack = await deployedStack(c.cloudFormation, scenario.stackName);
  const t = temporalTargets(scenario.stackName, stack);
  if (command === 'status') return temporalStatus(scenario, c, t, isHibernated(stack));
  checkParameterStack(scenario.stackName, stack);
  // The deployed preset's sizes (wake) and store (both) are the ones that exist.
  if (t.deployedScenario !== scenario.name)
    throw new ConfigError(
      `${scenario.stackName} was last deployed with ${t.deployedScenario}, not ${scenario.name}: its task sizes and store are ${t.deployedScenario}'s (valid: --scenario ${t.deployedScenario})`,
    );
  const again = `npm run ${command} -- --scenario ${scenario.name}${scenario.envName ? ` --env-name ${scenario.envName}` : ''}`;
  io.onInterrupt(() => `what was already set stays so (ECS goes on draining or starting it); ${again} finishes the ${command}`);
  return command === 'hibernate' ? hibernateTemporal(c, scenario, t, w, io, { force: o.force }) : wakeTemporal(c, scenario, t, w, io);
}

async function temporalStatus(scenario: TemporalScenario, c: TemporalClients, t: ReturnType<typeof temporalTargets>, hibernated: boolean): Promise<string[]> {
  const names = [...TEMPORAL_ROLES.map(temporalServiceName), TEMPORAL_UI_SERVICE, TEMPORAL_GRAFANA_SERVICE, BENCHMARK_WORKER_SERVICE];
  const { services } = await c.ecs.send(new DescribeServicesCommand({ cluster: t.cluster, services: names }));
  const { AutoScalingGroups } = await c.autoScaling.send(new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [t.mainAsg, t.benchmarkAsg] }));
  const rows = [
    ...names.map((n) => {
      const s = services?.find((x) => x.serviceName === n);
      return [n, s ? `${s.runningCount ?? 0} running of ${s.desiredCount ?? 0} desired` : 'not found'];
    }),
    ...[t.mainAsg, t.benchmarkAsg].map((n) => {
      const g = AutoScalingGroups?.find((x) => x.AutoScalingGroupName === n);
      return [n, g ? `${g.Instances?.length ?? 0} instance(s), desired ${g.DesiredCapacity ?? 0}, min ${g.MinSize ?? 0}` : 'not found'];
    }),
  ];
  return [
    `${scenario.stackName} (${t.deployedScenario}): ${hibernated ? 'hibernated (npm run wake brings it back)' : 'awake'}`,
    '',
    ...markdownTable(['What', 'Now'], rows).trimEnd().split('\n'),
  ];
}

async function folio(command: EnvironmentCommand, scenario: FolioScenario, rds: RDSClient, w: Waiting, io: CommandIO): Promise<string[]> {
  if (command === 'status') {
    const s = await folioClusterStatus(rds, scenario);
    const n = scenario.environment.names;
    const state =
      s.primary === 'stopped' && s.offload === 'stopped'
        ? 'hibernated (clusters stopped)'
        : s.primary === 'available' && s.offload === 'available'
          ? 'awake'
          : 'changing';
    return [`${scenario.stackName}: ${state}`, `${n.primaryCluster}: ${s.primary}`, `${n.offloadCluster}: ${s.offload}`];
  }
  return command === 'hibernate' ? hibernateFolio(rds, scenario, w, io) : wakeFolio(rds, scenario, w, io);
}
