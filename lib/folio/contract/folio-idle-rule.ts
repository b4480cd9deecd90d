import type { FolioScenario } from '../../../config';
import { connections, type IdleRule } from '../../platform/contract/idle-rule';

/** A FOLIO environment's idle rule (none when its config turns idle off): no client connection to either cluster, and both are stopped. */
export function folioIdleRules(scenario: FolioScenario): IdleRule[] {
  const idle = scenario.environment.spending.idle;
  if (idle.action === 'off') return [];
  const n = scenario.environment.names;
  return [
    {
      family: 'folio',
      action: 'stop-clusters',
      id: 'IdleClusters',
      clusters: [n.primaryCluster, n.offloadCluster],
      metrics: [connections('primary', n.primaryCluster), connections('offload', n.offloadCluster)],
      rule: { kind: 'sum-at-most', value: 0 },
      minutes: idle.minutes,
      description: `No client connection to either cluster for ${idle.minutes} minutes: both are stopped (npm run wake starts them).`,
    },
  ];
}
