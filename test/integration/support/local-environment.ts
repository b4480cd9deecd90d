import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { CloudFormationClient, DescribeStacksCommand, GetTemplateCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { TEMPORAL_ROLES, type TemporalScenario, resolveScenario } from '../../../config';
import { type Worker, runGenerator, startWorker, warmUp } from '../../../harness/benchmark';
import { minuteSeries, putMetrics } from '../../../harness/cloudwatch-seed';
import type { FleetConfig } from '../../../harness/offline-fleet';
import type { Postgres } from '../../../harness/postgres';
import { type LocalCluster, membersOnceFormed, startCluster } from '../../../harness/temporal-cluster';
import type { RunRecord } from '../../../lib/commands/shared/run-record';
import { BENCHMARK_GENERATOR_FAMILY, BENCHMARK_WORKER_SERVICE, temporalServiceName } from '../../../lib/temporal/contract/temporal-names';
import { TEMPORAL_OUTPUTS } from '../../../lib/temporal/contract/temporal-stack-outputs';
import { serveActions } from './action-server';
import { type LocalPrometheus, startPrometheus } from './prometheus';

/*
 * A Temporal environment on this machine that outlives the program driving it, as AWS outlives
 * a campaign killed mid-stage: the local cluster (started again from a preset's rendering on a
 * deploy, the stores kept), the benchmark worker and generator, a real Prometheus scraping them
 * under the collector's job names, and the TemporalDsql stack's Scenario output on moto, served
 * by action-server.ts.
 */

interface EnvironmentLedger {
  /** Each deploy that started the cluster from a preset's rendering, in order. */
  readonly deploys: string[];
  /** Each generator run a load started, by scenario. */
  readonly loads: string[];
  /** Requests that changed nothing (a deploy of the preset running, a ready cluster). */
  readonly noops: string[];
  /** Loads whose generator a later load stopped (as bench run stops one an interrupted run left). */
  readonly stopped: string[];
  /** Each request as it ended: how long it took and how it ended (for a failure's message). */
  readonly log: string[];
}

export interface LocalEnvironment {
  readonly url: string;
  readonly prometheus: LocalPrometheus;
  readonly ledger: EnvironmentLedger;
  stop(): Promise<void>;
}

interface LoadRequest {
  readonly scenario: string;
  readonly rate: number;
  readonly duration: string;
  readonly rampUp: string;
  /** Where the run record goes (what bench run writes). */
  readonly out: string;
}

export async function startLocalEnvironment(o: { postgres: Postgres; aws: FleetConfig; stackName: string }): Promise<LocalEnvironment> {
  const any = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
  const ports = any.environment.ports;
  const workerMetrics = ports.metrics + 10;
  const generatorMetrics = ports.metrics + 11;
  // The presets share the environment, so its ports: one Prometheus for every deploy.
  const prometheus = await startPrometheus({
    ...Object.fromEntries(TEMPORAL_ROLES.map((r, i) => [temporalServiceName(r), ports.metrics + i])),
    [BENCHMARK_WORKER_SERVICE]: workerMetrics,
    [BENCHMARK_GENERATOR_FAMILY]: generatorMetrics,
  });
  const ledger: EnvironmentLedger = { deploys: [], loads: [], noops: [], stopped: [], log: [] };
  const cfn = new CloudFormationClient(o.aws);
  const cloudWatch = new CloudWatchClient(o.aws);
  let cluster: LocalCluster | undefined;
  let worker: Worker | undefined;
  let stores = false;
  /** The load under way: a later one stops its generator, as bench run --stop-running does a task's. */
  let loading: { scenario: string; abort: AbortController } | undefined;

  const scenarioOf = (name: string) => resolveScenario({ scenario: name }) as TemporalScenario;
  const running = () => (cluster ? cluster.scenario.name : undefined);

  /** The stack's Scenario output set as a deploy of `name` sets it. */
  const setOutput = async (name: string) => {
    const { TemplateBody } = await cfn.send(new GetTemplateCommand({ StackName: o.stackName }));
    const template = JSON.parse(TemplateBody!);
    template.Outputs[TEMPORAL_OUTPUTS.scenario] = { Value: name };
    await cfn.send(new UpdateStackCommand({ StackName: o.stackName, TemplateBody: JSON.stringify(template) }));
    const { Stacks } = await cfn.send(new DescribeStacksCommand({ StackName: o.stackName }));
    const now = Stacks?.[0]?.Outputs?.find((x) => x.OutputKey === TEMPORAL_OUTPUTS.scenario)?.OutputValue;
    if (now !== name) throw new Error(`the stack's ${TEMPORAL_OUTPUTS.scenario} output reads ${now}, not ${name}`);
  };

  /** Each role's CPU seconds so far (utime + stime of its process, in clock ticks of 1/100 s). */
  const cpuSeconds = (): Map<string, number> =>
    new Map(
      cluster!.roles.map((r) => {
        const fields = readFileSync(`/proc/${r.process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        return [r.role, (Number(fields[11]) + Number(fields[12])) / 100];
      }),
    );

  /**
   * What ECS would put in CloudWatch for a load: each role's CPUUtilization, here its process's
   * CPU over the load as a share of one core, a point for every minute the load touched.
   */
  const publishCpu = async (before: Map<string, number>, start: Date, end: Date) => {
    const after = cpuSeconds();
    const first = new Date(Math.floor(start.getTime() / 60_000) * 60_000);
    const minutes = Math.floor(end.getTime() / 60_000) - first.getTime() / 60_000 + 1;
    const seconds = (end.getTime() - start.getTime()) / 1000;
    const data = TEMPORAL_ROLES.flatMap((role) => {
      const percent = (100 * (after.get(role)! - before.get(role)!)) / seconds;
      const dims = { ClusterName: 'temporal-dsql', ServiceName: temporalServiceName(role) };
      return minuteSeries(first, 'CPUUtilization', dims, Array(minutes).fill(Number(percent.toFixed(1))));
    });
    await putMetrics(cloudWatch, 'AWS/ECS', data);
  };

  const stopAll = async () => {
    await worker?.stop();
    worker = undefined;
    await cluster?.stop();
    cluster = undefined;
  };

  const actions: Record<string, (body: any) => Promise<Record<string, unknown>>> = {
    async deploy({ scenario }: { scenario: string }) {
      if (running() === scenario) {
        ledger.noops.push(`deploy ${scenario}`);
        return { note: `${scenario} is deployed already` };
      }
      await stopAll();
      cluster = await startCluster({ postgres: o.postgres, scenario, existingStores: stores });
      stores = true;
      await setOutput(scenario);
      ledger.deploys.push(scenario);
      return { note: `${scenario}: the four roles started from its rendering` };
    },
    async ready({ scenario }: { scenario: string }) {
      if (running() !== scenario) throw new Error(`${scenario} is not deployed (running: ${running() ?? 'nothing'})`);
      const members = await membersOnceFormed(cluster!);
      if (members.length !== TEMPORAL_ROLES.length) throw new Error(`membership has ${members.join(', ')} only`);
      if (worker && worker.process.running()) {
        ledger.noops.push(`ready ${scenario}`);
        return { note: 'the cluster and the worker are up' };
      }
      worker = await startWorker(cluster!.scenario.preset, cluster!.frontendAddress, workerMetrics);
      await warmUp(cluster!.scenario.preset, cluster!.frontendAddress);
      return { note: 'membership formed; the worker polling' };
    },
    async load(r: LoadRequest) {
      if (running() !== r.scenario || !worker) throw new Error(`${r.scenario} is not deployed and ready (running: ${running() ?? 'nothing'})`);
      ledger.loads.push(r.scenario);
      const start = new Date();
      const cpu = cpuSeconds();
      loading = { scenario: r.scenario, abort: new AbortController() };
      const run = await runGenerator(
        scenarioOf(r.scenario).preset,
        cluster!.frontendAddress,
        generatorMetrics,
        { BENCHMARK_TARGET_RATE: String(r.rate), BENCHMARK_DURATION: r.duration, BENCHMARK_RAMP_UP: r.rampUp },
        600_000,
        loading.abort.signal,
      ).finally(() => (loading = undefined));
      await publishCpu(cpu, start, new Date());
      const record: RunRecord = {
        scenario: r.scenario,
        start: start.toISOString(),
        end: new Date().toISOString(),
        ...(run.result ? { workflowsCompleted: run.result.results.workflowsCompleted } : {}),
        targetRate: r.rate,
        duration: r.duration,
        rampUp: r.rampUp,
        taskArn: 'local generator',
        exitCode: run.exitCode,
        stoppedReason: null,
        result: run.result,
        storeRoundTrip: null,
        storeRoundTripNote: 'no store probe on this machine',
      };
      mkdirSync(dirname(r.out), { recursive: true });
      writeFileSync(r.out, `${JSON.stringify(record, null, 2)}\n`);
      if (run.exitCode !== 0) throw new Error(`the generator exited ${run.exitCode}: ${run.lines.slice(-5).join(' ')}`);
      return { start: record.start, end: record.end, runRecord: r.out };
    },
    async hibernate() {
      await stopAll();
      return { note: 'the cluster and the worker stopped' };
    },
  };

  const server = await serveActions(actions, ledger.log, (name) => {
    // Not behind the load under way: it is stopped, so the new one can start.
    if (name === 'load' && loading) {
      ledger.stopped.push(loading.scenario);
      loading.abort.abort();
    }
  });
  return {
    url: server.url,
    prometheus,
    ledger,
    stop: async () => {
      await server.close();
      await stopAll();
      await prometheus.stop();
      cfn.destroy();
      cloudWatch.destroy();
    },
  };
}
