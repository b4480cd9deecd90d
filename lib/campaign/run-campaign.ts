import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG, ConfigError } from '../../config';
import { isCampaignFile, readCampaignFile } from '../../config/campaign-file';
import { type Campaign, type CampaignInput, resolveCampaign } from '../../config/campaign-schema';
import { CAMPAIGNS } from '../../config/campaigns';
import type { CatalogInput } from '../../config/catalog-schema';
import { loadPrices } from '../../config/prices';
import { costOf, familyOf, resolveScenario } from '../families';
import { planTransition } from '../commands/plan/transition-plan';
import { prometheusUrl } from '../commands/shared/option-values';
import { readReport } from '../commands/shared/report-file';
import { readRunRecord } from '../commands/shared/run-record';
import { type CommandDeps, type CommandIO, type CommandOutput, processIO } from '../commands/shared/cli';
import { durationOption, WAIT_BOUNDS } from '../commands/shared/option-values';
import { writableDir, writeOutput } from '../commands/shared/files';
import { plural } from '../commands/shared/figure';
import { awsCampaignActions, proposedTarget } from './campaign-actions';
import { projectCampaign, type ProjectionDeps, renderProjection } from './campaign-plan';
import { type CampaignRecord, fingerprint, judgeRecord, readRecord } from './campaign-record';
import { renderCampaignReport, type ReportedStep } from './campaign-report';
import { type CampaignActions, recordPath, runCampaign } from './campaign-run';
import { campaignToolkit, type DeployToolkit } from './toolkit-deploy';

/*
 * `npm run campaign -- <plan|run|report> <campaign>`: a campaign's projection, its unattended run
 * (resumed from its record when there is one), and its report.
 */

export type CampaignCommand = 'plan' | 'run' | 'report';

/** How often a run's waits poll unless --interval says. */
const DEFAULT_INTERVAL = '15s';

export interface CampaignOptions {
  readonly envName?: string;
  readonly endpointUrl?: string;
  /** How often waits poll (run only; default 15s). */
  readonly interval?: string;
  /** The record's directory (default reports/campaigns/<campaign>). */
  readonly out?: string;
  /** The Prometheus each Temporal step's report reads (report's --prometheus-url). */
  readonly prometheusUrl?: string;
}

export interface CampaignCommandDeps extends CommandDeps {
  /** The campaigns to choose from (config's). */
  readonly campaigns?: readonly CampaignInput[];
  readonly catalog?: CatalogInput;
  /** What the stages do (AWS's by default). */
  readonly actions?: CampaignActions;
  readonly toolkit?: () => Promise<DeployToolkit>;
  readonly now?: () => Date;
  readonly sleep?: (ms: number) => Promise<void>;
  /** plan: each switch in a line (planTransition's, synthesizing both scenarios, by default). */
  readonly switchLine?: (from: string, to: string) => string;
}

const projectionDeps = (o: CampaignOptions): ProjectionDeps => ({
  resolve: (name, catalog) => resolveScenario({ scenario: name, ...(o.envName ? { envName: o.envName } : {}) }, catalog),
  usdPerDay: (scenario) => costOf(scenario, loadPrices(scenario.env.region)).total,
});

/** A switch in a line, from plan: what changes, what moves, and whether it is safe. */
function planLine(from: string, to: string): string {
  const plan = planTransition(from, to);
  const changes = plan.stacks.reduce((n, s) => n + s.changes.length, 0);
  const moves = plan.notes.moves?.count ? `; moves ${plural(plan.notes.moves.count, 'module')}` : '';
  return plan.unsafe.length ? `UNSAFE: replaces ${plural(plan.unsafe.length, 'stateful resource')}` : `${plural(changes, 'change')}${moves}`;
}

/** The reported steps of a record: each step's scenario (a followed proposal's through its report chain), report and cost. */
function reportedSteps(record: CampaignRecord, catalog: CatalogInput, o: CampaignOptions): ReportedStep[] {
  const deps = projectionDeps(o);
  const catalogs: CatalogInput[] = [];
  const steps: ReportedStep[] = [];
  record.steps.forEach((s, i) => {
    let stepCatalog = catalog;
    if (s.proposedBy) {
      const next = proposedTarget(s.proposedBy, catalogs[i - 1] ?? catalog);
      if ('none' in next) throw new ConfigError(`${s.proposedBy} no longer proposes ${s.scenario}: ${next.none}`);
      stepCatalog = next.catalog;
    }
    catalogs.push(stepCatalog);
    if (!s.report) return;
    const scenario = deps.resolve(s.scenario, stepCatalog);
    const report = readReport(s.report, `step ${i + 1}'s report`);
    // Another step's (or another family's) report would be drawn as this step's, or fail to be.
    if (report.scenario !== s.scenario)
      throw new ConfigError(
        `step ${i + 1}'s report ${s.report} is ${report.scenario}'s, not ${s.scenario}'s (valid: the report.json that step's report stage wrote)`,
      );
    steps.push({
      step: i,
      scenario,
      report,
      estimate: costOf(scenario, loadPrices(scenario.env.region)),
      ...(s.load?.runRecord ? { run: readRunRecord(s.load.runRecord) } : {}),
    });
  });
  return steps;
}

/** Writes the campaign report beside the record; returns its markdown. */
function writeCampaignReport(dir: string, record: CampaignRecord, c: Campaign, catalog: CatalogInput, o: CampaignOptions, io: CommandIO): string {
  const { markdown, charts } = renderCampaignReport(record, c.title, reportedSteps(record, catalog, o));
  for (const chart of charts) writeOutput(join(dir, 'charts', chart.file), chart.svg);
  writeOutput(join(dir, 'report.md'), markdown);
  io.note(`wrote ${join(dir, 'report.md')} and ${plural(charts.length, 'chart')}`);
  return markdown;
}

export async function runCampaignCommand(command: CampaignCommand, name: string, o: CampaignOptions, deps: CampaignCommandDeps = {}): Promise<CommandOutput> {
  const campaigns = deps.campaigns ?? CAMPAIGNS;
  const catalog = deps.catalog ?? CATALOG;
  // A campaign is named (config/campaigns.ts) or given as the path of a file of the user's own.
  const { campaign, definition } = isCampaignFile(name)
    ? readCampaignFile(name, catalog)
    : { campaign: resolveCampaign(name, campaigns, catalog), definition: campaigns.find((c) => c.name === name)! };
  // plan and report touch no environment: an option only run reads would be taken and ignored.
  const runOnly = Object.entries({ '--endpoint-url': o.endpointUrl, '--interval': o.interval, '--prometheus-url': o.prometheusUrl }).find(
    ([, v]) => v !== undefined,
  );
  if (command !== 'run' && runOnly)
    throw new ConfigError(`${runOnly[0]} applies to campaign run only; ${command} calls no AWS API (valid: ${command} without it)`);
  const interval = o.interval ?? DEFAULT_INTERVAL;
  durationOption('--interval', interval, 1, WAIT_BOUNDS.interval);
  if (o.prometheusUrl !== undefined) {
    prometheusUrl(o.prometheusUrl);
    if (!familyOf(campaign).reportOptions.includes('--prometheus-url'))
      throw new ConfigError(
        `--prometheus-url does not apply to campaign ${campaign.name}: its steps are ${campaign.family} scenarios, whose reports read CloudWatch only`,
      );
  }
  const dir = o.out ?? join('reports', 'campaigns', campaign.name);
  // plan only reads the record; run and report write beside it.
  if (command !== 'plan') writableDir('--out', dir);
  else if (existsSync(dir) && !statSync(dir).isDirectory()) throw new ConfigError(`--out "${dir}": not a directory (valid: the campaign's record directory)`);
  const existing = readRecord(recordPath(dir));
  // plan projects from it and report renders it: judged as run judges it before resuming.
  if (existing && command !== 'run') judgeRecord(existing, campaign, definition, recordPath(dir));
  const io = deps.io ?? processIO();
  const project = (record: CampaignRecord | undefined) => projectCampaign(campaign, record, projectionDeps(o));

  switch (command) {
    case 'plan': {
      const line = deps.switchLine ?? planLine;
      const names = project(existing).steps.map((s) => s.scenario);
      // A switch is planned between scenarios config holds; a proposal's is planned when it is followed.
      const switches = names.map((to, i) =>
        i === 0 ? 'the first deploy' : campaign.steps.some((s) => 'scenario' in s && s.scenario === to) && names[i - 1] !== to ? line(names[i - 1], to) : '',
      );
      return { stdout: renderProjection(campaign, project(existing), switches) };
    }
    case 'report': {
      if (!existing)
        throw new ConfigError(
          `no record at ${recordPath(dir)}: campaign ${campaign.name} has not run there (valid: npm run campaign -- run ${name}, or the --out it ran with)`,
        );
      return { stdout: writeCampaignReport(dir, existing, campaign, catalog, o, io) };
    }
    case 'run': {
      const actions =
        deps.actions ??
        awsCampaignActions(
          { envName: o.envName, endpointUrl: o.endpointUrl, interval, prometheusUrl: o.prometheusUrl },
          {
            io,
            aws: deps.aws,
            toolkit: deps.toolkit ?? (() => campaignToolkit(io, o.endpointUrl)),
            sleep: deps.sleep,
            now: deps.now,
          },
        );
      try {
        const record = await runCampaign({ campaign, definition, actions, dir, existing, project, io, now: deps.now ?? (() => new Date()), catalog });
        return { stdout: writeCampaignReport(dir, record, campaign, catalog, o, io) };
      } catch (e) {
        // A refusal (the lock held, a record of another definition) ran nothing and writes nothing.
        if (e instanceof ConfigError) throw e;
        // What ran is reported whatever stopped it (the record says where), if the record is this campaign's.
        const record = readRecord(recordPath(dir));
        if (record?.campaign === campaign.name && record.definition === fingerprint(definition)) writeCampaignReport(dir, record, campaign, catalog, o, io);
        throw e;
      }
    }
  }
}
