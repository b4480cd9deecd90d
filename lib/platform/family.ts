import type { App, Stack } from 'aws-cdk-lib/core';
import type { ImageRef, Scenario } from '../../config';
import type { CampaignLoad } from '../../config/campaign-schema';
import type { CatalogInput } from '../../config/catalog-schema';
import type { PriceFile } from '../../config/prices';
import type { LadderConfig } from '../../config/observability-schema';
import type { MetricCatalog } from './contract/metrics';
import type { AwsClients, AwsTarget } from '../commands/aws/clients';
import type { CommandIO } from '../commands/shared/cli';
import type { CostEstimate, CostInputs } from '../commands/shared/cost-model';
import type { Points } from '../commands/report/fetch';
import type { ReportBase } from '../commands/report/summarize';
import type { ReportWindow } from '../commands/report/window';
import type { Chart } from '../commands/report/charts';
import type { PreflightCheck, PreflightClients } from '../commands/preflight/preflight-checks';
import type { Waiting } from '../commands/shared/waiting';
import type { BenchRun } from '../commands/shared/run-record';
import type { LifelongSetting } from '../commands/shared/lifelong';

/*
 * What a family of scenarios (FOLIO's phases, Temporal's presets) gives the machinery every
 * family shares: its stacks, its metric catalog, its cost lines, its report, what a switch
 * between two of its scenarios means. lib/families.ts keys one of these by `scenario.family`;
 * no other module asks which family it has.
 */

/** What only a deploy knows, read back from the data stack for the dashboards and the report. */
export interface Deployed {
  /** The DSQL cluster's id, for the AWS/AuroraDSQL dimension. */
  readonly dsqlClusterId?: string;
}

/** The report command's options, as given (the family checks the ones it reads). */
interface ReportInputs {
  readonly dsqlClusterId?: string;
  readonly prometheusUrl?: string;
  readonly endpointUrl?: string;
  readonly workflows?: string;
}

/** What the report command gives a family to read beyond CloudWatch. */
interface ReportReading<S> {
  readonly scenario: S;
  readonly options: ReportInputs;
  readonly aws: AwsClients;
  readonly target: AwsTarget;
  readonly window: ReportWindow;
  readonly io: CommandIO;
  readonly now?: Date;
}

/** A family's figures for one window: the report, and any charts beyond the catalog's. */
interface FamilyReport<R extends ReportBase> {
  readonly report: R;
  readonly charts: (subtitle: string) => Chart[];
}

export type EnvironmentCommand = 'hibernate' | 'wake' | 'status';

export interface EnvironmentRun<S> {
  readonly command: EnvironmentCommand;
  readonly scenario: S;
  readonly aws: AwsClients;
  readonly target: AwsTarget;
  readonly waiting: Waiting;
  readonly io: CommandIO;
  /** hibernate: even while a load generator runs. */
  readonly force?: boolean;
}

/** What `hibernate`, `wake` or `environment status` prints; status also as data, for `--json`. */
export interface EnvironmentOutput {
  readonly lines: readonly string[];
  readonly status?: object;
}

/** A step's row in the campaign report (lib/campaign), by column, in order; and the figures its charts draw, by chart title with its unit. */
export interface CampaignRow {
  readonly cells: Readonly<Record<string, string>>;
  readonly figures: Readonly<Record<string, number | null>>;
  /** Figures also drawn against another, a point per step: `ys` (by figure title) against `x`. */
  readonly against?: { readonly x: string; readonly ys: readonly string[] };
}

/** What `plan` says about a switch beyond its resources. */
export interface SwitchNotes {
  /** Printed before the cost lines. */
  readonly notes: readonly string[];
  /** What must move before the deploy: as `plan --json` gives it, and as markdown. */
  readonly moves?: { readonly count: number; readonly json: unknown; readonly markdown: readonly string[] };
}

/**
 * One family. Methods, not function-valued fields: a family of `FolioScenario` is a family of
 * `Scenario` to the registry, which only ever hands it its own.
 */
export interface Family<S extends Scenario = Scenario, R extends ReportBase = ReportBase> {
  readonly name: S['family'];
  /** One of its scenarios, in words: "FOLIO phase". */
  readonly kind: string;
  /** What one of its scenarios is called: "phase". */
  readonly noun: string;
  /** The data stack's output that names the scenario deployed ("Phase"): what a campaign checks before it resumes. */
  readonly scenarioOutput: string;
  /** Where its scenarios are written: "config/folio-phases.ts". */
  readonly scenarioFile: string;
  /** Scenarios config does not hold (a test's family): their names, and how each is resolved. */
  readonly ownScenarios?: { names(): readonly string[]; resolve(context: Record<string, unknown>, option?: string): S };

  /** Its data stack; the observability stack is added beside it from `metricCatalog`. */
  addDataStack(app: App, scenario: S): { readonly stack: Stack; readonly deployed: Deployed };
  metricCatalog(scenario: S, deployed: Deployed): MetricCatalog;
  /** The dashboard's first line: which scenario the graphs belong to. */
  dashboardHeader(scenario: S): string;
  /** A scenario's title, from its fields. */
  title(scenario: S): string;

  /** `cost`: the options only this family takes, and its daily cost. */
  readonly costOptions: readonly string[];
  cost(scenario: S, prices: PriceFile, inputs: CostInputs): CostEstimate;
  /** `cost --report`: the load a report of this family measured, as cost inputs. */
  loadFromReport(report: R, scenario: S, path: string, given: CostInputs): CostInputs;
  /** `cost`: refuses inputs that do not fit the scenario (one line). */
  checkCostInputs(scenario: S, inputs: CostInputs, from: string): void;

  /** `report`: the options only this family takes (checked before anything is read). */
  readonly reportOptions: readonly string[];
  checkReportOptions(scenario: S, options: ReportInputs): void;
  /** `report --run`: the rules a ladder record of the scenario is judged by (config's); none where the family runs no ladder. */
  ladderRules?(scenario: S): LadderConfig['held'];
  /** What the catalog needs from the deploy (read from the stack's outputs when not given). */
  deployedForReport(r: ReportReading<S>): Promise<Deployed>;
  /** Reads what the family reports beyond CloudWatch (the servers' metrics, RDS events), then the window's figures. */
  report(r: ReportReading<S>, catalog: MetricCatalog, points: ReadonlyMap<string, Points>): Promise<FamilyReport<R>>;
  /** The report's body in markdown: its heading first (4 lines), then its sections. */
  renderReport(report: R): string[];
  /** What to check when a window has no data at all. */
  noDataHint(report: R): string;
  /** `report --compare`: tables beyond the metric-by-metric one. */
  compareReports(a: R, b: R, names: readonly [string, string]): string[];
  /** `plan --proposal`: the proposed scenario added to a copy of the catalog. */
  addProposed(catalog: CatalogInput, next: { readonly name: string }): void;

  /** `plan`: refuses a switch no deploy may make (one line), before anything is synthesized. */
  checkSwitch(from: S, to: S): void;
  /** What a deployed environment keeps for life, each recorded by a data stack output: compared before a deploy (lib/commands/shared/lifelong.ts). */
  lifelongSettings(scenario: S): readonly LifelongSetting[];
  /** `plan`: what a switch means beyond the templates: settings to know, and data to move before the deploy. */
  switchNotes(from: S, to: S): SwitchNotes;

  /** `preflight`: the images its stacks run, by where config names them, and its own checks. */
  images(scenario: S): [string, ImageRef][];
  preflightChecks(clients: PreflightClients): Promise<PreflightCheck[]>;

  /** `campaign plan`: how long one of the family's own loads (bench's run or ladder) runs at most, in hours; undefined for a load it does not run. */
  loadHours?(load: CampaignLoad, scenario: S): number | undefined;
  /** `campaign`: one step's row of the campaign report (its columns after the step and the scenario). */
  campaignRow(report: R, scenario: S, estimate: CostEstimate, run?: BenchRun): CampaignRow;

  /** A sentence saying the environment is hibernated now, or undefined (awake, or not deployed). */
  hibernatedNow(aws: AwsClients, target: AwsTarget, scenario: S): Promise<string | undefined>;
  /** `hibernate`: the options only this family takes (`--force`, where there is a load generator to stop). */
  readonly environmentOptions: readonly string[];
  /** `hibernate`, `wake`, `environment status`: what to print. */
  environment(run: EnvironmentRun<S>): Promise<EnvironmentOutput>;
}
