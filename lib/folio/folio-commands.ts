import { describeOffload, type FolioScenario } from '../../config';
import type { FamilyCommands } from '../family-contract';
import { FOLIO_COST_PART } from './commands/cost/folio-cost-part';
import { FOLIO_ENVIRONMENT_PART } from './commands/environment/folio-environment-part';
import { planPhaseSwitch } from './commands/move/move-plan';
import { renderMovePlan } from './commands/move/render-move-plan';
import { folioCampaignRow } from './commands/report/folio-campaign-row';
import { FOLIO_REPORT_PART } from './commands/report/folio-report-part';
import { FOLIO_SCENARIOS_PART } from './commands/scenarios/folio-scenario-table';
import type { FolioReport } from './commands/report/folio-summary';

/** Each command's part of the FOLIO family (lib/family-contract.ts); loaded by a command, never by synth. */
export const FOLIO_COMMANDS: FamilyCommands<FolioScenario, FolioReport> = {
  ...FOLIO_COST_PART,
  ...FOLIO_REPORT_PART,
  ...FOLIO_SCENARIOS_PART,
  ...FOLIO_ENVIRONMENT_PART,

  checkSwitch() {},
  // Its clusters' engine versions only move forward, which CloudFormation and RDS enforce themselves.
  lifelongSettings: () => [],
  switchNotes(from, to) {
    const moves = planPhaseSwitch(from, to);
    return {
      notes: offloadNotes(from, to),
      moves: {
        count: moves.moves.length,
        json: moves,
        markdown: [
          renderMovePlan(moves),
          moves.moves.length ? `Move them before the deploy, with the modules stopped: npm run move -- --from ${from.name} --to ${to.name}` : '',
        ],
      },
    };
  },

  images: (scenario) => [['mover.image', scenario.environment.mover.image]],
  preflightChecks: async () => [],

  campaignRow: (report, _scenario, estimate) => folioCampaignRow(report, estimate),
};

/** What a switch does to the offload cluster's kind and to the tenant count the phase was measured with. */
function offloadNotes(from: FolioScenario, to: FolioScenario): string[] {
  const out: string[] = [];
  const [a, b] = [from.phase.offload, to.phase.offload];
  if ((a.serverless === undefined) !== (b.serverless === undefined))
    out.push(
      `## Offload cluster: ${describeOffload(a)} -> ${describeOffload(b)}`,
      '',
      'The same cluster and its data: Serverless v2 and provisioned are classes of its writer, so CloudFormation changes the class in place ' +
        '(the INTERRUPTION above: minutes without the offload cluster). Stop the modules routed to it before the deploy and start them after, ' +
        'as for a move; no schema moves for the class change itself.',
      '',
    );
  const have = to.environment.tenants.length;
  if (to.phase.tenants !== have)
    out.push(
      `Tenants: ${to.name}'s figures come from ${to.phase.tenants} tenants; this environment has ${have}${have < to.phase.tenants ? ': a scaled-down rerun' : ''}.`,
      '',
    );
  return out;
}
