import { GetLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { GetClusterCommand } from '@aws-sdk/client-dsql';
import { DescribeTaskDefinitionCommand, DescribeTasksCommand, ListTasksCommand, RunTaskCommand, StopTaskCommand, type Task } from '@aws-sdk/client-ecs';
import { CommandFailure, EXIT_FAILED } from '../../../commands/shared/cli';
import { BENCHMARK_GENERATOR_FAMILY, GENERATOR_CONTAINER, PROBE_CONTAINER } from '../../contract/temporal-names';
import { findProbeResult, findResult, type RunRecord } from '../../../commands/shared/run-record';
import { fleetStatus } from './fleet';
import type { BenchClients, BenchTargets } from './targets';
import { type Waiting, waitUntil } from '../../../commands/shared/waiting';

/*
 * One benchmark run: check the DSQL cluster is ACTIVE and the workers are up, start the
 * load-generator task on the benchmark capacity provider with the run's rate, duration and
 * ramp-up, wait for it to stop, and read the result the generator prints to its log. The
 * record it returns is what `report --run` reads.
 */

export interface RunSettings {
  readonly scenario: string;
  readonly rate: number;
  /** Go durations, as the generator reads them. */
  readonly duration: string;
  readonly rampUp: string;
  /** false: no store probe before this run (a ladder probes before its first step only). */
  readonly probe?: boolean;
  /** A generator already running (left by a run whose caller was killed) is stopped first, not refused. */
  readonly stopRunning?: boolean;
}

async function checkDsqlActive(c: BenchClients, identifier: string): Promise<void> {
  const cluster = await c.dsql.send(new GetClusterCommand({ identifier })).catch((e: Error) => {
    if (e.name === 'ResourceNotFoundException')
      throw new CommandFailure(`Aurora DSQL cluster ${identifier} (the stack's DsqlClusterId output) does not exist: deleted outside the stack?`, EXIT_FAILED);
    throw e;
  });
  if (cluster.status !== 'ACTIVE')
    throw new CommandFailure(
      `Aurora DSQL cluster ${identifier} is ${cluster.status ?? 'in an unknown state'}, not ACTIVE; wait for it (or check why) before a run`,
      EXIT_FAILED,
    );
}

async function startGenerator(c: BenchClients, t: BenchTargets, s: RunSettings): Promise<string> {
  const { tasks, failures } = await c.ecs.send(
    new RunTaskCommand({
      cluster: t.cluster,
      taskDefinition: t.generatorTaskDefinition,
      capacityProviderStrategy: [{ capacityProvider: t.capacityProvider, weight: 1 }],
      networkConfiguration: { awsvpcConfiguration: { subnets: [...t.subnets], securityGroups: [t.securityGroup], assignPublicIp: 'DISABLED' } },
      overrides: {
        containerOverrides: [
          {
            name: GENERATOR_CONTAINER,
            environment: [
              { name: 'BENCHMARK_TARGET_RATE', value: String(s.rate) },
              { name: 'BENCHMARK_DURATION', value: s.duration },
              { name: 'BENCHMARK_RAMP_UP', value: s.rampUp },
            ],
          },
        ],
      },
      startedBy: `bench-run/${s.scenario}`.slice(0, 36),
      count: 1,
    }),
  );
  const arn = tasks?.[0]?.taskArn;
  if (!arn)
    throw new CommandFailure(
      `RunTask started no generator: ${failures?.map((f) => `${f.arn ?? ''} ${f.reason ?? ''}`.trim()).join('; ') || 'no reason given'}`,
      EXIT_FAILED,
    );
  return arn;
}

async function describeTask(c: BenchClients, cluster: string, arn: string): Promise<Task> {
  const { tasks } = await c.ecs.send(new DescribeTasksCommand({ cluster, tasks: [arn] }));
  if (!tasks?.[0]) throw new CommandFailure(`task ${arn} is gone from cluster ${cluster}`, EXIT_FAILED);
  return tasks[0];
}

/**
 * Where the generator's container logs: the awslogs options of its task definition, and the
 * stream awslogs names `<prefix>/<container>/<task id>`.
 */
async function logStream(
  c: BenchClients,
  taskDefinition: string,
  taskArn: string,
  container = GENERATOR_CONTAINER,
): Promise<{ group: string; stream: string } | undefined> {
  const { taskDefinition: td } = await c.ecs.send(new DescribeTaskDefinitionCommand({ taskDefinition }));
  const options = td?.containerDefinitions?.find((d) => d.name === container)?.logConfiguration?.options;
  const group = options?.['awslogs-group'];
  const prefix = options?.['awslogs-stream-prefix'];
  if (!group || !prefix) return undefined;
  return { group, stream: `${prefix}/${container}/${taskArn.split('/').pop()}` };
}

async function logLines(c: BenchClients, group: string, stream: string): Promise<string[]> {
  const lines: string[] = [];
  let token: string | undefined;
  for (;;) {
    const page = await c.logs.send(new GetLogEventsCommand({ logGroupName: group, logStreamName: stream, startFromHead: true, nextToken: token }));
    lines.push(...(page.events ?? []).map((e) => e.message ?? ''));
    if (!page.nextForwardToken || page.nextForwardToken === token) return lines;
    token = page.nextForwardToken;
  }
}

export interface RunHooks extends Waiting {
  /** Called once the generator task exists, with its ARN (so an interrupted user can stop it). */
  readonly onStarted?: (taskArn: string) => void;
  /** Called for each generator stopped first (stopRunning). */
  readonly onStoppedRunning?: (taskArn: string) => void;
}

/**
 * A generator already running: a run whose caller was killed (a terminal closed, a campaign
 * resumed) leaves its task going, and a second beside it would double the load both measure.
 * Refused, naming it; or, with stopRunning, stopped and waited for.
 */
async function noGeneratorRunning(c: BenchClients, t: BenchTargets, s: RunSettings, w: RunHooks): Promise<void> {
  const { taskArns = [] } = await c.ecs.send(new ListTasksCommand({ cluster: t.cluster, family: BENCHMARK_GENERATOR_FAMILY, desiredStatus: 'RUNNING' }));
  if (!taskArns.length) return;
  const id = (arn: string) => arn.split('/').pop();
  if (!s.stopRunning)
    throw new CommandFailure(
      `a load generator is running already in cluster ${t.cluster} (task ${taskArns.map(id).join(', ')}): two at once would each measure the other's load; ` +
        `wait for it to end, or stop it: aws ecs stop-task --cluster ${t.cluster} --task ${id(taskArns[0])}`,
      EXIT_FAILED,
    );
  for (const task of taskArns) {
    await c.ecs.send(new StopTaskCommand({ cluster: t.cluster, task, reason: 'bench: a generator whose run was interrupted, stopped before the next run' }));
    w.onStoppedRunning?.(task);
  }
  await waitUntil(
    "the interrupted run's load generator to stop",
    async () => {
      const { tasks = [] } = await c.ecs.send(new DescribeTasksCommand({ cluster: t.cluster, tasks: taskArns }));
      const left = tasks.filter((x) => x.lastStatus !== 'STOPPED').length;
      return { done: left === 0, text: `${left} of ${taskArns.length} still stopping` };
    },
    w,
  );
}

export async function benchRun(c: BenchClients, t: BenchTargets, s: RunSettings, w: RunHooks): Promise<RunRecord> {
  if (t.dsqlClusterId) await checkDsqlActive(c, t.dsqlClusterId);
  const fleet = await fleetStatus(c, t);
  if (fleet.tasks.running === 0)
    throw new CommandFailure(
      `no benchmark worker is running (${fleet.tasks.desired} desired); run \`npm run bench -- up --scenario ${s.scenario}\` first`,
      EXIT_FAILED,
    );

  await noGeneratorRunning(c, t, s, w);
  // The store's round trip first, on a quiet cluster: the floor under every persistence call.
  const probe =
    s.probe === false
      ? { storeRoundTrip: null, storeRoundTripNote: 'not probed before this run' }
      : t.probe
        ? await probeStore(c, t, t.probe, s, w)
        : { storeRoundTrip: null, storeRoundTripNote: 'the stack has no store probe (deployed by an older version)' };
  const now = w.now ?? Date.now;
  const requested = new Date(now());
  const taskArn = await startGenerator(c, t, s);
  w.onStarted?.(taskArn);
  const stopped = await waitUntil(
    'the load generator',
    async () => {
      const task = await describeTask(c, t.cluster, taskArn);
      return { done: task.lastStatus === 'STOPPED', text: `task ${task.lastStatus?.toLowerCase() ?? 'unknown'}`, task };
    },
    w,
  );
  const task = stopped.task;
  const container = task.containers?.find((x) => x.name === GENERATOR_CONTAINER);
  const where = await logStream(c, t.generatorTaskDefinition, taskArn);
  const result = where ? findResult(await logLines(c, where.group, where.stream)) : null;
  const start = task.startedAt ?? task.pullStoppedAt ?? requested;
  const end = task.executionStoppedAt ?? task.stoppedAt ?? new Date(now());
  return {
    scenario: s.scenario,
    start: start.toISOString(),
    end: end.toISOString(),
    ...(result ? { workflowsCompleted: result.results.workflowsCompleted } : {}),
    targetRate: s.rate,
    duration: s.duration,
    rampUp: s.rampUp,
    taskArn,
    exitCode: container?.exitCode ?? null,
    stoppedReason: task.stoppedReason ?? container?.reason ?? null,
    result,
    ...probe,
  };
}

/**
 * Runs the store probe (the benchmark program, BENCHMARK_PROBE_ONLY) once in the servers'
 * security group, with the servers' credentials, and reads its result. A probe that fails
 * does not stop the run: the record says why it has no round trip.
 */
async function probeStore(
  c: BenchClients,
  t: BenchTargets,
  probe: NonNullable<BenchTargets['probe']>,
  s: RunSettings,
  w: Waiting,
): Promise<Pick<RunRecord, 'storeRoundTrip' | 'storeRoundTripNote'>> {
  const { tasks, failures } = await c.ecs.send(
    new RunTaskCommand({
      cluster: t.cluster,
      taskDefinition: probe.taskDefinition,
      capacityProviderStrategy: [{ capacityProvider: t.capacityProvider, weight: 1 }],
      networkConfiguration: { awsvpcConfiguration: { subnets: [...t.subnets], securityGroups: [probe.securityGroup], assignPublicIp: 'DISABLED' } },
      startedBy: `bench-probe/${s.scenario}`.slice(0, 36),
      count: 1,
    }),
  );
  const arn = tasks?.[0]?.taskArn;
  if (!arn)
    return { storeRoundTrip: null, storeRoundTripNote: `the store probe was not placed: ${failures?.map((f) => f.reason).join('; ') || 'no reason given'}` };
  const { task } = await waitUntil(
    'the store probe',
    async () => {
      const x = await describeTask(c, t.cluster, arn);
      return { done: x.lastStatus === 'STOPPED', text: `probe ${x.lastStatus?.toLowerCase() ?? 'unknown'}`, task: x };
    },
    { ...w, timeoutSeconds: Math.min(w.timeoutSeconds, 600) },
  );
  const where = await logStream(c, probe.taskDefinition, arn, PROBE_CONTAINER);
  const result = where ? findProbeResult(await logLines(c, where.group, where.stream)) : null;
  if (result) return { storeRoundTrip: result };
  const exit = task.containers?.find((x) => x.name === PROBE_CONTAINER)?.exitCode;
  return {
    storeRoundTrip: null,
    storeRoundTripNote: `the store probe ${exit === undefined ? 'stopped' : `exited ${exit}`} without a result (${task.stoppedReason ?? 'see its log'})`,
  };
}
