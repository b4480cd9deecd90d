import { Stack } from 'aws-cdk-lib/core';
import * as aps from 'aws-cdk-lib/aws-aps';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { stringify } from 'yaml';
import { SIDECAR_MEMORY_MIB } from '../../platform/constructs/ecs-service';

export interface PrometheusProps {
  readonly alias: string;
  readonly collectorImage: ecs.ContainerImage;
  /** The user the collector runs as: not root. */
  readonly collectorUser: string;
  /** How often each collector scrapes its task (config: observability.prometheus). */
  readonly scrapeInterval: string;
}

/**
 * An Amazon Managed Prometheus workspace, and the per-task collector that fills it: an ADOT
 * sidecar in every task scrapes its own task's metrics port on localhost and remote-writes
 * with SigV4. Per task, not through a service alias, so every replica's series arrive, each
 * labelled with its task ARN.
 */
export class Prometheus extends Construct {
  readonly workspace: aps.CfnWorkspace;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: PrometheusProps,
  ) {
    super(scope, id);
    this.workspace = new aps.CfnWorkspace(this, 'Workspace', { alias: props.alias });
  }

  get remoteWriteUrl(): string {
    return `${this.workspace.attrPrometheusEndpoint}api/v1/remote_write`;
  }

  /** Adds the collector to a task that serves Prometheus metrics on `port`. */
  addCollector(task: ecs.TaskDefinition, job: string, port: number, logGroup: logs.ILogGroup): ecs.ContainerDefinition {
    task.taskRole.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['aps:RemoteWrite'], resources: [this.workspace.attrArn] }));
    return task.addContainer('MetricsCollector', {
      image: this.props.collectorImage,
      user: this.props.collectorUser,
      essential: false,
      cpu: 64,
      // It writes no file; what it may use is the share the task's main container leaves it.
      readonlyRootFilesystem: true,
      memoryLimitMiB: SIDECAR_MEMORY_MIB,
      memoryReservationMiB: 128,
      environment: { AOT_CONFIG_CONTENT: this.collectorConfig(job, port) },
      logging: ecs.LogDrivers.awsLogs({ logGroup, streamPrefix: 'collector' }),
    });
  }

  private collectorConfig(job: string, port: number): string {
    return stringify(
      {
        extensions: { sigv4auth: { region: Stack.of(this).region, service: 'aps' } },
        receivers: {
          prometheus: {
            config: {
              scrape_configs: [{ job_name: job, scrape_interval: this.props.scrapeInterval, static_configs: [{ targets: [`localhost:${port}`] }] }],
            },
          },
        },
        processors: { resourcedetection: { detectors: ['env', 'ecs'] }, batch: {} },
        exporters: {
          prometheusremotewrite: {
            endpoint: this.remoteWriteUrl,
            auth: { authenticator: 'sigv4auth' },
            resource_to_telemetry_conversion: { enabled: true },
          },
        },
        service: {
          extensions: ['sigv4auth'],
          pipelines: { metrics: { receivers: ['prometheus'], processors: ['resourcedetection', 'batch'], exporters: ['prometheusremotewrite'] } },
        },
      },
      { lineWidth: 0 },
    );
  }
}
