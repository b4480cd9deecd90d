import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CloudWatchLogsClient, CreateLogStreamCommand, PutLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { DescribeTaskDefinitionCommand, DescribeTasksCommand, ECSClient, ListTasksCommand, StopTaskCommand } from '@aws-sdk/client-ecs';
import { ListResourceRecordSetsCommand, Route53Client } from '@aws-sdk/client-route-53';
import type { ClusterRole } from '../../../config';
import { MOVER_CONTAINER, MOVER_LOG_STREAM_PREFIX } from '../../../lib/folio/contract/mover';
import { moverEnv, runMover } from '../../../harness/mover-script';
import type { FleetConfig } from '../../../harness/offline-fleet';
import type { Postgres } from '../../../harness/postgres';

/*
 * ECS running the FOLIO stack's mover task on this machine. Each task RunTask starts in moto's
 * mover cluster runs the mover's own script (harness/mover-script.ts, under the task's posture)
 * against the two local servers, with the task definition's environment and the run's overrides,
 * as ECS merges them; only what names the clusters (their hosts and ports, the admin login from
 * the secret, TLS) is this machine's. Its lines go to the task's log stream in moto's CloudWatch
 * Logs, as the awslogs driver sends them; its routes (MOVE_ROUTES, the module zone's names) are
 * the zone's records in moto's Route 53, followed into the task's /etc/hosts as they change, as
 * the VPC's DNS follows them; and the task stops with the script's exit code (moto_server.py). It runs in
 * the test's process, so a task outlives the command that started it, as on AWS.
 */

interface MoverTaskRun {
  readonly taskArn: string;
  /** MOVE_SCHEMAS, as the run was given it. */
  readonly schemas: string;
  /** The script's exit code; null while it runs. */
  exitCode: number | null;
  /** What it printed (standard output and error), once it ended: for a failure's message. */
  output?: string;
}

export interface MoverTasks {
  /** Every task run, in the order they started. */
  readonly runs: readonly MoverTaskRun[];
  stop(): Promise<void>;
}

export interface MoverTasksOptions {
  readonly aws: FleetConfig;
  readonly cluster: string;
  readonly logGroup: string;
  readonly zoneId: string;
  readonly servers: Readonly<Record<ClusterRole, Postgres>>;
  /** Which cluster each endpoint a route may lead to belongs to (writer and reader endpoints). */
  readonly endpoints: ReadonlyMap<string, ClusterRole>;
  /** Where each task's hosts file goes. */
  readonly dir: string;
}

const POLL_MS = 250;
/** The machine's own names, kept in each task's hosts file. */
const BASE_HOSTS = `${readFileSync('/etc/hosts', 'utf8').trimEnd()}\n`;
/** A loopback address nothing here listens on: a name leading elsewhere than the target reaches nothing. */
const NOWHERE = '127.0.0.9';
const withoutDot = (name: string) => name.replace(/\.$/, '');
const asRecord = (list: readonly { name?: string; value?: string }[] = []) => Object.fromEntries(list.map((e) => [e.name!, e.value ?? '']));

export function startMoverTasks(o: MoverTasksOptions): MoverTasks {
  const ecs = new ECSClient(o.aws);
  const logs = new CloudWatchLogsClient(o.aws);
  const route53 = new Route53Client(o.aws);
  const runs: MoverTaskRun[] = [];
  const running = new Set<Promise<void>>();
  let stopped = false;

  /**
   * The zone's records now, as the task's /etc/hosts: a route whose record leads to the mover's
   * target resolves to the loopback address both servers listen on (the mover connects to a route
   * at the target's port), any other to one where nothing listens. Rewritten in place: the
   * sandbox holds the file, not its name.
   */
  async function followRoutes(names: readonly string[], target: ClusterRole, file: string): Promise<void> {
    const { ResourceRecordSets = [] } = await route53.send(new ListResourceRecordSetsCommand({ HostedZoneId: o.zoneId }));
    const leadsTo = new Map(ResourceRecordSets.map((r) => [withoutDot(r.Name!), o.endpoints.get(withoutDot(r.ResourceRecords?.[0]?.Value ?? ''))]));
    writeFileSync(file, `${BASE_HOSTS}${names.map((name) => `${leadsTo.get(name) === target ? '127.0.0.1' : NOWHERE} ${name}\n`).join('')}`);
  }

  async function run(taskArn: string): Promise<void> {
    const { tasks = [] } = await ecs.send(new DescribeTasksCommand({ cluster: o.cluster, tasks: [taskArn] }));
    const task = tasks[0];
    const { taskDefinition } = await ecs.send(new DescribeTaskDefinitionCommand({ taskDefinition: task.taskDefinitionArn! }));
    const container = taskDefinition!.containerDefinitions!.find((c) => c.name === MOVER_CONTAINER)!;
    const overrides = task.overrides?.containerOverrides?.find((c) => c.name === MOVER_CONTAINER)?.environment;
    const given = { ...asRecord(container.environment), ...asRecord(overrides) };
    const id = taskArn.split('/').pop()!;
    const entry: MoverTaskRun = { taskArn, schemas: given.MOVE_SCHEMAS ?? '', exitCode: null };
    runs.push(entry);

    const routes = given.MOVE_ROUTES?.split(' ').filter(Boolean) ?? [];
    const hosts = join(o.dir, `hosts-${id}`);
    await followRoutes(routes, given.MOVE_TO as ClusterRole, hosts);
    const following = setInterval(() => void followRoutes(routes, given.MOVE_TO as ClusterRole, hosts).catch(() => undefined), POLL_MS);
    const env = { ...given, ...moverEnv(o.servers.primary, o.servers.offload, given.PGDATABASE), PGSSLMODE: 'disable' };

    const stream = `${MOVER_LOG_STREAM_PREFIX}/${MOVER_CONTAINER}/${id}`;
    await logs.send(new CreateLogStreamCommand({ logGroupName: o.logGroup, logStreamName: stream }));
    // One PutLogEvents at a time, in order, as the awslogs driver sends them.
    let sent: Promise<unknown> = Promise.resolve();
    const send = (message: string) =>
      (sent = sent.then(() =>
        logs.send(new PutLogEventsCommand({ logGroupName: o.logGroup, logStreamName: stream, logEvents: [{ timestamp: Date.now(), message }] })),
      ));
    const ran = await runMover(env, (line) => void send(line), [], hosts);
    clearInterval(following);
    await sent;
    entry.exitCode = ran.status ?? 137;
    entry.output = ran.out;
    await ecs.send(new StopTaskCommand({ cluster: o.cluster, task: taskArn, reason: `exit ${entry.exitCode}: Essential container in task exited` }));
  }

  const seen = new Set<string>();
  let polling = false;
  const poll = setInterval(async () => {
    if (polling || stopped) return;
    polling = true;
    try {
      const { taskArns = [] } = await ecs.send(new ListTasksCommand({ cluster: o.cluster, desiredStatus: 'RUNNING' }));
      for (const arn of taskArns.filter((a) => !seen.has(a))) {
        seen.add(arn);
        const p = run(arn).catch((e: Error) => {
          console.error(`mover task ${arn}: ${e.message}`);
        });
        running.add(p);
        void p.finally(() => running.delete(p));
      }
    } catch (e) {
      console.error(`listing the mover's tasks: ${(e as Error).message}`);
    } finally {
      polling = false;
    }
  }, POLL_MS);

  return {
    runs,
    stop: async () => {
      stopped = true;
      clearInterval(poll);
      await Promise.all(running);
      ecs.destroy();
      logs.destroy();
      route53.destroy();
    },
  };
}
