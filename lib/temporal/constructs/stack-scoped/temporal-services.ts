import { Duration } from 'aws-cdk-lib/core';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as ecs from 'aws-cdk-lib/aws-ecs';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { TEMPORAL_ROLES, type TemporalEnvironment, type TemporalPreset, type TemporalRole } from '../../../../config';
import { durationSeconds } from '../../../../config/fields';
import { rollingDeployment } from '../../../../config/packing';
import { temporalServiceName } from '../../contract/temporal-names';
import { type Endpoints, dynamicConfig, serverEnvironment, startCommand, staticConfig } from '../../contract/temporal-config';
import { EcsService } from '../../../platform/constructs/ecs-service';
import type { HibernationSwitch } from '../hibernation-switch';
import type { HistoryStore } from './history-store';
import type { Prometheus } from '../prometheus';

/*
 * A stack-scoped group, not a construct: it has no id and adds its resources to the stack it is
 * given, under the construct paths (and so the logical IDs) every deployed environment has. Made
 * into a construct, its resources would move under a new path and CloudFormation would replace
 * them: Temporal's named ECS services, whose replacement fails on the name.
 * test/lib/temporal/constructs/stack-scoped/logical-ids.test.ts pins those IDs.
 */

export interface TemporalServicesProps {
  readonly environment: TemporalEnvironment;
  readonly preset: TemporalPreset;
  readonly cluster: ecs.ICluster;
  /** The main pool, sized for every role's tasks and a rolling deploy's surge. */
  readonly capacityProvider: ecs.AsgCapacityProvider;
  readonly subnets: ec2.SubnetSelection;
  readonly securityGroup: ec2.SecurityGroup;
  readonly image: ecs.ContainerImage;
  /** The server image's non-root user. */
  readonly user: string;
  readonly taskRole: iam.IRole;
  readonly executionRole: iam.IRole;
  /** Where the history is kept: the servers' store wiring and secrets, and what must exist first. */
  readonly store: HistoryStore;
  readonly endpoints: Endpoints;
  readonly prometheus: Prometheus;
  readonly logRetention: logs.RetentionDays;
  readonly stopTimeout: Duration;
  readonly maximumPercent: number;
  /** Holds every count at 0 while the environment is hibernated. */
  readonly hibernation: HibernationSwitch;
  /** What the first service waits for: the schema task. */
  readonly after: Construct;
}

/**
 * Temporal's four roles as ECS services, each from the rendered static config (its own pool
 * size) and the preset's dynamic config, scraped by the workspace's collector. History starts
 * first, then matching, frontend and worker: each service starts (and on later deploys, rolls)
 * only after the one before it is stable, so ringpop forms in order. The frontend registers in
 * Cloud Map under `frontend` with the configured TTL.
 */
export class TemporalServices {
  readonly byRole: Record<TemporalRole, EcsService>;
  /** The last service to start: what anything started after the cluster waits for. */
  readonly last: Construct;

  constructor(scope: Construct, props: TemporalServicesProps) {
    const { environment: e, preset, store } = props;
    const filesFor = (role: TemporalRole) => ({
      staticConfig: staticConfig(e, preset.store.engine, props.endpoints, preset.pools[role]),
      dynamicConfig: dynamicConfig(e, preset),
    });
    let previous = props.after;
    const byRole = {} as Record<TemporalRole, EcsService>;
    for (const role of TEMPORAL_ROLES) {
      const size = preset.services[role];
      const ports = {
        grpc: e.ports[role].grpc,
        membership: e.ports[role].membership,
        ...('http' in e.ports[role] ? { http: e.ports.frontend.http } : {}),
        metrics: e.ports.metrics,
      };
      const svc = new EcsService(scope, role.charAt(0).toUpperCase() + role.slice(1), {
        cluster: props.cluster,
        capacityProvider: props.capacityProvider,
        subnets: props.subnets,
        securityGroup: props.securityGroup,
        name: temporalServiceName(role),
        image: props.image,
        user: props.user,
        taskRole: props.taskRole,
        executionRole: props.executionRole,
        size,
        desiredCount: props.hibernation.count(size.replicas),
        deployment: rollingDeployment(size.replicas, e.deployment.minimumHealthyPercent, props.maximumPercent),
        ports,
        // The worker role serves no gRPC API: probe its membership port instead.
        healthCheckPort: role === 'worker' ? e.ports.worker.membership : e.ports[role].grpc,
        entryPoint: ['/bin/sh', '-c'],
        command: [startCommand()],
        environment: serverEnvironment(e, role, filesFor(role), store.wiring, preset.pools[role]),
        secrets: store.secrets,
        logRetention: props.logRetention,
        stopTimeout: props.stopTimeout,
        dns: role === 'frontend' ? { name: 'frontend', ttl: Duration.seconds(durationSeconds(e.deployment.dnsTtl)) } : undefined,
      });
      props.prometheus.addCollector(svc.taskDefinition, temporalServiceName(role), e.ports.metrics, svc.logGroup);
      svc.service.node.addDependency(previous, ...store.ready);
      previous = svc.service;
      byRole[role] = svc;
    }
    this.byRole = byRole;
    this.last = previous;
  }
}
