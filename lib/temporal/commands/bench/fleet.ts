import { DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { DescribeServicesCommand, UpdateServiceCommand } from '@aws-sdk/client-ecs';
import { CommandFailure, EXIT_FAILED } from '../../../commands/shared/cli';
import type { BenchClients, BenchTargets } from './targets';
import { type Waiting, waitUntil } from '../../../commands/shared/waiting';

/*
 * The benchmark fleet: the worker service's task count and the benchmark ASG under it. The
 * commands set the service's desired count; ECS managed scaling then grows or drains the
 * ASG. With `fleet: external` (the presets' default) deploys leave the count alone.
 */

export interface FleetStatus {
  readonly tasks: { readonly desired: number; readonly running: number; readonly pending: number };
  readonly instances: { readonly inService: number; readonly starting: number; readonly stopping: number; readonly desired: number; readonly max: number };
  /** The service's newest event ("unable to place a task..."), which says why tasks do not start. */
  readonly lastEvent?: string;
}

export async function fleetStatus(c: BenchClients, t: BenchTargets): Promise<FleetStatus> {
  const [{ services, failures }, { AutoScalingGroups }] = await Promise.all([
    c.ecs.send(new DescribeServicesCommand({ cluster: t.cluster, services: [t.workerService] })),
    c.autoScaling.send(new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [t.asgName] })),
  ]);
  const service = services?.[0];
  if (!service || service.status === 'INACTIVE')
    throw new CommandFailure(
      `service ${t.workerService} not found in cluster ${t.cluster}: ${failures?.[0]?.reason ?? service?.status ?? 'missing'}`,
      EXIT_FAILED,
    );
  const asg = AutoScalingGroups?.[0];
  if (!asg) throw new CommandFailure(`Auto Scaling group ${t.asgName} not found`, EXIT_FAILED);
  const states = (asg.Instances ?? []).map((i) => i.LifecycleState ?? '');
  const event = service.events?.[0]?.message;
  return {
    tasks: { desired: service.desiredCount ?? 0, running: service.runningCount ?? 0, pending: service.pendingCount ?? 0 },
    instances: {
      inService: states.filter((s) => s === 'InService').length,
      starting: states.filter((s) => s.startsWith('Pending')).length,
      stopping: states.filter((s) => /^(Terminating|Detaching|Detached|Quarantined)/.test(s)).length,
      desired: asg.DesiredCapacity ?? 0,
      max: asg.MaxSize ?? 0,
    },
    ...(event ? { lastEvent: event } : {}),
  };
}

export const describeFleet = (s: FleetStatus) =>
  `tasks ${s.tasks.running} running, ${s.tasks.pending} pending, ${s.tasks.desired} desired; ` +
  `instances ${s.instances.inService} in service, ${s.instances.starting} starting, ${s.instances.stopping} stopping (ASG desired ${s.instances.desired}, max ${s.instances.max})`;

async function setDesired(c: BenchClients, t: BenchTargets, count: number): Promise<void> {
  await c.ecs.send(new UpdateServiceCommand({ cluster: t.cluster, service: t.workerService, desiredCount: count }));
}

/** Workers to 0, then wait until no task runs and the ASG has no instance left. */
export async function benchDown(c: BenchClients, t: BenchTargets, w: Waiting & { readonly wait?: boolean }): Promise<FleetStatus> {
  await setDesired(c, t, 0);
  if (w.wait === false) return fleetStatus(c, t);
  await waitUntil('workers to stop', async () => statusCheck(await fleetStatus(c, t), (s) => s.tasks.running + s.tasks.pending === 0), w);
  const last = await waitUntil(
    'the benchmark ASG to drain',
    async () => statusCheck(await fleetStatus(c, t), (s) => s.instances.inService + s.instances.starting + s.instances.stopping === 0),
    w,
  );
  return last.status;
}

/** Workers to `count`, then wait until that many run (the ASG grows under them). */
export async function benchUp(c: BenchClients, t: BenchTargets, count: number, w: Waiting): Promise<FleetStatus> {
  await setDesired(c, t, count);
  const last = await waitUntil(
    `${count} workers to run`,
    async () => statusCheck(await fleetStatus(c, t), (s) => s.tasks.running >= count && s.tasks.pending === 0),
    w,
  );
  return last.status;
}

interface StatusCheck {
  readonly done: boolean;
  readonly text: string;
  readonly status: FleetStatus;
}

function statusCheck(status: FleetStatus, done: (s: FleetStatus) => boolean): StatusCheck {
  const ok = done(status);
  return { done: ok, text: describeFleet(status) + (!ok && status.lastEvent ? `; latest service event: ${status.lastEvent}` : ''), status };
}
