import { describeOffload, FAMILY_NAME, type FolioScenario } from '../../config';
import type { FamilyEntry } from '../family-contract';
import type { FolioReport } from './commands/report/folio-summary';
import { folioCatalog } from './contract/folio-metrics';
import { FOLIO_OUTPUTS } from './contract/folio-stack-outputs';

/*
 * FOLIO's hybrid database layer as a family: the phases of seed 002, a provisioned writer and
 * an offload cluster whose capacity and routed modules change per phase. Its stack and its
 * commands' parts are loaded by what uses them: synth never loads a command
 * (test/structure.test.ts checks what it loads).
 */

export const FOLIO: FamilyEntry<FolioScenario, FolioReport> = {
  name: 'folio',
  kind: FAMILY_NAME.folio,
  noun: 'phase',
  scenarioOutput: FOLIO_OUTPUTS.phase,
  scenarioFile: 'config/folio-phases.ts',

  metricCatalog: (scenario) => folioCatalog(scenario),
  dashboardHeader(scenario) {
    const { phase, routes } = scenario;
    const routed = routes.filter((r) => r.cluster === 'offload').map((r) => r.module);
    return (
      `## ${scenario.stackName}: ${phase.name}\n` +
      `Primary writer ${phase.primaryInstanceClass}; offload cluster ${describeOffload(phase.offload)}; ` +
      `routed to the offload cluster: ${routed.length ? routed.join(', ') : 'none'}`
    );
  },
  title: (scenario) => scenario.phase.title,

  stacks() {
    const { FOLIO_STACKS }: typeof import('./folio-stacks') = require('./folio-stacks');
    return FOLIO_STACKS;
  },
  commands() {
    const { FOLIO_COMMANDS }: typeof import('./folio-commands') = require('./folio-commands');
    return FOLIO_COMMANDS;
  },
};
