import { type Duration } from 'aws-cdk-lib/core';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { FleetState, TemporalEnvironment, TemporalPreset } from '../../../../config';
import { rollingDeployment } from '../../../../config/packing';
import { containerImage } from '../../../platform/contract/images';
import { BENCHMARK_GENERATOR_FAMILY, BENCHMARK_WORKER_SERVICE, GENERATOR_CONTAINER, PROBE_CONTAINER, STORE_PROBE_FAMILY } from '../../contract/temporal-names';
import { type BenchmarkMode, PROBE_PASSWORD_VARIABLE, benchmarkEnvironment, probeEnvironment } from '../../contract/temporal-config';
import { EcsService, addTaskContainer, arm64TaskDefinition, executionRole } from '../../../platform/constructs/ecs-service';
import type { HibernationSwitch } from '../hibernation-switch';
import type { HistoryStore } from './history-store';
import type { Prometheus } from '../prometheus';

/*
 * A stack-scoped group, not a construct: it has no id and adds its resources to the stack it is
 * given, under the construct paths (and so the logical IDs) every deployed environment has. Made
 * into a construct, its resources would move under a new path and CloudFormation would replace
 * them: the benchmark worker service and its task definitions.
 * test/lib/temporal/constructs/stack-scoped/logical-ids.test.ts pins those IDs.
 */

export interface BenchmarkFleetProps {
  readonly environment: TemporalEnvironment;
  readonly preset: TemporalPreset;
  /** Who owns the worker count: `running` and `parked` pin it, `external` leaves it to `bench up/down`. */
  readonly fleet: FleetState;
  /** A running fleet's count is 0 while the environment is hibernated. */
  readonly hibernation: HibernationSwitch;
  readonly cluster: ecs.ICluster;
  /** The benchmark pool, which scales to zero between runs. */
  readonly capacityProvider: ecs.AsgCapacityProvider;
  readonly subnets: ec2.SubnetSelection;
  /** The clients' security group: the frontend's gRPC port and AWS APIs only. */
  readonly securityGroup: ec2.SecurityGroup;
  readonly frontendAddress: string;
  readonly prometheus: Prometheus;
  readonly logRetention: logs.RetentionDays;
  readonly stopTimeout: Duration;
  readonly maximumPercent: number;
  /** The store probe runs as a server would: the servers' roles and store credential. */
  readonly probe: { readonly taskRole: iam.IRole; readonly executionRole: iam.IRole; readonly store: HistoryStore };
}

/**
 * The benchmark fleet on its own pool: the worker service, the load generator's and the store
 * probe's task definitions, their roles and log groups, each scraped by the workspace's
 * collector. Its task role reaches metrics only; the probe alone runs with the servers' role.
 */
export class BenchmarkFleet {
  readonly worker: EcsService;
  readonly generator: ecs.TaskDefinition;
  /** `bench run`'s store probe: the benchmark program timing SELECT 1 from the servers' network position. */
  readonly storeProbe: ecs.TaskDefinition;

  constructor(scope: Construct, props: BenchmarkFleetProps) {
    const { environment: e, preset, prometheus } = props;
    const bench = preset.benchmark;
    const retention = props.logRetention;
    const taskRole = new iam.Role(scope, 'BenchmarkTaskRole', {
      assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'),
      description: 'Benchmark workers and load generator: metrics only',
    });
    const image = containerImage(scope, 'BenchmarkImage', e.images.benchmark);
    const benchExecutionRole = executionRole(scope, 'BenchmarkExecutionRole', 'benchmark worker and load generator');
    const environment = (mode: BenchmarkMode) => benchmarkEnvironment(preset, mode, { frontendAddress: props.frontendAddress, metricsPort: e.ports.metrics });
    this.worker = new EcsService(scope, 'BenchmarkWorker', {
      cluster: props.cluster,
      capacityProvider: props.capacityProvider,
      subnets: props.subnets,
      securityGroup: props.securityGroup,
      name: BENCHMARK_WORKER_SERVICE,
      image,
      user: e.images.benchmark.user,
      taskRole,
      executionRole: benchExecutionRole,
      size: bench.workers,
      desiredCount: props.fleet === 'running' ? props.hibernation.count(bench.workers.replicas) : props.fleet === 'parked' ? 0 : undefined,
      deployment: rollingDeployment(bench.workers.replicas, e.deployment.minimumHealthyPercent, props.maximumPercent),
      ports: { metrics: e.ports.metrics },
      environment: environment('worker'),
      logRetention: retention,
      stopTimeout: props.stopTimeout,
    });
    prometheus.addCollector(this.worker.taskDefinition, BENCHMARK_WORKER_SERVICE, e.ports.metrics, this.worker.logGroup);

    const generatorLogs = new logs.LogGroup(scope, 'GeneratorLogs', { retention });
    this.generator = arm64TaskDefinition(scope, 'Generator', {
      family: BENCHMARK_GENERATOR_FAMILY,
      ...bench.generator,
      taskRole,
      executionRole: benchExecutionRole,
    });
    addTaskContainer(this.generator, GENERATOR_CONTAINER, bench.generator.memoryGiB * 1024, {
      image,
      user: e.images.benchmark.user,
      environment: environment('generator'),
      logging: ecs.LogDrivers.awsLogs({ logGroup: generatorLogs, streamPrefix: 'generator' }),
    });
    prometheus.addCollector(this.generator, BENCHMARK_GENERATOR_FAMILY, e.ports.metrics, generatorLogs);

    const { store } = props.probe;
    const probeLogs = new logs.LogGroup(scope, 'ProbeLogs', { retention });
    const probeSize = { vcpu: 0.25, memoryGiB: 0.5 };
    this.storeProbe = arm64TaskDefinition(scope, 'StoreProbe', {
      family: STORE_PROBE_FAMILY,
      ...probeSize,
      taskRole: props.probe.taskRole,
      executionRole: props.probe.executionRole,
    });
    addTaskContainer(this.storeProbe, PROBE_CONTAINER, probeSize.memoryGiB * 1024, {
      image,
      user: e.images.benchmark.user,
      environment: probeEnvironment(e, preset.store.engine, { storeHost: store.host, tokenEndpoint: store.tokenEndpoint }),
      secrets: store.password ? { [PROBE_PASSWORD_VARIABLE]: store.password } : undefined,
      logging: ecs.LogDrivers.awsLogs({ logGroup: probeLogs, streamPrefix: 'probe' }),
    });
  }
}
