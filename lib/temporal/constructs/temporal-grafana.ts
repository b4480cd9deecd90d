import { Stack } from 'aws-cdk-lib/core';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as ecs from 'aws-cdk-lib/aws-ecs';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { TEMPORAL_GRAFANA_SERVICE } from '../contract/temporal-names';
import { grafanaEnvironment, grafanaHealthCheck, grafanaStartCommand } from '../contract/grafana';
import type { EcsService } from '../../platform/constructs/ecs-service';
import { type MainPoolPlacement, portForwardedService } from './port-forwarded-service';
import type { Prometheus } from './prometheus';

export interface TemporalGrafanaProps extends MainPoolPlacement {
  readonly image: ecs.ContainerImage;
  readonly user: string;
  /** The workspace the collectors write: Grafana reads it. */
  readonly prometheus: Prometheus;
  /** The main pool's instances, where a Session Manager port forward starts: only they reach Grafana. */
  readonly instanceSecurityGroup: ec2.ISecurityGroup;
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
    ({
      securityGroup: this.securityGroup,
      service: this.service,
      address: this.address,
    } = portForwardedService(this, {
      ...props,
      name: TEMPORAL_GRAFANA_SERVICE,
      serviceId: 'Grafana',
      dnsName: 'grafana',
      who: 'Grafana',
      groupDescription: 'Grafana: in from the container instances (port forwarding) only; out to HTTPS (Managed Prometheus queries) only',
      port: e.dashboards.port,
      memoryGiB: e.dashboards.memoryGiB,
      runs: props.preset.dashboards,
      egress: {
        peer: ec2.Peer.anyIpv4(),
        port: ec2.Port.tcp(443),
        description: "HTTPS: Managed Prometheus queries, and the data source plugin's download at start, through NAT",
      },
      taskRole,
      containerEnvironment: grafanaEnvironment(e, props.preset, {
        prometheusUrl: props.prometheus.workspace.attrPrometheusEndpoint,
        region: Stack.of(this).region,
        scrapeInterval: e.observability.prometheus.scrapeInterval,
      }),
      healthCheckCommand: grafanaHealthCheck(e.dashboards.port),
      entryPoint: ['sh', '-c'],
      command: [grafanaStartCommand(e.dashboards.pluginVersion)],
    }));
  }
}
