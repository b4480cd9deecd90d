import { Duration, Stack, aws_ec2 as ec2, type aws_ecs as ecs, aws_iam as iam, type aws_logs as logs } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { TemporalEnvironment, TemporalPreset } from '../../config';
import { durationSeconds } from '../../config/fields';
import { rollingDeployment } from '../../config/packing';
import { TEMPORAL_GRAFANA_SERVICE } from '../contract/physical-names';
import { grafanaEnvironment, grafanaHealthCheck, grafanaStartCommand } from '../contract/grafana';
import { EcsService, executionRole } from './ecs-service';
import type { HibernationSwitch } from './hibernation-switch';
import type { Prometheus } from './prometheus';

export interface TemporalGrafanaProps {
  readonly environment: TemporalEnvironment;
  readonly preset: TemporalPreset;
  readonly vpc: ec2.IVpc;
  readonly cluster: ecs.ICluster;
  readonly capacityProvider: ecs.AsgCapacityProvider;
  readonly subnets: ec2.SubnetSelection;
  readonly image: ecs.ContainerImage;
  readonly user: string;
  /** The workspace the collectors write: Grafana reads it. */
  readonly prometheus: Prometheus;
  /** The main pool's instances, where a Session Manager port forward starts: only they reach Grafana. */
  readonly instanceSecurityGroup: ec2.ISecurityGroup;
  readonly logRetention: logs.RetentionDays;
  readonly stopTimeout: Duration;
  readonly maximumPercent: number;
  readonly hibernation: HibernationSwitch;
}

/**
 * Grafana with the live dashboard, as one ECS task on the main pool (none where the preset
 * says `dashboards: false`), registered as `grafana.<namespace>` in Cloud Map. It reads the
 * Managed Prometheus workspace with SigV4 as its task role, which may query that workspace and
 * nothing else. Nothing outside the VPC reaches it: its group admits its port from the
 * container instances only, where a Session Manager port forward ends (`npm run ui` prints the
 * command; the Web UI's construct gives the instances Session Manager).
 */
export class TemporalGrafana extends Construct {
  readonly service: EcsService;
  readonly securityGroup: ec2.SecurityGroup;
  /** Where it answers inside the VPC: `grafana.<namespace>:<port>`. */
  readonly address: string;

  constructor(scope: Construct, id: string, props: TemporalGrafanaProps) {
    super(scope, id);
    const { environment: e } = props;
    this.securityGroup = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: props.vpc,
      description: 'Grafana: in from the container instances (port forwarding) only; out to HTTPS (Managed Prometheus queries) only',
      allowAllOutbound: false,
    });
    this.securityGroup.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(443), 'HTTPS: Managed Prometheus queries, through NAT');
    this.securityGroup.connections.allowFrom(
      props.instanceSecurityGroup,
      ec2.Port.tcp(e.dashboards.port),
      'Session Manager port forwarding from a container instance',
    );
    const taskRole = new iam.Role(this, 'TaskRole', {
      assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'),
      description: "Grafana: query the environment's Managed Prometheus workspace, nothing else",
    });
    taskRole.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['aps:QueryMetrics', 'aps:GetSeries', 'aps:GetLabels', 'aps:GetMetricMetadata'],
        resources: [props.prometheus.workspace.attrArn],
      }),
    );
    this.service = new EcsService(this, 'Grafana', {
      cluster: props.cluster,
      capacityProvider: props.capacityProvider,
      subnets: props.subnets,
      securityGroup: this.securityGroup,
      name: TEMPORAL_GRAFANA_SERVICE,
      image: props.image,
      user: props.user,
      taskRole,
      executionRole: executionRole(this, 'TaskExecutionRole', 'Grafana'),
      size: { replicas: 1, vcpu: undefined, memoryGiB: e.dashboards.memoryGiB },
      desiredCount: props.preset.dashboards ? props.hibernation.count(1) : 0,
      deployment: rollingDeployment(1, e.deployment.minimumHealthyPercent, props.maximumPercent),
      ports: { http: e.dashboards.port },
      healthCheckCommand: grafanaHealthCheck(e.dashboards.port),
      entryPoint: ['sh', '-c'],
      command: [grafanaStartCommand()],
      environment: grafanaEnvironment(e, props.preset, {
        prometheusUrl: props.prometheus.workspace.attrPrometheusEndpoint,
        region: Stack.of(this).region,
        scrapeInterval: e.observability.prometheus.scrapeInterval,
      }),
      logRetention: props.logRetention,
      stopTimeout: props.stopTimeout,
      dns: { name: 'grafana', ttl: Duration.seconds(durationSeconds(e.deployment.dnsTtl)) },
    });
    this.address = `grafana.${e.names.serviceNamespace}:${e.dashboards.port}`;
  }
}
