import { ConfigError, describeOffload, FAMILY_NAME, type FolioScenario } from '../../config';
import type { FolioPhaseInput } from '../../config/folio-schema';
import { writerInstanceIdentifier } from '../platform/contract/physical-names';
import type { Family } from '../family-contract';
import type { FolioReport } from './commands/report/folio-summary';
import type { ResumeReading } from './commands/report/resumes';
import type { WaitReading } from './commands/report/wait-events';
import { folioCatalog } from './contract/folio-metrics';
import { FOLIO_OUTPUTS } from './contract/folio-stack-outputs';

/*
 * FOLIO's hybrid database layer as a family: the phases of seed 002, a provisioned writer and
 * an offload cluster whose capacity and routed modules change per phase. What only a command
 * runs (its cost lines, its report, the SDK's clients) is loaded when the command calls it, so
 * synth never loads a command (test/structure.test.ts checks what it loads).
 */

export const FOLIO: Family<FolioScenario, FolioReport> = {
  name: 'folio',
  kind: FAMILY_NAME.folio,
  noun: 'phase',
  scenarioOutput: FOLIO_OUTPUTS.phase,
  scenarioFile: 'config/folio-phases.ts',

  addDataStack(app, scenario) {
    // Loaded when a stack is built: the commands read this family without the CDK's constructs.
    const { HybridAuroraStack }: typeof import('../hybrid-aurora-stack') = require('../hybrid-aurora-stack');
    return { stack: new HybridAuroraStack(app, scenario.stackName, { scenario, env: scenario.env }), deployed: {} };
  },
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

  costOptions: ['--observed-acu'],
  cost(scenario, prices, inputs) {
    const { folioCost }: typeof import('./commands/cost/folio-cost') = require('./commands/cost/folio-cost');
    return folioCost(scenario, prices, inputs);
  },
  loadFromReport(report, scenario, path, given) {
    if (given.observedAverageAcu !== undefined || !scenario.phase.offload.serverless) return given;
    if (report.metrics.acu?.average == null) throw new ConfigError(`${path} has no Serverless v2 capacity (no data in its window)`);
    const window = [report.window.start, report.window.end].map((t) => t.replace(/\.000Z$/, 'Z')).join(' to ');
    return { ...given, observedAverageAcu: report.metrics.acu.average, observedFrom: `${report.scenario}, ${window}` };
  },
  checkCostInputs(scenario, inputs, from) {
    const observed = inputs.observedAverageAcu;
    if (observed === undefined) return;
    const range = scenario.phase.offload.serverless;
    if (!range)
      throw new ConfigError(
        `--observed-acu applies to a Serverless v2 offload cluster; ${scenario.name}'s is ${describeOffload(scenario.phase.offload)} (valid: a phase whose offload is serverless)`,
      );
    if (observed < range.min || observed > range.max)
      throw new ConfigError(`${from} ${observed} is outside ${scenario.name}'s range (valid: ${range.min}-${range.max} ACU, the phase's Serverless v2 range)`);
  },

  reportOptions: [],
  checkReportOptions() {},
  deployedForReport: async () => ({}),
  async report({ scenario, options, aws, target, window, io, now }, catalog, points) {
    const offloadWriter = writerInstanceIdentifier(scenario.environment.names.offloadCluster);
    // A Serverless v2 offload cluster that pauses: when it resumed, and how long that took.
    let resumes: ResumeReading | undefined;
    if (scenario.phase.offload.serverless?.min === 0) {
      const { readResumes }: typeof import('./commands/report/resumes') = require('./commands/report/resumes');
      resumes = await readResumes(aws.rds(target), offloadWriter, window);
      if (resumes.unread) io.note(`note: RDS events: not read: ${resumes.unread}`);
    }
    // Where the offload writer's load waited: Performance Insights, which an emulator does not serve.
    let waits: WaitReading;
    if (options.endpointUrl !== undefined)
      waits = { offload: null, unread: '--endpoint-url points the AWS calls at an emulator, which serves no Performance Insights API' };
    else {
      const { readWaitEvents }: typeof import('./commands/report/wait-events') = require('./commands/report/wait-events');
      waits = await readWaitEvents(aws.rds(target), aws.pi(target), offloadWriter, window, now);
    }
    if (waits.unread) io.note(`note: Performance Insights: not read: ${waits.unread}`);
    const { summarizeFolio }: typeof import('./commands/report/folio-summary') = require('./commands/report/folio-summary');
    return { report: summarizeFolio(scenario, catalog, points, window, resumes, waits), charts: () => [] };
  },
  renderReport(report) {
    const { renderFolio }: typeof import('./commands/report/render-folio') = require('./commands/report/render-folio');
    return renderFolio(report);
  },
  noDataHint: () => '',
  compareReports: () => [],
  addProposed(catalog, next) {
    (catalog.folio.phases as FolioPhaseInput[]).push(next as FolioPhaseInput);
  },

  checkSwitch() {},
  // Its clusters' engine versions only move forward, which CloudFormation and RDS enforce themselves.
  lifelongSettings: () => [],
  switchNotes(from, to) {
    const { planPhaseSwitch }: typeof import('./commands/move/move-plan') = require('./commands/move/move-plan');
    const { renderMovePlan }: typeof import('./commands/move/render-move-plan') = require('./commands/move/render-move-plan');
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

  campaignRow(report, _scenario, estimate) {
    const { folioCampaignRow }: typeof import('./commands/report/folio-campaign-row') = require('./commands/report/folio-campaign-row');
    return folioCampaignRow(report, estimate);
  },
  async hibernatedNow(aws, target, scenario) {
    const { folioClusterStatus }: typeof import('../commands/aws/cluster-status') = require('../commands/aws/cluster-status');
    const s = await folioClusterStatus(aws.rds(target), scenario);
    const down = [s.primary, s.offload].filter((x) => /^stop/.test(x));
    const wake = `npm run wake -- --scenario ${scenario.name}${scenario.envName ? ` --env-name ${scenario.envName}` : ''}`;
    return down.length ? `${scenario.stackName} is hibernated: its clusters are ${s.primary} and ${s.offload} (${wake} starts them)` : undefined;
  },
  // No load generator of its own to stop: --force is not its option.
  environmentOptions: [],
  async environment({ command, scenario, aws, target, waiting, io }) {
    const rds = aws.rds(target);
    if (command === 'status') {
      const { folioClusterStatus }: typeof import('../commands/aws/cluster-status') = require('../commands/aws/cluster-status');
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
    }
    const { hibernateFolio, wakeFolio }: typeof import('./commands/environment/folio-hibernation') = require('./commands/environment/folio-hibernation');
    return { lines: await (command === 'hibernate' ? hibernateFolio(rds, scenario, waiting, io) : wakeFolio(rds, scenario, waiting, io)) };
  },
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
