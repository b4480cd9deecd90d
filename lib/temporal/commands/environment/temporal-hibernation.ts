import { plural } from '../../../commands/shared/figure';
import {
  type AutoScalingClient,
  DescribeAutoScalingGroupsCommand,
  SetInstanceProtectionCommand,
  UpdateAutoScalingGroupCommand,
} from '@aws-sdk/client-auto-scaling';
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DescribeServicesCommand, DescribeTasksCommand, type ECSClient, ListTasksCommand, StopTaskCommand, UpdateServiceCommand } from '@aws-sdk/client-ecs';
import type { RDSClient } from '@aws-sdk/client-rds';
import { ConfigError, TEMPORAL_ROLES, TEMPORAL_STOP_ORDER, type TemporalScenario } from '../../../../config';
import type { EnvironmentOutput, EnvironmentRun } from '../../../commands/environment/family-environment';
import { markdownTable } from '../../../commands/shared/markdown-table';
import {
  BENCHMARK_GENERATOR_FAMILY,
  BENCHMARK_WORKER_SERVICE,
  TEMPORAL_GRAFANA_SERVICE,
  TEMPORAL_UI_SERVICE,
  temporalServiceName,
} from '../../contract/temporal-names';
import { TEMPORAL_OUTPUTS as O } from '../../contract/temporal-stack-outputs';
import { clustersTo } from '../../../commands/aws/cluster-status';
import { type DeployedStack, deployedStack, pickOutputs } from '../../../commands/aws/read-stack-outputs';
import { isHibernated } from '../shared/hibernated';
import { CommandFailure, type CommandIO, EXIT_FAILED } from '../../../commands/shared/cli';
import { type Waiting, waitUntil } from '../../../commands/shared/waiting';
import { checkParameterStack, recordHibernation } from './stack-parameter';

/*
 * A Temporal environment hibernated and woken through the ECS and Auto Scaling APIs, in the
 * order the cluster needs: the benchmark workers and then the roles in the reverse of their
 * start (each service set to 0 tasks, so ECS stops each task as a rolling deploy does: SIGTERM,
 * the server's drain, stopTimeout), then both pools to 0 instances. Waking is the reverse: the
 * main pool back to the preset's size, each role in start order, each only once the one before
 * it runs every task and its health checks pass. An Aurora store is stopped last and started
 * first. The stack's Hibernated parameter records the state last, so a deploy meanwhile keeps it.
 */

interface TemporalClients {
  readonly ecs: ECSClient;
  readonly autoScaling: AutoScalingClient;
  readonly cloudFormation: CloudFormationClient;
  /** The Aurora store's cluster, stopped while hibernated (a DSQL store bills no idle compute). */
  readonly rds: RDSClient;
}

interface TemporalTargets {
  readonly cluster: string;
  readonly mainAsg: string;
  readonly benchmarkAsg: string;
  readonly deployedScenario: string;
}

function temporalTargets(stackName: string, stack: DeployedStack): TemporalTargets {
  return pickOutputs(
    stackName,
    stack.outputs,
    { cluster: O.clusterName, mainAsg: O.mainAsgName, benchmarkAsg: O.benchmarkAsgName, deployedScenario: O.scenario },
    'deployed with an older version? deploy it once with this version first',
  );
}

interface ServiceCounts {
  readonly desired: number;
  readonly running: number;
  readonly pending: number;
}

async function serviceCounts(ecs: ECSClient, cluster: string, service: string): Promise<ServiceCounts> {
  const { services, failures } = await ecs.send(new DescribeServicesCommand({ cluster, services: [service] }));
  const s = services?.[0];
  if (!s || s.status === 'INACTIVE')
    throw new CommandFailure(`service ${service} not found in cluster ${cluster}: ${failures?.[0]?.reason ?? s?.status ?? 'missing'}`, EXIT_FAILED);
  return { desired: s.desiredCount ?? 0, running: s.runningCount ?? 0, pending: s.pendingCount ?? 0 };
}

const describeCounts = (c: ServiceCounts) => `${c.running} running, ${c.pending} pending, ${c.desired} desired`;

/** The service's tasks' health: how many have passed their container health checks, and any that failed. */
async function taskHealth(ecs: ECSClient, cluster: string, service: string): Promise<{ healthy: number; unhealthy: number; listed: number }> {
  const { taskArns } = await ecs.send(new ListTasksCommand({ cluster, serviceName: service, desiredStatus: 'RUNNING' }));
  if (!taskArns?.length) return { healthy: 0, unhealthy: 0, listed: 0 };
  const { tasks } = await ecs.send(new DescribeTasksCommand({ cluster, tasks: taskArns }));
  const states = (tasks ?? []).map((t) => t.healthStatus ?? 'UNKNOWN');
  return { healthy: states.filter((s) => s === 'HEALTHY').length, unhealthy: states.filter((s) => s === 'UNHEALTHY').length, listed: states.length };
}

async function stopService(c: TemporalClients, cluster: string, service: string, w: Waiting): Promise<string> {
  const before = await serviceCounts(c.ecs, cluster, service);
  await c.ecs.send(new UpdateServiceCommand({ cluster, service, desiredCount: 0 }));
  await waitUntil(
    `${service} to drain`,
    async () => {
      const now = await serviceCounts(c.ecs, cluster, service);
      return { done: now.running + now.pending === 0, text: describeCounts(now) };
    },
    w,
  );
  return `${service}: ${before.desired} -> 0 tasks`;
}

async function startService(c: TemporalClients, cluster: string, service: string, count: number, w: Waiting): Promise<string> {
  await c.ecs.send(new UpdateServiceCommand({ cluster, service, desiredCount: count }));
  await waitUntil(
    `${service} to run ${plural(count, 'healthy task')}`,
    async () => {
      const now = await serviceCounts(c.ecs, cluster, service);
      const health = await taskHealth(c.ecs, cluster, service);
      if (health.unhealthy > 0)
        return {
          done: false,
          text: `${describeCounts(now)}; ${plural(health.unhealthy, 'task')} failed ${health.unhealthy === 1 ? 'its' : 'their'} health check (ECS replaces them; see the service's events)`,
        };
      // A task with no health status yet is starting; the roles' task definitions all declare a health check.
      // None listed while the counts say running: an emulator that keeps service counts without
      // tasks (moto). ECS lists a task as soon as it counts it, so on AWS this is the health check's path.
      const healthy = health.listed === 0 || health.healthy === health.listed;
      return { done: now.running === count && now.pending === 0 && healthy, text: `${describeCounts(now)}; ${health.healthy} of ${health.listed} healthy` };
    },
    w,
  );
  return `${service}: ${plural(count, 'task')}, healthy`;
}

async function groupInstances(c: TemporalClients, name: string): Promise<{ instances: string[]; protectedIds: string[]; inService: number }> {
  const { AutoScalingGroups } = await c.autoScaling.send(new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [name] }));
  const group = AutoScalingGroups?.[0];
  if (!group) throw new CommandFailure(`Auto Scaling group ${name} not found`, EXIT_FAILED);
  const instances = group.Instances ?? [];
  return {
    instances: instances.map((i) => i.InstanceId!),
    protectedIds: instances.filter((i) => i.ProtectedFromScaleIn).map((i) => i.InstanceId!),
    inService: instances.filter((i) => i.LifecycleState === 'InService').length,
  };
}

async function emptyGroup(c: TemporalClients, name: string, w: Waiting): Promise<string> {
  const { instances, protectedIds } = await groupInstances(c, name);
  // No task runs on them any more: the scale-in protection ECS set for its tasks has nothing left to protect.
  if (protectedIds.length)
    await c.autoScaling.send(new SetInstanceProtectionCommand({ AutoScalingGroupName: name, InstanceIds: protectedIds, ProtectedFromScaleIn: false }));
  await c.autoScaling.send(new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: name, MinSize: 0, DesiredCapacity: 0 }));
  await waitUntil(
    `${name} to have no instance`,
    async () => {
      const now = await groupInstances(c, name);
      return { done: now.instances.length === 0, text: plural(now.instances.length, 'instance') };
    },
    w,
  );
  return `${name}: ${instances.length} -> 0 instances`;
}

interface HibernateOptions {
  /** Hibernate even while a load generator runs (its run is lost). */
  readonly force?: boolean;
}

async function hibernateTemporal(
  c: TemporalClients,
  scenario: TemporalScenario,
  t: TemporalTargets,
  w: Waiting,
  io: CommandIO,
  o: HibernateOptions = {},
): Promise<string[]> {
  const { taskArns } = await c.ecs.send(new ListTasksCommand({ cluster: t.cluster, family: BENCHMARK_GENERATOR_FAMILY, desiredStatus: 'RUNNING' }));
  if (taskArns?.length && !o.force)
    throw new CommandFailure(
      `a benchmark run is in progress (${plural(taskArns.length, 'load generator task')} running in ${t.cluster}); wait for it to end, or pass --force to stop it first (its run is lost)`,
      EXIT_FAILED,
    );
  const lines: string[] = [];
  // --force: the generator is stopped before the workers it loads, so no start meets a draining cluster.
  for (const task of taskArns ?? []) {
    await c.ecs.send(new StopTaskCommand({ cluster: t.cluster, task, reason: 'npm run hibernate --force' }));
    lines.push(`load generator ${task.split('/').pop()}: stopped (--force)`);
    io.note(lines.at(-1)!);
  }
  // The clients first (the UI, Grafana, the benchmark workers), then the roles in stop order.
  for (const service of [TEMPORAL_UI_SERVICE, TEMPORAL_GRAFANA_SERVICE, BENCHMARK_WORKER_SERVICE, ...TEMPORAL_STOP_ORDER.map(temporalServiceName)]) {
    lines.push(await stopService(c, t.cluster, service, w));
    io.note(lines.at(-1)!);
  }
  for (const group of [t.benchmarkAsg, t.mainAsg]) {
    lines.push(await emptyGroup(c, group, w));
    io.note(lines.at(-1)!);
  }
  const aurora = scenario.preset.store.engine === 'aurora-postgresql';
  if (aurora) {
    lines.push(...(await clustersTo(c.rds, [scenario.environment.names.auroraCluster], 'stopped', w, () => undefined)));
    io.note(lines.at(-1)!);
  }
  const recorded = await recordHibernation(c.cloudFormation, scenario.stackName, true, w);
  lines.push(
    `${scenario.stackName}: Hibernated=true ${recorded === 'already' ? '(already recorded)' : 'recorded'}; a deploy keeps it hibernated until npm run wake`,
  );
  const idle = scenario.environment.spending.idle;
  if (aurora)
    lines.push(
      idle.action === 'off'
        ? 'Aurora starts a stopped cluster after 7 days, and this environment has no idle rule: run npm run hibernate again then, or turn spending.idle on in config/temporal-environment.ts.'
        : `Aurora starts a stopped cluster after 7 days; this environment's idle rule stops the store again after ${idle.minutes} minutes without a connection.`,
    );
  return lines;
}

async function wakeTemporal(c: TemporalClients, scenario: TemporalScenario, t: TemporalTargets, w: Waiting, io: CommandIO): Promise<string[]> {
  const { preset } = scenario;
  const lines: string[] = [];
  // The store first: the servers connect to it as they start.
  if (preset.store.engine === 'aurora-postgresql') {
    lines.push(...(await clustersTo(c.rds, [scenario.environment.names.auroraCluster], 'available', w, () => undefined)));
    io.note(lines.at(-1)!);
  }
  const instances = preset.capacity.main.instances;
  await c.autoScaling.send(new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: t.mainAsg, MinSize: instances, DesiredCapacity: instances }));
  await waitUntil(
    `${t.mainAsg} to have ${plural(instances, 'instance')} in service`,
    async () => {
      const now = await groupInstances(c, t.mainAsg);
      return { done: now.inService >= instances, text: `${now.inService} of ${instances} in service` };
    },
    w,
  );
  lines.push(`${t.mainAsg}: ${instances} instances in service`);
  io.note(lines.at(-1)!);
  for (const role of TEMPORAL_ROLES) {
    lines.push(await startService(c, t.cluster, temporalServiceName(role), preset.services[role].replicas, w));
    io.note(lines.at(-1)!);
  }
  for (const [service, runs] of [
    [TEMPORAL_UI_SERVICE, preset.ui],
    [TEMPORAL_GRAFANA_SERVICE, preset.dashboards],
  ] as const) {
    if (!runs) continue;
    lines.push(await startService(c, t.cluster, service, 1, w));
    io.note(lines.at(-1)!);
  }
  if (scenario.fleet === 'running') {
    lines.push(await startService(c, t.cluster, BENCHMARK_WORKER_SERVICE, preset.benchmark.workers.replicas, w));
    io.note(lines.at(-1)!);
  } else lines.push(`${BENCHMARK_WORKER_SERVICE}: left at 0 (fleet: ${scenario.fleet}); npm run bench -- up brings it`);
  const recorded = await recordHibernation(c.cloudFormation, scenario.stackName, false, w);
  lines.push(`${scenario.stackName}: Hibernated=false ${recorded === 'already' ? '(already recorded)' : 'recorded'}`);
  return lines;
}

/** `hibernate`, `wake` and `environment status` of a Temporal environment: every argument and the stack's state checked before the first change. */
export async function temporalEnvironment({
  command,
  scenario,
  aws,
  target,
  waiting: w,
  io,
  force,
}: EnvironmentRun<TemporalScenario>): Promise<EnvironmentOutput> {
  const c: TemporalClients = { ecs: aws.ecs(target), autoScaling: aws.autoScaling(target), cloudFormation: aws.cloudFormation(target), rds: aws.rds(target) };
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
  return { lines: await (command === 'hibernate' ? hibernateTemporal(c, scenario, t, w, io, { force }) : wakeTemporal(c, scenario, t, w, io)) };
}

async function temporalStatus(
  scenario: TemporalScenario,
  c: TemporalClients,
  t: ReturnType<typeof temporalTargets>,
  hibernated: boolean,
): Promise<EnvironmentOutput> {
  const names = [...TEMPORAL_ROLES.map(temporalServiceName), TEMPORAL_UI_SERVICE, TEMPORAL_GRAFANA_SERVICE, BENCHMARK_WORKER_SERVICE];
  const { services } = await c.ecs.send(new DescribeServicesCommand({ cluster: t.cluster, services: names }));
  const { AutoScalingGroups } = await c.autoScaling.send(new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [t.mainAsg, t.benchmarkAsg] }));
  const serviceStates = names.map((name) => {
    const s = services?.find((x) => x.serviceName === name);
    return { name, found: !!s, running: s?.runningCount ?? 0, desired: s?.desiredCount ?? 0 };
  });
  const groups = [t.mainAsg, t.benchmarkAsg].map((name) => {
    const g = AutoScalingGroups?.find((x) => x.AutoScalingGroupName === name);
    return { name, found: !!g, instances: g?.Instances?.length ?? 0, desired: g?.DesiredCapacity ?? 0, min: g?.MinSize ?? 0 };
  });
  const rows = [
    ...serviceStates.map((s) => [s.name, s.found ? `${s.running} running of ${s.desired} desired` : 'not found']),
    ...groups.map((g) => [g.name, g.found ? `${plural(g.instances, 'instance')}, desired ${g.desired}, min ${g.min}` : 'not found']),
  ];
  return {
    lines: [
      `${scenario.stackName} (${t.deployedScenario}): ${hibernated ? 'hibernated (npm run wake brings it back)' : 'awake'}`,
      '',
      ...markdownTable(['What', 'Now'], rows).trimEnd().split('\n'),
    ],
    status: { stackName: scenario.stackName, deployedScenario: t.deployedScenario, hibernated, services: serviceStates, groups },
  };
}
