import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, GetLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { DescribeTasksCommand, ECSClient, ListTasksCommand, RunTaskCommand } from '@aws-sdk/client-ecs';
import { ChangeResourceRecordSetsCommand, Route53Client } from '@aws-sdk/client-route-53';
import { mockClient } from 'aws-sdk-client-mock';
import { type FolioScenario, resolveScenario } from '../../../../../config';
import { EXIT_FAILED, EXIT_TIMEOUT } from '../../../../../lib/commands/shared/cli';
import { planPhaseSwitch } from '../../../../../lib/folio/commands/move/move-plan';
import { moverLine } from '../../../../../lib/folio/contract/mover';
import { renderMoveResults } from '../../../../../lib/folio/commands/move/render-move-results';
import { type MoveClients, type MoveTargets, type RouteTargets, moveTargets, routeTargets, runMoves } from '../../../../../lib/folio/commands/move/mover-task';
import { fakeTime } from '../../../../support/fake-time';
import { editedCatalog } from '../../../../../harness/catalog';

/*
 * `npm run move` against recorded-shape SDK responses on a fake clock: RunTask with the
 * plan's overrides, the task's log followed while it runs, the outcome read from its exit
 * code and its last line.
 */

const ecs = mockClient(ECSClient);
const logs = mockClient(CloudWatchLogsClient);
const cfn = mockClient(CloudFormationClient);
const route53 = mockClient(Route53Client);
const clients: MoveClients = { ecs: new ECSClient({}), logs: new CloudWatchLogsClient({}), route53: new Route53Client({}) };
const TENANTS = ['fs09000000', 'fs09000001'];
const catalog = editedCatalog((c) => (c.folio.environment.tenants = TENANTS));
const phase = (name: string) => resolveScenario({ scenario: name }, catalog) as FolioScenario;
const plan = planPhaseSwitch(phase('test4'), phase('test5'));
const taskArn = 'arn:aws:ecs:us-east-1:111122223333:task/FolioHybridAurora-SchemaMoverCluster/4f0e9a0c7d3b4e21a8b6c5d4e3f2a1b0';
const targets: MoveTargets = {
  cluster: 'FolioHybridAurora-SchemaMoverCluster',
  taskDefinition: 'arn:aws:ecs:us-east-1:111122223333:task-definition/folio-schema-mover:3',
  securityGroup: 'sg-0mover',
  subnets: ['subnet-a', 'subnet-b', 'subnet-c'],
  logGroup: 'FolioHybridAurora-SchemaMoverLogs',
  deployedPhase: 'test4',
};

const task = (lastStatus: string, exitCode?: number) => ({ tasks: [{ taskArn, lastStatus, containers: [{ name: 'Mover', exitCode }] }] });
const page = (token: string, messages: string[]) => ({ events: messages.map((message, i) => ({ timestamp: i, message })), nextForwardToken: token });

beforeEach(() => {
  ecs.reset();
  logs.reset();
  cfn.reset();
  route53.reset();
  // No mover an earlier run left.
  ecs.on(ListTasksCommand).resolves({ taskArns: [] });
});

test('each module runs as the mover task with its schemas and flags; its log is followed and its rows counted', async () => {
  ecs.on(RunTaskCommand).resolves({ tasks: [{ taskArn }], failures: [] });
  ecs.on(DescribeTasksCommand).resolvesOnce(task('PROVISIONING')).resolvesOnce(task('RUNNING')).resolves(task('STOPPED', 0));
  const [a, b] = plan.moves[0].schemas;
  logs
    .on(GetLogEventsCommand)
    .rejectsOnce(Object.assign(new Error('The specified log stream does not exist.'), { name: 'ResourceNotFoundException' }))
    .resolvesOnce(page('f/1', [`move: ${a}: copy from primary to offload`, `move: ${a}: copied and verified, 3 tables, 160 rows`]))
    .resolvesOnce(page('f/1', []))
    .resolvesOnce(
      page('f/2', [
        moverLine('skippedCopied', { schema: b, cluster: 'primary', tables: 3, rows: 160 }),
        'move: done: 2 schema(s), copy from primary to offload',
      ]),
    )
    .resolves(page('f/2', []));
  const lines: string[] = [];
  const progress: string[] = [];
  const [result] = await runMoves(
    clients,
    targets,
    plan,
    { replace: true },
    { timeoutSeconds: 600, ...fakeTime(), onLine: (_m, l) => lines.push(l), onProgress: (p) => progress.push(p) },
  );

  const input = ecs.commandCalls(RunTaskCommand)[0].args[0].input;
  expect(input).toMatchObject({
    cluster: targets.cluster,
    taskDefinition: targets.taskDefinition,
    launchType: 'FARGATE',
    networkConfiguration: { awsvpcConfiguration: { subnets: targets.subnets, securityGroups: ['sg-0mover'], assignPublicIp: 'DISABLED' } },
  });
  expect(Object.fromEntries(input.overrides!.containerOverrides![0].environment!.map((e) => [e.name, e.value]))).toEqual({
    MOVE_FROM: 'primary',
    MOVE_TO: 'offload',
    MOVE_SCHEMAS: `${a} ${b}`,
    MOVE_SUFFIX: '_mod_inventory_storage',
    MOVE_ACTION: 'copy',
    MOVE_REPLACE: 'true',
    MOVE_FORCE: 'false',
    MOVE_KEEP_EXISTING: 'false',
    MOVE_MODE: 'fenced',
  });
  expect(logs.commandCalls(GetLogEventsCommand)[0].args[0].input).toMatchObject({
    logGroupName: targets.logGroup,
    logStreamName: 'move/Mover/4f0e9a0c7d3b4e21a8b6c5d4e3f2a1b0',
  });
  expect(lines).toHaveLength(4);
  expect(progress.at(-1)).toBe('mod-inventory-storage (primary -> offload): task stopped, 2 of 2 schemas');
  expect(result).toMatchObject({ module: 'mod-inventory-storage', schemas: 2, rows: 320, skipped: 1, taskArn });
  expect(renderMoveResults([result])).toContain('| mod-inventory-storage | 2 | 1 already done | 320 |');
});

test('a wave of two modules is one task; each module gets the rows and skips of its own schemas', async () => {
  const together = planPhaseSwitch(phase('baseline'), phase('test1'));
  ecs.on(RunTaskCommand).resolves({ tasks: [{ taskArn }], failures: [] });
  ecs.on(DescribeTasksCommand).resolves(task('STOPPED', 0));
  const [srm, srs] = together.moves.map((m) => m.schemas);
  logs
    .on(GetLogEventsCommand)
    .resolvesOnce(
      page('f/1', [
        `move: ${srs[0]}: copied and verified, 10 tables, 280 rows`,
        `move: ${srm[0]}: copied and verified, 2 tables, 50 rows`,
        `move: ${srm[1]}: skipped, already copied from primary and its content matches (2 tables, 50 rows)`,
        `move: ${srs[1]}: copied and verified by an earlier run that stopped before recording it, 10 tables, 280 rows`,
        'move: done: 4 schema(s), copy from primary to offload',
      ]),
    )
    .resolves(page('f/1', []));
  const started: string[] = [];
  const results = await runMoves(clients, targets, together, {}, { timeoutSeconds: 600, ...fakeTime(), onStarted: (m) => started.push(m) });
  expect(ecs.commandCalls(RunTaskCommand)).toHaveLength(1);
  expect(started).toEqual(['mod-source-record-manager, mod-source-record-storage']);
  expect(results.map((r) => [r.module, r.schemas, r.rows, r.skipped])).toEqual([
    ['mod-source-record-manager', 2, 100, 1],
    ['mod-source-record-storage', 2, 560, 0],
  ]);
});

describe('a mover an interrupted run left (a move or campaign killed while its mover worked)', () => {
  const earlier = 'arn:aws:ecs:us-east-1:111122223333:task/FolioHybridAurora-SchemaMoverCluster/0000000000000000000000000000e411';
  const env = (flags: Record<string, string>) => [
    { name: 'MOVE_FROM', value: 'primary' },
    { name: 'MOVE_TO', value: 'offload' },
    { name: 'MOVE_SCHEMAS', value: plan.moves[0].schemas.join(' ') },
    ...Object.entries(flags).map(([name, value]) => ({ name, value })),
  ];
  const listed = (environment: { name: string; value: string }[]) => ({
    tasks: [{ taskArn: earlier, lastStatus: 'RUNNING', overrides: { containerOverrides: [{ name: 'Mover', environment }] }, containers: [{ name: 'Mover' }] }],
  });
  const sameFlags = {
    MOVE_SUFFIX: '_mod_inventory_storage',
    MOVE_ACTION: 'copy',
    MOVE_REPLACE: 'false',
    MOVE_FORCE: 'false',
    MOVE_KEEP_EXISTING: 'false',
    MOVE_MODE: 'fenced',
  };

  test("the same wave's mover is taken over, not started again: its log followed, its outcome read", async () => {
    ecs.on(ListTasksCommand).resolves({ taskArns: [earlier] });
    ecs
      .on(DescribeTasksCommand)
      .resolvesOnce(listed(env(sameFlags)))
      .resolves({ tasks: [{ taskArn: earlier, lastStatus: 'STOPPED', containers: [{ name: 'Mover', exitCode: 0 }] }] });
    const [a, b] = plan.moves[0].schemas;
    logs
      .on(GetLogEventsCommand)
      .resolvesOnce(page('f/1', [`move: ${a}: copied and verified, 3 tables, 160 rows`, `move: ${b}: copied and verified, 3 tables, 160 rows`]))
      .resolves(page('f/1', []));
    const lines: string[] = [];
    const [result] = await runMoves(clients, targets, plan, {}, { timeoutSeconds: 600, ...fakeTime(), onLine: (_m, l) => lines.push(l) });
    expect(ecs.commandCalls(RunTaskCommand)).toHaveLength(0);
    expect(ecs.commandCalls(ListTasksCommand)[0].args[0].input).toEqual({
      cluster: targets.cluster,
      startedBy: 'npm-run-move/mod-inventory-storage',
      desiredStatus: 'RUNNING',
    });
    expect(lines[0]).toBe(`taking over mover ${earlier}, which an earlier run of this move started and left running`);
    expect(logs.commandCalls(GetLogEventsCommand)[0].args[0].input.logStreamName).toBe('move/Mover/0000000000000000000000000000e411');
    expect(result).toMatchObject({ module: 'mod-inventory-storage', rows: 320, taskArn: earlier });
  });

  test("another move's mover of these modules is waited for, then this wave's own runs", async () => {
    ecs.on(ListTasksCommand).resolves({ taskArns: [earlier] });
    ecs.on(RunTaskCommand).resolves({ tasks: [{ taskArn }], failures: [] });
    ecs
      .on(DescribeTasksCommand)
      .resolvesOnce(listed(env({ ...sameFlags, MOVE_REPLACE: 'true' })))
      .resolvesOnce({ tasks: [{ taskArn: earlier, lastStatus: 'RUNNING' }] })
      .resolvesOnce({ tasks: [{ taskArn: earlier, lastStatus: 'STOPPED' }] })
      .resolves(task('STOPPED', 0));
    logs.on(GetLogEventsCommand).resolves(page('f/0', []));
    const lines: string[] = [];
    await runMoves(clients, targets, plan, {}, { timeoutSeconds: 600, ...fakeTime(), onLine: (_m, l) => lines.push(l) });
    expect(lines[0]).toBe(`waiting for mover ${earlier} of these modules (another move's) to stop`);
    expect(
      ecs
        .commandCalls(DescribeTasksCommand)
        .slice(1, 3)
        .map((c) => c.args[0].input.tasks),
    ).toEqual([[earlier], [earlier]]);
    expect(ecs.commandCalls(RunTaskCommand)).toHaveLength(1);
  });
});

test("a failed move ends with the mover's own reason, says the source is untouched, and stops the plan", async () => {
  ecs.on(RunTaskCommand).resolves({ tasks: [{ taskArn }], failures: [] });
  ecs.on(DescribeTasksCommand).resolves(task('STOPPED', 1));
  const [a] = plan.moves[0].schemas;
  const reason = `${a}: the target (offload) already holds this schema with 160 rows; pass --replace to set it aside and copy afresh`;
  logs
    .on(GetLogEventsCommand)
    .resolvesOnce(page('f/1', [`move: ${a}: copy from primary to offload`, `move: failed: ${reason}`]))
    .resolves(page('f/1', []));
  const run = runMoves(clients, targets, planPhaseSwitch(phase('test4'), phase('test9')), {}, { timeoutSeconds: 600, ...fakeTime() });
  // The first task moves inventory and orders-storage together (one wave).
  await expect(run).rejects.toMatchObject({
    exitCode: EXIT_FAILED,
    message: `mod-inventory-storage, mod-orders-storage: ${reason}; the source is untouched and the move can be run again (task ${taskArn})`,
  });
  expect(ecs.commandCalls(RunTaskCommand)).toHaveLength(1);
});

test('a mover that outlives --timeout fails with the timeout code and where it stood', async () => {
  ecs.on(RunTaskCommand).resolves({ tasks: [{ taskArn }], failures: [] });
  ecs.on(DescribeTasksCommand).resolves(task('RUNNING'));
  logs.on(GetLogEventsCommand).resolves(page('f/0', []));
  await expect(runMoves(clients, targets, plan, {}, { timeoutSeconds: 60, intervalSeconds: 10, ...fakeTime() })).rejects.toMatchObject({
    exitCode: EXIT_TIMEOUT,
    message: 'timed out after 60 s waiting for mod-inventory-storage (primary -> offload); last seen: task running, 0 of 2 schemas',
  });
});

test('RunTask placing nothing is one line with its reason', async () => {
  ecs.on(RunTaskCommand).resolves({ tasks: [], failures: [{ arn: 'arn:aws:ecs:us-east-1:111122223333:container-instance/x', reason: 'RESOURCE:ENI' }] });
  await expect(runMoves(clients, targets, plan, {}, { timeoutSeconds: 60, ...fakeTime() })).rejects.toMatchObject({
    exitCode: EXIT_FAILED,
    message: expect.stringMatching(/^RunTask started no mover for mod-inventory-storage: .*RESOURCE:ENI$/),
  });
});

test("the stack's outputs name the mover; a stack deployed before it existed says so", async () => {
  const outputs = {
    MoverCluster: targets.cluster,
    MoverTaskDefinition: targets.taskDefinition,
    MoverSecurityGroupId: 'sg-0mover',
    MoverSubnets: 'subnet-a,subnet-b,subnet-c',
    MoverLogGroup: targets.logGroup,
    Phase: 'test4',
  };
  cfn.on(DescribeStacksCommand).resolvesOnce({
    Stacks: [
      {
        StackName: 'FolioHybridAurora',
        CreationTime: new Date(),
        StackStatus: 'UPDATE_COMPLETE',
        Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
      },
    ],
  });
  expect(await moveTargets(new CloudFormationClient({}), phase('test4'))).toEqual(targets);
  cfn.on(DescribeStacksCommand).resolves({
    Stacks: [
      { StackName: 'FolioHybridAurora', CreationTime: new Date(), StackStatus: 'UPDATE_COMPLETE', Outputs: [{ OutputKey: 'Phase', OutputValue: 'test4' }] },
    ],
  });
  await expect(moveTargets(new CloudFormationClient({}), phase('test4'))).rejects.toThrow(
    /stack "FolioHybridAurora" has no output "MoverCluster", .*deployed before the schema mover existed\? redeploy it/,
  );
});

describe("online: at the mover's \"switch: ready\" the modules' routes are pointed at the target, once, all of a wave's records in one change", () => {
  const routes: RouteTargets = {
    zoneId: 'Z0FOLIOROUTES',
    ttlSeconds: 5,
    endpoints: {
      primary: {
        writer: 'folio-hybrid-provisioned.cluster-c1.us-east-1.rds.amazonaws.com',
        reader: 'folio-hybrid-provisioned.cluster-ro-c1.us-east-1.rds.amazonaws.com',
      },
      offload: {
        writer: 'folio-hybrid-serverless.cluster-c1.us-east-1.rds.amazonaws.com',
        reader: 'folio-hybrid-serverless.cluster-ro-c1.us-east-1.rds.amazonaws.com',
      },
    },
  };
  const READY =
    'move: switch: ready: point the routes at the target (offload): mod-inventory-storage.folio-db.internal mod-inventory-storage-reader.folio-db.internal';

  test('the records name the target cluster, reader and writer, with the configured TTL; the task is told its routes', async () => {
    ecs.on(RunTaskCommand).resolves({ tasks: [{ taskArn }], failures: [] });
    ecs.on(DescribeTasksCommand).resolvesOnce(task('RUNNING')).resolvesOnce(task('RUNNING')).resolves(task('STOPPED', 0));
    route53.on(ChangeResourceRecordSetsCommand).resolves({ ChangeInfo: { Id: '/change/C1', Status: 'PENDING', SubmittedAt: new Date() } });
    const [a, b] = plan.moves[0].schemas;
    logs
      .on(GetLogEventsCommand)
      .resolvesOnce(page('f/1', ['move: checkpoint verified: every table of every schema matches by content', READY]))
      .resolvesOnce(page('f/2', [READY]))
      .resolvesOnce(
        page('f/3', [
          `move: ${a}: moved online and verified, 3 tables, 160 rows`,
          `move: ${b}: moved online and verified, 3 tables, 160 rows`,
          'move: done: 2 schema(s), moved online from primary to offload',
        ]),
      )
      .resolves(page('f/3', []));
    const routed: string[] = [];
    await runMoves(
      clients,
      { ...targets, routes },
      plan,
      { online: true },
      { timeoutSeconds: 600, ...fakeTime(), onRouted: (_m, change) => routed.push(change) },
    );
    const env = ecs.commandCalls(RunTaskCommand)[0].args[0].input.overrides!.containerOverrides![0].environment!;
    expect(env.find((e) => e.name === 'MOVE_ROUTES')?.value).toBe('mod-inventory-storage.folio-db.internal mod-inventory-storage-reader.folio-db.internal');
    expect(route53.commandCalls(ChangeResourceRecordSetsCommand)).toHaveLength(1);
    expect(route53.commandCalls(ChangeResourceRecordSetsCommand)[0].args[0].input).toEqual({
      HostedZoneId: 'Z0FOLIOROUTES',
      ChangeBatch: {
        Comment: 'npm run move --online: mod-inventory-storage -> offload',
        Changes: [
          {
            Action: 'UPSERT',
            ResourceRecordSet: {
              Name: 'mod-inventory-storage.folio-db.internal',
              Type: 'CNAME',
              TTL: 5,
              ResourceRecords: [{ Value: routes.endpoints.offload.writer }],
            },
          },
          {
            Action: 'UPSERT',
            ResourceRecordSet: {
              Name: 'mod-inventory-storage-reader.folio-db.internal',
              Type: 'CNAME',
              TTL: 5,
              ResourceRecords: [{ Value: routes.endpoints.offload.reader }],
            },
          },
        ],
      },
    });
    expect(routed).toEqual(['/change/C1']);
  });

  test('a mover that asks for other routes, or another target, than the plan moves changes nothing', async () => {
    ecs.on(RunTaskCommand).resolves({ tasks: [{ taskArn }], failures: [] });
    ecs.on(DescribeTasksCommand).resolves(task('RUNNING'));
    logs
      .on(GetLogEventsCommand)
      .resolvesOnce(page('f/1', [READY.replace('(offload)', '(primary)')]))
      .resolves(page('f/1', []));
    await expect(runMoves(clients, { ...targets, routes }, plan, { online: true }, { timeoutSeconds: 600, ...fakeTime() })).rejects.toMatchObject({
      exitCode: EXIT_FAILED,
      message: expect.stringMatching(/^the mover asked to point .* at primary, but the plan moves .* to offload; no route was changed/),
    });
    logs.reset();
    logs
      .on(GetLogEventsCommand)
      .resolvesOnce(page('f/1', [`${READY} mod-users.folio-db.internal`]))
      .resolves(page('f/1', []));
    await expect(runMoves(clients, { ...targets, routes }, plan, { online: true }, { timeoutSeconds: 600, ...fakeTime() })).rejects.toMatchObject({
      exitCode: EXIT_FAILED,
    });
    expect(route53.commandCalls(ChangeResourceRecordSetsCommand)).toHaveLength(0);
  });

  test('Route 53 refusing the change is one line: the source stays fenced and is set aside, a deploy of the phase points the routes', async () => {
    ecs.on(RunTaskCommand).resolves({ tasks: [{ taskArn }], failures: [] });
    ecs.on(DescribeTasksCommand).resolves(task('RUNNING'));
    route53
      .on(ChangeResourceRecordSetsCommand)
      .rejects(Object.assign(new Error('User is not authorized to perform: route53:ChangeResourceRecordSets'), { name: 'AccessDenied' }));
    logs
      .on(GetLogEventsCommand)
      .resolvesOnce(page('f/1', [READY]))
      .resolves(page('f/1', []));
    await expect(runMoves(clients, { ...targets, routes }, plan, { online: true }, { timeoutSeconds: 600, ...fakeTime() })).rejects.toMatchObject({
      exitCode: EXIT_FAILED,
      message:
        'mod-inventory-storage: pointing the routes at offload failed: User is not authorized to perform: route53:ChangeResourceRecordSets; the mover holds the source fenced and sets it aside after its switchTimeout, so nothing is written there: deploy the phase that routes the modules to offload (its records point there)',
    });
  });

  test("the routes come from the stack's outputs; a stack from before routes says to deploy first", async () => {
    const outputs = {
      ModuleZoneId: 'Z0FOLIOROUTES',
      PrimaryEndpoint: routes.endpoints.primary.writer,
      PrimaryReaderEndpoint: routes.endpoints.primary.reader,
      OffloadEndpoint: routes.endpoints.offload.writer,
      OffloadReaderEndpoint: routes.endpoints.offload.reader,
    };
    cfn.on(DescribeStacksCommand).resolvesOnce({
      Stacks: [
        {
          StackName: 'FolioHybridAurora',
          CreationTime: new Date(),
          StackStatus: 'UPDATE_COMPLETE',
          Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
        },
      ],
    });
    expect(await routeTargets(new CloudFormationClient({}), phase('test4'))).toEqual(routes);
    cfn.on(DescribeStacksCommand).resolves({
      Stacks: [
        {
          StackName: 'FolioHybridAurora',
          CreationTime: new Date(),
          StackStatus: 'UPDATE_COMPLETE',
          Outputs: [{ OutputKey: 'PrimaryEndpoint', OutputValue: 'x' }],
        },
      ],
    });
    await expect(routeTargets(new CloudFormationClient({}), phase('test4'))).rejects.toThrow(
      /has no output "ModuleZoneId", .*deployed before modules had routes\? deploy the phase it runs now, then move online/,
    );
  });
});
