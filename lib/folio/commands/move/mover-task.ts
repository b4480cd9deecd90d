import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { type CloudWatchLogsClient, GetLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { DescribeTasksCommand, type ECSClient, ListTasksCommand, RunTaskCommand } from '@aws-sdk/client-ecs';
import { ChangeResourceRecordSetsCommand, type Route53Client } from '@aws-sdk/client-route-53';
import type { ClusterRole, FolioScenario } from '../../../../config';
import { requiredOutputs } from '../../../commands/aws/read-stack-outputs';
import { waitUntil, type Waiting } from '../../../commands/shared/waiting';
import { CommandFailure, EXIT_FAILED } from '../../../commands/shared/cli';
import { MOVER_CONTAINER, MOVER_LOG_STREAM_PREFIX, type MoverLine, parseMoverLine, SCHEMA_OUTCOMES } from '../../contract/mover';
import { FOLIO_OUTPUTS } from '../../contract/folio-stack-outputs';
import { type ModuleMove, type MoveFlags, type MovePlan, moverEnvironment, waves } from './move-plan';

/*
 * `npm run move`: each wave of a plan (modules that can move together) as one run of the
 * stack's mover task (in the database VPC, the only place that reaches both clusters), one
 * after another in the plan's order, with the task's log lines streamed as they arrive.
 */

export interface MoveClients {
  readonly ecs: ECSClient;
  readonly logs: CloudWatchLogsClient;
  /** Online moves: repoints the modules' routes at the switch. */
  readonly route53?: Route53Client;
}

/** Where an online move points the modules' routes: the module zone and each cluster's endpoints. */
export interface RouteTargets {
  readonly zoneId: string;
  readonly ttlSeconds: number;
  readonly endpoints: Readonly<Record<ClusterRole, { readonly writer: string; readonly reader: string }>>;
}

/** What the move runs on, from the deployed FOLIO stack's outputs. */
export interface MoveTargets {
  readonly cluster: string;
  readonly taskDefinition: string;
  readonly securityGroup: string;
  readonly subnets: readonly string[];
  readonly logGroup: string;
  /** The phase the stack was last deployed with. */
  readonly deployedPhase: string;
  /** Online moves only (routeTargets). */
  readonly routes?: RouteTargets;
}

/** The outputs `move` reads, by target field. */
export const MOVE_OUTPUTS = {
  cluster: FOLIO_OUTPUTS.moverCluster,
  taskDefinition: FOLIO_OUTPUTS.moverTaskDefinition,
  securityGroup: FOLIO_OUTPUTS.moverSecurityGroupId,
  subnets: FOLIO_OUTPUTS.moverSubnets,
  logGroup: FOLIO_OUTPUTS.moverLogGroup,
  deployedPhase: FOLIO_OUTPUTS.phase,
} as const;

export async function moveTargets(cfn: CloudFormationClient, scenario: FolioScenario): Promise<MoveTargets> {
  const o = await requiredOutputs(cfn, scenario.stackName, MOVE_OUTPUTS, 'deployed before the schema mover existed? redeploy it');
  return { ...o, subnets: o.subnets.split(',') };
}

/** The outputs an online move's routes come from, by field. */
export const ROUTE_OUTPUTS = {
  zoneId: FOLIO_OUTPUTS.moduleZoneId,
  primaryWriter: FOLIO_OUTPUTS.primaryEndpoint,
  primaryReader: FOLIO_OUTPUTS.primaryReaderEndpoint,
  offloadWriter: FOLIO_OUTPUTS.offloadEndpoint,
  offloadReader: FOLIO_OUTPUTS.offloadReaderEndpoint,
} as const;

export async function routeTargets(cfn: CloudFormationClient, scenario: FolioScenario): Promise<RouteTargets> {
  const o = await requiredOutputs(cfn, scenario.stackName, ROUTE_OUTPUTS, 'deployed before modules had routes? deploy the phase it runs now, then move online');
  return {
    zoneId: o.zoneId,
    ttlSeconds: scenario.environment.routing.ttlSeconds,
    endpoints: { primary: { writer: o.primaryWriter, reader: o.primaryReader }, offload: { writer: o.offloadWriter, reader: o.offloadReader } },
  };
}

/**
 * Points a wave's routes at its target, once the mover asked for exactly them: one change of
 * the zone, every record at once. The mover waits until each route leads there.
 */
async function pointRoutes(route53: Route53Client, r: RouteTargets, wave: readonly ModuleMove[], ready: MoverLine): Promise<string> {
  const { cluster: to, routes: asked } = ready.slots;
  const expected = wave.flatMap((m) => [m.routes.writer, m.routes.reader]);
  if (to !== wave[0].to || asked.trim() !== expected.join(' '))
    throw new CommandFailure(
      `the mover asked to point ${asked} at ${to}, but the plan moves ${expected.join(' ')} to ${wave[0].to}; no route was changed (the mover sets the source aside when its switchTimeout ends: run a deploy of the phase that holds the data)`,
      EXIT_FAILED,
    );
  const endpoint = r.endpoints[wave[0].to];
  const { ChangeInfo } = await route53.send(
    new ChangeResourceRecordSetsCommand({
      HostedZoneId: r.zoneId,
      ChangeBatch: {
        Comment: `npm run move --online: ${wave.map((m) => m.module).join(', ')} -> ${wave[0].to}`,
        Changes: wave.flatMap((m) => [
          {
            Action: 'UPSERT' as const,
            ResourceRecordSet: { Name: m.routes.writer, Type: 'CNAME' as const, TTL: r.ttlSeconds, ResourceRecords: [{ Value: endpoint.writer }] },
          },
          {
            Action: 'UPSERT' as const,
            ResourceRecordSet: { Name: m.routes.reader, Type: 'CNAME' as const, TTL: r.ttlSeconds, ResourceRecords: [{ Value: endpoint.reader }] },
          },
        ]),
      },
    }),
  );
  return ChangeInfo?.Id ?? 'unknown';
}

export interface MoveHooks extends Waiting {
  /** Each line the mover logs, as it arrives; `modules` names the task's wave. */
  readonly onLine?: (modules: string, line: string) => void;
  readonly onStarted?: (modules: string, taskArn: string) => void;
  /** An online wave's routes now lead to its target (the Route 53 change's id). */
  readonly onRouted?: (modules: string, change: string) => void;
}

export interface ModuleResult {
  readonly module: string;
  readonly taskArn: string;
  readonly schemas: number;
  /** Rows verified on the target (copies) or matched before dropping (drop-source). */
  readonly rows: number;
  readonly skipped: number;
  readonly seconds: number;
}

/** Reads a log stream forward from a token; the stream may not exist until the task runs. */
async function readLog(c: MoveClients, group: string, stream: string, token: string | undefined): Promise<{ lines: string[]; token: string | undefined }> {
  const lines: string[] = [];
  for (;;) {
    const page = await c.logs
      .send(new GetLogEventsCommand({ logGroupName: group, logStreamName: stream, startFromHead: true, nextToken: token }))
      .catch((e: Error) => {
        if (e.name === 'ResourceNotFoundException') return undefined;
        throw e;
      });
    if (!page) return { lines, token };
    lines.push(...(page.events ?? []).map((e) => e.message ?? ''));
    if (!page.nextForwardToken || page.nextForwardToken === token) return { lines, token: page.nextForwardToken ?? token };
    token = page.nextForwardToken;
  }
}

/**
 * A mover an earlier run of this wave started and did not see to its end (a run killed while its
 * mover worked: the task goes on without it). The same wave's mover, with the same schemas and
 * flags, is taken over: its log followed, its routes pointed, its outcome read. Another mover of
 * these modules is waited for: a second would only meet its lock.
 */
async function earlierMover(c: MoveClients, t: MoveTargets, startedBy: string, environment: { name: string; value: string }[], label: string, w: MoveHooks) {
  const { taskArns = [] } = await c.ecs.send(new ListTasksCommand({ cluster: t.cluster, startedBy, desiredStatus: 'RUNNING' }));
  if (!taskArns.length) return undefined;
  const { tasks = [] } = await c.ecs.send(new DescribeTasksCommand({ cluster: t.cluster, tasks: taskArns }));
  const same = (env: readonly { name?: string; value?: string }[] = []) =>
    JSON.stringify(env.map((e) => [e.name, e.value]).sort()) === JSON.stringify(environment.map((e) => [e.name, e.value]).sort());
  for (const task of tasks) {
    const env = task.overrides?.containerOverrides?.find((o) => o.name === MOVER_CONTAINER)?.environment;
    if (task.taskArn && same(env)) {
      w.onLine?.(label, `taking over mover ${task.taskArn}, which an earlier run of this move started and left running`);
      return task.taskArn;
    }
    if (!task.taskArn) continue;
    w.onLine?.(label, `waiting for mover ${task.taskArn} of these modules (another move's) to stop`);
    await waitUntil(
      `${label}: the earlier mover`,
      async () => {
        const { tasks: now = [] } = await c.ecs.send(new DescribeTasksCommand({ cluster: t.cluster, tasks: [task.taskArn!] }));
        const status = now[0]?.lastStatus ?? 'STOPPED';
        return { done: status === 'STOPPED', text: `earlier mover ${status.toLowerCase()}` };
      },
      w,
    );
  }
  return undefined;
}

async function startMover(c: MoveClients, t: MoveTargets, startedBy: string, environment: { name: string; value: string }[], label: string): Promise<string> {
  const { tasks, failures } = await c.ecs.send(
    new RunTaskCommand({
      cluster: t.cluster,
      taskDefinition: t.taskDefinition,
      launchType: 'FARGATE',
      networkConfiguration: { awsvpcConfiguration: { subnets: [...t.subnets], securityGroups: [t.securityGroup], assignPublicIp: 'DISABLED' } },
      overrides: { containerOverrides: [{ name: MOVER_CONTAINER, environment }] },
      startedBy,
      count: 1,
    }),
  );
  const taskArn = tasks?.[0]?.taskArn;
  if (!taskArn)
    throw new CommandFailure(
      `RunTask started no mover for ${label}: ${failures?.map((f) => `${f.arn ?? ''} ${f.reason ?? ''}`.trim()).join('; ') || 'no reason given'}`,
      EXIT_FAILED,
    );
  return taskArn;
}

/** One wave as one run of the mover task: a result per module, read from the schemas' lines. */
async function moveWave(c: MoveClients, t: MoveTargets, wave: readonly ModuleMove[], flags: MoveFlags, w: MoveHooks): Promise<ModuleResult[]> {
  const now = w.now ?? Date.now;
  const started = now();
  const label = wave.map((m) => m.module).join(', ');
  const schemas = wave.reduce((n, m) => n + m.schemas.length, 0);
  const environment = Object.entries(moverEnvironment(wave, flags)).map(([name, value]) => ({ name, value }));
  const startedBy = `npm-run-move/${wave[0].module}`.slice(0, 36);
  const taskArn = (await earlierMover(c, t, startedBy, environment, label, w)) ?? (await startMover(c, t, startedBy, environment, label));
  w.onStarted?.(label, taskArn);

  const stream = `${MOVER_LOG_STREAM_PREFIX}/${MOVER_CONTAINER}/${taskArn.split('/').pop()}`;
  let token: string | undefined;
  const seen: { line: string; parsed?: MoverLine }[] = [];
  const routed = environment.some((e) => e.name === 'MOVE_ROUTES');
  let pointed = false;
  const follow = async () => {
    const r = await readLog(c, t.logGroup, stream, token);
    token = r.token;
    for (const line of r.lines) {
      const parsed = parseMoverLine(line);
      seen.push({ line, parsed });
      w.onLine?.(label, line);
      if (routed && !pointed && parsed?.kind === 'switchReady') {
        pointed = true;
        if (!c.route53 || !t.routes)
          throw new CommandFailure(
            `${label}: the mover is ready to switch, but this run has no routes to point (internal: online moves read them with routeTargets)`,
            EXIT_FAILED,
          );
        const change = await pointRoutes(c.route53, t.routes, wave, parsed).catch((e: Error) => {
          if (e instanceof CommandFailure) throw e;
          throw new CommandFailure(
            `${label}: pointing the routes at ${wave[0].to} failed: ${e.message}; the mover holds the source fenced and sets it aside after its switchTimeout, so nothing is written there: deploy the phase that routes the modules to ${wave[0].to} (its records point there)`,
            EXIT_FAILED,
          );
        });
        w.onRouted?.(label, change);
      }
    }
  };
  const outcomes = () => seen.flatMap((s) => (s.parsed && SCHEMA_OUTCOMES.has(s.parsed.kind) ? [s.parsed] : []));
  const stopped = await waitUntil(
    `${label} (${wave[0].from} -> ${wave[0].to})`,
    async () => {
      const { tasks: described } = await c.ecs.send(new DescribeTasksCommand({ cluster: t.cluster, tasks: [taskArn] }));
      const task = described?.[0];
      if (!task) throw new CommandFailure(`mover task ${taskArn} is gone from cluster ${t.cluster}`, EXIT_FAILED);
      await follow();
      const status = task.lastStatus ?? 'UNKNOWN';
      return { done: status === 'STOPPED', text: `task ${status.toLowerCase()}, ${outcomes().length} of ${schemas} schemas`, task };
    },
    w,
  );
  await follow();
  const container = stopped.task.containers?.find((x) => x.name === MOVER_CONTAINER);
  if (container?.exitCode !== 0) {
    const reason = seen.filter((s) => s.parsed?.kind === 'failed').at(-1)?.parsed!.slots.reason;
    throw new CommandFailure(
      `${label}: ${reason ?? `the mover ${container?.exitCode === undefined ? 'stopped without an exit code' : `exited ${container.exitCode}`}${stopped.task.stoppedReason ? ` (${stopped.task.stoppedReason})` : ''}`}; ` +
        `the source is untouched and the move can be run again (task ${taskArn})`,
      EXIT_FAILED,
    );
  }
  const seconds = Math.round((now() - started) / 1000);
  return wave.map((m) => {
    const mine = outcomes().filter((o) => m.schemas.includes(o.slots.schema));
    return {
      module: m.module,
      taskArn,
      schemas: m.schemas.length,
      rows: mine.reduce((sum, o) => sum + Number(o.slots.rows ?? 0), 0),
      skipped: mine.filter((o) => o.kind.startsWith('skipped')).length,
      seconds,
    };
  });
}

/** Every wave of the plan, in order; the first failure stops the rest. */
export async function runMoves(c: MoveClients, t: MoveTargets, plan: MovePlan, flags: MoveFlags, w: MoveHooks): Promise<ModuleResult[]> {
  const results: ModuleResult[] = [];
  for (const wave of waves(plan)) results.push(...(await moveWave(c, t, wave, flags, w)));
  return results;
}
