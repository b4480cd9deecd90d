import { Stack } from 'aws-cdk-lib/core';
import * as sns from 'aws-cdk-lib/aws-sns';
import { ConfigError } from '../../config';
import { heading, num } from '../../lib/commands/report/report-format';
import { reportBase, SeriesContext, type ReportBase } from '../../lib/commands/report/summarize';
import { metric } from '../../lib/platform/contract/metrics';
import type { FamilyCommands, FamilyEntry } from '../../lib/family-contract';

/*
 * A third family that exists only in the tests: two scenarios of one small stack, its own
 * metric, cost line and report. Registered beside FOLIO and Temporal (lib/families.ts), it
 * shows that synth, cost, report and plan run a family through the registry alone.
 */

const SIZES: Readonly<Record<string, number>> = { 'toy-small': 1, 'toy-large': 3 };

/** What a toy scenario is: what every family's scenario has, and its size. */
interface ToyScenario {
  readonly family: 'toy';
  readonly name: string;
  readonly envName?: string;
  readonly protect: boolean;
  readonly stackName: string;
  readonly env: { readonly account?: string; readonly region: string };
  readonly environment: {
    readonly observability: { readonly stackName: string; readonly dashboard: string; readonly alarmTopic: string; readonly alarmEmails: readonly string[] };
    readonly spending: { readonly budget: { readonly dailyUsd: number } };
  };
  readonly size: number;
}

interface ToyReport extends ReportBase {
  readonly family: 'toy';
  readonly metrics: { readonly published: number | null };
}

export const TOY: FamilyEntry<any, ToyReport> = {
  name: 'toy',
  kind: 'toy scenario',
  noun: 'scenario',
  scenarioOutput: 'Scenario',
  scenarioFile: 'test/support/toy-family.ts',
  ownScenarios: {
    names: () => Object.keys(SIZES),
    resolve(context): ToyScenario {
      const name = String(context.scenario);
      if (!(name in SIZES)) throw new ConfigError(`no toy scenario "${name}" (valid: ${Object.keys(SIZES).join(', ')})`);
      return {
        family: 'toy',
        name,
        protect: true,
        stackName: 'ToyData',
        env: { region: 'eu-west-1' },
        environment: {
          observability: { stackName: 'ToyObservability', dashboard: 'toy', alarmTopic: 'toy-alarms', alarmEmails: [] },
          spending: { budget: { dailyUsd: 5 } },
        },
        size: SIZES[name],
      };
    },
  },

  metricCatalog: () => ({
    family: 'toy',
    series: [metric('published', 'Messages published', 'AWS/SNS', 'NumberOfMessagesPublished', { TopicName: 'toy-work' }, 'Sum', 'count')],
    panels: [{ id: 'published', title: 'Messages published', unit: 'count', series: ['published'], limits: [], inReport: true }],
    alarms: [],
  }),
  dashboardHeader: (scenario: ToyScenario) => `## ${scenario.stackName}: ${scenario.name}`,
  title: (scenario: ToyScenario) => `${scenario.size} workers`,

  stacks: () => ({
    addDataStack(app, scenario: ToyScenario) {
      const stack = new Stack(app, scenario.stackName, { env: scenario.env });
      new sns.Topic(stack, 'Work', { topicName: 'toy-work', displayName: `${scenario.size} workers` });
      return { stack, deployed: {} };
    },
  }),
  commands: () => TOY_COMMANDS,
};

const TOY_COMMANDS: FamilyCommands<any, ToyReport> = {
  costOptions: [],
  environmentOptions: [],
  cost: (scenario: ToyScenario) => ({
    scenario: scenario.name,
    region: scenario.env.region,
    title: `${scenario.size} workers`,
    sections: [
      {
        category: 'Toy',
        title: 'Workers',
        headers: ['Item', 'Estimate', 'Price', 'Cost/day'],
        lines: [{ cells: ['worker', `${scenario.size}`, '$1.00/day', `$${scenario.size}.00`], usdPerDay: scenario.size }],
        subtotal: scenario.size,
      },
    ],
    total: scenario.size,
    variants: [],
    pricesAsOf: { oldest: '2026-01-01', newest: '2026-01-01' },
    notes: [],
  }),
  loadFromReport: (_report, _scenario, _path, given) => given,
  checkCostInputs() {},

  reportOptions: [],
  checkReportOptions() {},
  deployedForReport: async () => ({}),
  async report({ scenario, window }, catalog, points) {
    const ctx = new SeriesContext(catalog, points, window);
    const report: ToyReport = {
      family: 'toy',
      ...reportBase(scenario, ctx),
      metrics: { published: ctx.total('published') },
      coverage: ctx.coverage,
      missing: ctx.missing(),
      proposal: { status: 'unjudged', says: 'a toy proposes nothing', evidence: [], caveats: [] },
    };
    return { report, charts: () => [] };
  },
  renderReport: (report) => [...heading('Toy report', report), `Messages published: ${num(report.metrics.published, 0)}.`, ''],
  noDataHint: () => '',
  compareReports: () => [],
  addProposed() {},

  checkSwitch() {},
  lifelongSettings: () => [],
  switchNotes: (from: ToyScenario, to: ToyScenario) => ({ notes: [`Workers: ${from.size} -> ${to.size}.`, ''] }),

  images: () => [],
  preflightChecks: async () => [],
  campaignRow: () => ({ cells: { Figure: '-' }, figures: {} }),
  hibernatedNow: async () => undefined,
  environment: async ({ scenario }) => ({ lines: [`${scenario.stackName}: a toy is always awake`] }),
};
