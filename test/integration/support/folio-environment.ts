import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient, CreateStackCommand, DescribeStacksCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { CloudWatchLogsClient, CreateLogGroupCommand } from '@aws-sdk/client-cloudwatch-logs';
import { CreateClusterCommand, ECSClient, RegisterTaskDefinitionCommand } from '@aws-sdk/client-ecs';
import { RDSClient, CreateDBClusterCommand } from '@aws-sdk/client-rds';
import { ChangeResourceRecordSetsCommand, CreateHostedZoneCommand, Route53Client } from '@aws-sdk/client-route-53';
import { type ClusterRole, type FolioScenario, resolveScenario } from '../../../config';
import type { CatalogInput } from '../../../config/catalog-schema';
import { scenarioTemplates } from '../../../lib/assembly/scenario-app';
import { FOLIO_OUTPUTS } from '../../../lib/folio/contract/folio-stack-outputs';
import { MOVER_CONTAINER } from '../../../lib/folio/contract/mover';
import { moduleRouteNames } from '../../../lib/platform/contract/physical-names';
import { minuteSeries, putMetrics } from '../../../harness/cloudwatch-seed';
import type { FleetConfig } from '../../../harness/offline-fleet';
import type { Postgres } from '../../../harness/postgres';
import { serveActions } from './action-server';
import { type MoverTasks, startMoverTasks } from './mover-tasks';

/*
 * A FOLIO environment on this machine that outlives the program driving it: the two clusters are
 * two local PostgreSQL servers, and moto holds what AWS would (the FolioHybridAurora stack and its
 * outputs, both RDS clusters, the module zone's records, the mover's ECS cluster, task definition
 * and log group, the clusters' CloudWatch metrics). The mover's tasks run here (mover-tasks.ts).
 * A deploy (served by action-server.ts: CloudFormation cannot deploy here) writes what the
 * phase's stack would change that anything reads: its routes' records and its Phase output.
 * Every 15 s each cluster's writer CPU (its server's processes, as a share of this machine) and
 * connections go to CloudWatch, and the offload cluster's capacity as the deployed phase's
 * minimum: an idle Serverless v2 cluster's.
 */

interface FolioEnvironmentLedger {
  /** Each deploy that changed the phase, in order. */
  readonly deploys: string[];
  /** Deploys that changed nothing (the phase deployed already). */
  readonly noops: string[];
  readonly log: string[];
}

export interface FolioEnvironment {
  readonly url: string;
  readonly ledger: FolioEnvironmentLedger;
  readonly movers: MoverTasks;
  /** The phase the stack's Phase output says now. */
  deployed(): Promise<string>;
  stop(): Promise<void>;
}

export interface FolioEnvironmentOptions {
  readonly aws: FleetConfig;
  readonly catalog: CatalogInput;
  /** The phase the stack was deployed with before the test. */
  readonly deployed: string;
  readonly servers: Readonly<Record<ClusterRole, Postgres>>;
  /** For the routes' service files. */
  readonly dir: string;
  /** How long a deploy takes (a kill can land inside it). */
  readonly deployMs: number;
}

const MOVER_CLUSTER = 'folio-mover';
const MOVER_FAMILY = 'folio-schema-mover';
const MOVER_LOG_GROUP = 'folio-schema-mover';

/** The mover container's environment as the scenario's stack renders it (values CloudFormation resolves stay out). */
function renderedMoverEnvironment(scenario: FolioScenario): { name: string; value: string }[] {
  const template = scenarioTemplates(scenario, { scenario: scenario.name }).get(scenario.stackName)!;
  const taskDefinitions = Object.values<any>(template.Resources).filter((r) => r.Type === 'AWS::ECS::TaskDefinition');
  const container = taskDefinitions.flatMap((t) => t.Properties.ContainerDefinitions).find((c: any) => c.Name === MOVER_CONTAINER);
  return container.Environment.filter((e: any) => typeof e.Value === 'string').map((e: any) => ({ name: e.Name, value: e.Value }));
}

/** A server's CPU seconds so far: its postmaster's and every child's, live or reaped (/proc/<pid>/stat). */
function serverCpuSeconds(postmaster: number): number {
  const fields = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const [utime, stime, cutime, cstime] = fields(postmaster).slice(11, 15).map(Number);
  const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number);
  const live = children.reduce((sum, pid) => {
    try {
      const f = fields(pid);
      return sum + Number(f[11]) + Number(f[12]);
    } catch {
      return sum; // ended since it was listed: its time is in cutime now, or soon
    }
  }, 0);
  return (utime + stime + cutime + cstime + live) / 100;
}

export async function startFolioEnvironment(o: FolioEnvironmentOptions): Promise<FolioEnvironment> {
  const scenarioOf = (name: string) => resolveScenario({ scenario: name }, o.catalog) as FolioScenario;
  const first = scenarioOf(o.deployed);
  const { names } = first.environment;
  const region = first.env.region;
  const aws = { ...o.aws, region };
  const endpoint = (cluster: string, reader: boolean) => `${cluster}.cluster-${reader ? 'ro-' : ''}local.${region}.rds.amazonaws.com`;
  const endpoints: Record<ClusterRole, { writer: string; reader: string }> = {
    primary: { writer: endpoint(names.primaryCluster, false), reader: endpoint(names.primaryCluster, true) },
    offload: { writer: endpoint(names.offloadCluster, false), reader: endpoint(names.offloadCluster, true) },
  };

  // ECS tasks stay as RunTask left them until the stand-in stops them (moto's default moves them on at each DescribeTasks).
  const transition = await fetch(`${o.aws.endpoint}/moto-api/state-manager/set-transition`, {
    method: 'POST',
    body: JSON.stringify({ model_name: 'ecs::task', transition: { progression: 'manual', times: 1_000_000_000 } }),
  });
  if (!transition.ok) throw new Error(`moto refused the ECS task transition: ${transition.status}`);

  const ecs = new ECSClient(aws);
  await ecs.send(new CreateClusterCommand({ clusterName: MOVER_CLUSTER }));
  const { taskDefinition } = await ecs.send(
    new RegisterTaskDefinitionCommand({
      family: MOVER_FAMILY,
      containerDefinitions: [{ name: MOVER_CONTAINER, image: 'folio-mover:16.8-alpine', memory: 4096, environment: renderedMoverEnvironment(first) }],
    }),
  );
  const logs = new CloudWatchLogsClient(aws);
  await logs.send(new CreateLogGroupCommand({ logGroupName: MOVER_LOG_GROUP }));
  const rds = new RDSClient(aws);
  for (const id of [names.primaryCluster, names.offloadCluster])
    await rds.send(
      new CreateDBClusterCommand({ DBClusterIdentifier: id, Engine: 'aurora-postgresql', MasterUsername: 'folio_admin', MasterUserPassword: 'password-12345' }),
    );
  const route53 = new Route53Client(aws);
  const { HostedZone } = await route53.send(new CreateHostedZoneCommand({ Name: names.moduleZone, CallerReference: `folio-${Date.now()}` }));
  const zoneId = HostedZone!.Id!.split('/').pop()!;

  /** The phase's records, as its stack writes them: each module's names lead to the cluster the phase routes it to. */
  const writeRoutes = async (s: FolioScenario) =>
    route53.send(
      new ChangeResourceRecordSetsCommand({
        HostedZoneId: zoneId,
        ChangeBatch: {
          Changes: s.routes.flatMap((r) => {
            const route = moduleRouteNames(names.moduleZone, r.module);
            const to = endpoints[r.cluster];
            return [
              [route.writer, to.writer],
              [route.reader, to.reader],
            ].map(([Name, Value]) => ({
              Action: 'UPSERT' as const,
              ResourceRecordSet: { Name, Type: 'CNAME' as const, TTL: s.environment.routing.ttlSeconds, ResourceRecords: [{ Value }] },
            }));
          }),
        },
      }),
    );
  await writeRoutes(first);

  const outputs = (phase: string) => ({
    [FOLIO_OUTPUTS.phase]: phase,
    [FOLIO_OUTPUTS.primaryEndpoint]: endpoints.primary.writer,
    [FOLIO_OUTPUTS.primaryReaderEndpoint]: endpoints.primary.reader,
    [FOLIO_OUTPUTS.offloadEndpoint]: endpoints.offload.writer,
    [FOLIO_OUTPUTS.offloadReaderEndpoint]: endpoints.offload.reader,
    [FOLIO_OUTPUTS.moduleZoneId]: zoneId,
    [FOLIO_OUTPUTS.moverCluster]: MOVER_CLUSTER,
    [FOLIO_OUTPUTS.moverTaskDefinition]: taskDefinition!.taskDefinitionArn!,
    [FOLIO_OUTPUTS.moverSecurityGroupId]: 'sg-0123456789abcdef0',
    [FOLIO_OUTPUTS.moverSubnets]: 'subnet-0a,subnet-0b',
    [FOLIO_OUTPUTS.moverLogGroup]: MOVER_LOG_GROUP,
  });
  const template = (phase: string) =>
    JSON.stringify({
      Resources: { Placeholder: { Type: 'AWS::SNS::Topic' } },
      Outputs: Object.fromEntries(Object.entries(outputs(phase)).map(([k, v]) => [k, { Value: v }])),
    });
  const cfn = new CloudFormationClient(aws);
  await cfn.send(new CreateStackCommand({ StackName: first.stackName, TemplateBody: template(o.deployed) }));
  const deployed = async () => {
    const { Stacks } = await cfn.send(new DescribeStacksCommand({ StackName: first.stackName }));
    return Stacks![0].Outputs!.find((x) => x.OutputKey === FOLIO_OUTPUTS.phase)!.OutputValue!;
  };

  // What CloudWatch would hold for the clusters, every 15 s for the minute it falls in.
  const cloudWatch = new CloudWatchClient(aws);
  const roles = ['primary', 'offload'] as const;
  const clusterId = { primary: names.primaryCluster, offload: names.offloadCluster };
  const postmasters = Object.fromEntries(
    await Promise.all(
      roles.map(async (c) => {
        const dataDirectory = await o.servers[c].psql('SHOW data_directory');
        return [c, Number(readFileSync(join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0])];
      }),
    ),
  ) as Record<ClusterRole, number>;
  let last = { at: Date.now(), cpu: Object.fromEntries(roles.map((c) => [c, serverCpuSeconds(postmasters[c])])) as Record<ClusterRole, number> };
  let phase = o.deployed;
  const publish = async () => {
    const now = Date.now();
    const cpu = Object.fromEntries(roles.map((c) => [c, serverCpuSeconds(postmasters[c])])) as Record<ClusterRole, number>;
    const minute = new Date(Math.floor(now / 60_000) * 60_000);
    const data = [];
    for (const c of roles) {
      const percent = (100 * (cpu[c] - last.cpu[c])) / ((now - last.at) / 1000) / cpus().length;
      const connections = Number(await o.servers[c].psql("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"));
      const dims = { DBClusterIdentifier: clusterId[c], Role: 'WRITER' };
      data.push(...minuteSeries(minute, 'CPUUtilization', dims, [Number(percent.toFixed(1))]));
      data.push(...minuteSeries(minute, 'DatabaseConnections', dims, [connections]));
    }
    const acu = scenarioOf(phase).phase.offload.serverless;
    if (acu) data.push(...minuteSeries(minute, 'ServerlessDatabaseCapacity', { DBClusterIdentifier: names.offloadCluster }, [acu.min]));
    await putMetrics(cloudWatch, 'AWS/RDS', data);
    last = { at: now, cpu };
  };
  const ledger: FolioEnvironmentLedger = { deploys: [], noops: [], log: [] };
  const server = await serveActions(
    {
      async deploy({ scenario }: { scenario: string }) {
        if ((await deployed()) === scenario) {
          ledger.noops.push(`deploy ${scenario}`);
          return { note: `${scenario} is deployed already` };
        }
        const s = scenarioOf(scenario);
        await new Promise((r) => setTimeout(r, o.deployMs));
        await writeRoutes(s);
        await cfn.send(new UpdateStackCommand({ StackName: s.stackName, TemplateBody: template(scenario) }));
        if ((await deployed()) !== scenario) throw new Error(`the stack's Phase output does not read ${scenario}`);
        phase = scenario;
        ledger.deploys.push(scenario);
        return { note: `${scenario}: its routes and outputs written` };
      },
    },
    ledger.log,
  );
  // Last: nothing after them can fail and leave them running.
  const movers = startMoverTasks({
    aws,
    cluster: MOVER_CLUSTER,
    logGroup: MOVER_LOG_GROUP,
    zoneId,
    servers: o.servers,
    endpoints: new Map((['primary', 'offload'] as const).flatMap((c) => [endpoints[c].writer, endpoints[c].reader].map((e) => [e, c]))),
    dir: o.dir,
  });
  const publishing = setInterval(() => void publish().catch((e: Error) => console.error(`publishing the clusters' metrics: ${e.message}`)), 15_000);

  return {
    url: server.url,
    ledger,
    movers,
    deployed,
    stop: async () => {
      clearInterval(publishing);
      await server.close();
      await movers.stop();
      for (const client of [ecs, logs, rds, route53, cfn, cloudWatch]) client.destroy();
    },
  };
}
