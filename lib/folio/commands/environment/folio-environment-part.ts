import type { FolioScenario } from '../../../../config';
import type { FamilyEnvironment } from '../../../commands/environment/family-environment';
import { folioClusterStatus } from '../shared/folio-clusters';
import { hibernateFolio, wakeFolio } from './folio-hibernation';

/** `environment` (status, hibernate, wake) for a FOLIO phase: its two clusters, stopped and started. */
export const FOLIO_ENVIRONMENT_PART: FamilyEnvironment<FolioScenario> = {
  async hibernatedNow(aws, target, scenario) {
    const s = await folioClusterStatus(aws.rds(target), scenario);
    const down = [s.primary, s.offload].filter((x) => /^stop/.test(x));
    const wake = `npm run wake -- --scenario ${scenario.name}${scenario.envName ? ` --env-name ${scenario.envName}` : ''}`;
    return down.length ? `${scenario.stackName} is hibernated: its clusters are ${s.primary} and ${s.offload} (${wake} starts them)` : undefined;
  },
  // No load generator of its own to stop: --force is not its option.
  environmentOptions: [],
  async environment({ command, scenario, aws, target, waiting, io }) {
    const rds = aws.rds(target);
    if (command !== 'status')
      return { lines: await (command === 'hibernate' ? hibernateFolio(rds, scenario, waiting, io) : wakeFolio(rds, scenario, waiting, io)) };
    const s = await folioClusterStatus(rds, scenario);
    const n = scenario.environment.names;
    const state =
      s.primary === 'stopped' && s.offload === 'stopped'
        ? 'hibernated (clusters stopped)'
        : s.primary === 'available' && s.offload === 'available'
          ? 'awake'
          : 'changing';
    return {
      lines: [`${scenario.stackName}: ${state}`, `${n.primaryCluster}: ${s.primary}`, `${n.offloadCluster}: ${s.offload}`],
      status: {
        stackName: scenario.stackName,
        state,
        clusters: { primary: { name: n.primaryCluster, status: s.primary }, offload: { name: n.offloadCluster, status: s.offload } },
      },
    };
  },
};
