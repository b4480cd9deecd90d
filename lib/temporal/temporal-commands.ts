import { ConfigError, type ImageRef, type TemporalScenario } from '../../config';
import { serviceLinkedRoleCheck } from '../commands/preflight/preflight-checks';
import type { FamilyCommands } from '../family-contract';
import { TEMPORAL_COST_PART } from './commands/cost/temporal-cost-part';
import { temporalEnvironment } from './commands/environment/temporal-hibernation';
import { temporalCampaignRow } from './commands/report/temporal-campaign-row';
import { TEMPORAL_REPORT_PART } from './commands/report/temporal-report-part';
import { TEMPORAL_SCENARIOS_PART } from './commands/scenarios/temporal-scenario-table';
import type { TemporalReport } from './commands/report/temporal-summary';
import { benchLoadHours } from './commands/shared/campaign-load';
import { temporalHibernatedNow } from './commands/shared/hibernated';
import { TEMPORAL_OUTPUTS } from './contract/temporal-stack-outputs';

/** Each command's part of the Temporal family (lib/family-contract.ts); loaded by a command, never by synth. */
export const TEMPORAL_COMMANDS: FamilyCommands<TemporalScenario, TemporalReport> = {
  ...TEMPORAL_COST_PART,
  ...TEMPORAL_REPORT_PART,
  ...TEMPORAL_SCENARIOS_PART,

  checkSwitch(a, b) {
    if (a.preset.store.engine !== b.preset.store.engine)
      throw new ConfigError(
        `"${a.name}" keeps Temporal's history in ${a.preset.store.engine} and "${b.name}" in ${b.preset.store.engine}: an environment keeps its store for life ` +
          `(the switch would orphan the history, and its deploy is refused); deploy "${b.name}" as a second environment: -c envName=<name>`,
      );
  },
  lifelongSettings: (scenario) => [
    {
      setting: 'persistence.numHistoryShards (config/temporal-environment.ts)',
      output: TEMPORAL_OUTPUTS.historyShards,
      value: String(scenario.environment.persistence.numHistoryShards),
    },
    { setting: `${scenario.name}'s store.engine`, output: TEMPORAL_OUTPUTS.historyStoreEngine, value: scenario.preset.store.engine },
  ],
  switchNotes: () => ({ notes: [] }),

  images(scenario) {
    const e = scenario.environment;
    const store: [string, ImageRef][] =
      scenario.preset.store.engine === 'aurora-postgresql'
        ? [
            ['auroraPostgresql.images.server', e.auroraPostgresql.images.server],
            ['auroraPostgresql.images.schemaTool', e.auroraPostgresql.images.schemaTool],
          ]
        : [['images.server', e.images.server]];
    return [...store, ['images.collector', e.images.collector], ['images.benchmark', e.images.benchmark]];
  },
  preflightChecks: async (clients) => [await serviceLinkedRoleCheck(clients.iam)],

  loadHours: benchLoadHours,
  readiness: 'bench up',
  campaignRow: temporalCampaignRow,
  hibernatedNow: temporalHibernatedNow,
  environmentOptions: ['--force'],
  environment: temporalEnvironment,
};
