import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';
import { containerImage } from '../../../platform/contract/images';
import type { EcsCapacity } from '../ecs-capacity';
import type { MainPoolPlacement } from '../port-forwarded-service';
import type { Prometheus } from '../prometheus';
import { TemporalGrafana } from '../temporal-grafana';
import { TemporalUi } from '../temporal-ui';

/*
 * A stack-scoped group, not a construct: the Web UI and Grafana keep the construct paths
 * (WebUi, Dashboards, UiImage, GrafanaImage) every deployed environment has.
 */

export interface TemporalToolsProps extends MainPoolPlacement {
  readonly frontendAddress: string;
  readonly servers: ec2.ISecurityGroup;
  readonly capacity: EcsCapacity;
  readonly prometheus: Prometheus;
  /** What they start after: the last Temporal service. */
  readonly after: Construct;
}

/**
 * The Web UI and Grafana with the live dashboard, on the main pool beside the servers, reached
 * by port forwarding only. Every preset has their resources, so a switch never adds or deletes
 * them: `ui` and `dashboards` set their task counts.
 */
export class TemporalTools {
  readonly ui: TemporalUi;
  readonly grafana: TemporalGrafana;

  constructor(scope: Construct, props: TemporalToolsProps) {
    const { frontendAddress, servers, capacity, prometheus, after, ...mainPool } = props;
    const { images } = mainPool.environment;
    this.ui = new TemporalUi(scope, 'WebUi', {
      ...mainPool,
      image: containerImage(scope, 'UiImage', images.ui),
      user: images.ui.user,
      frontendAddress,
      servers,
      instances: { securityGroup: capacity.instanceSecurityGroup, group: capacity.main.autoScalingGroup },
    });
    this.ui.service.service.node.addDependency(after);
    this.grafana = new TemporalGrafana(scope, 'Dashboards', {
      ...mainPool,
      image: containerImage(scope, 'GrafanaImage', images.grafana),
      user: images.grafana.user,
      prometheus,
      instanceSecurityGroup: capacity.instanceSecurityGroup,
    });
    this.grafana.service.service.node.addDependency(after);
  }
}
