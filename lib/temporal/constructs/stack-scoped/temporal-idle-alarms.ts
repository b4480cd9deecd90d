import type { Construct } from 'constructs';
import type { TemporalScenario } from '../../../../config';
import { benchmarkWorkerCapacity } from '../../../../config/packing';
import { temporalIdleRules } from '../../contract/temporal-idle-rule';
import { BENCHMARK_WORKER_SERVICE } from '../../contract/temporal-names';
import { IdleClusterStop, IdleFleetParking } from '../../../platform/constructs/idle-parking';
import type { BenchmarkFleet } from './benchmark-fleet';
import type { HistoryStore } from './history-store';

/**
 * The environment's idle rules as alarms on the stack (ids IdleParking and IdleStoreStop): an up
 * fleet left idle is parked, an Aurora store nothing connects to is stopped, and the alarm topic told.
 */
export function addIdleAlarms(scope: Construct, scenario: TemporalScenario, fleet: BenchmarkFleet, store: HistoryStore): void {
  const { environment: e, preset } = scenario;
  for (const rule of temporalIdleRules(scenario)) {
    const alarm = { rule, alarmName: `${e.observability.dashboard}-${rule.id}`, topicName: e.observability.alarmTopic };
    if (rule.action === 'park-fleet')
      new IdleFleetParking(scope, 'IdleParking', {
        ...alarm,
        service: fleet.worker.service,
        clusterName: e.names.cluster,
        serviceName: BENCHMARK_WORKER_SERVICE,
        maxTasks: Math.max(benchmarkWorkerCapacity(e, preset).workers, preset.benchmark.workers.replicas),
      });
    else new IdleClusterStop(scope, 'IdleStoreStop', alarm).node.addDependency(...store.ready);
  }
}
