import type { Scenario } from '../../../config';
import type { CatalogInput } from '../../../config/catalog-schema';
import type { LadderConfig } from '../../../config/observability-schema';
import type { MetricCatalog } from '../../platform/contract/metrics';
import type { Deployed } from '../../platform/family';
import type { AwsClients, AwsTarget } from '../aws/clients';
import type { CommandIO } from '../shared/cli';
import type { Chart } from './charts';
import type { Points } from './fetch';
import type { ReportBase } from './summarize';
import type { ReportWindow } from './window';

/** The report command's options, as given, by their names in camelCase (the family checks the ones it reads). */
type ReportInputs = Readonly<Record<string, string | undefined>>;

/** What the report command gives a family to read beyond CloudWatch. */
export interface ReportReading<S> {
  readonly scenario: S;
  readonly options: ReportInputs;
  readonly aws: AwsClients;
  readonly target: AwsTarget;
  readonly window: ReportWindow;
  readonly io: CommandIO;
  readonly now?: Date;
}

/** A family's figures for one window: the report, and any charts beyond the catalog's. */
interface FamilyFigures<R extends ReportBase> {
  readonly report: R;
  readonly charts: (subtitle: string) => Chart[];
}

/** `report` (and `plan --proposal`): what it asks of a family. */
export interface FamilyReport<S extends Scenario, R extends ReportBase> {
  /** The options only this family takes (checked before anything is read). */
  readonly reportOptions: readonly string[];
  checkReportOptions(scenario: S, options: ReportInputs): void;
  /** `report --run`: the rules a ladder record of the scenario is judged by (config's); none where the family runs no ladder. */
  ladderRules?(scenario: S): LadderConfig['held'];
  /** What the catalog needs from the deploy (read from the stack's outputs when not given). */
  deployedForReport(r: ReportReading<S>): Promise<Deployed>;
  /** Reads what the family reports beyond CloudWatch (the servers' metrics, RDS events), then the window's figures. */
  report(r: ReportReading<S>, catalog: MetricCatalog, points: ReadonlyMap<string, Points>): Promise<FamilyFigures<R>>;
  /** The report's body in markdown: its heading first (4 lines), then its sections. */
  renderReport(report: R): string[];
  /** What to check when a window has no data at all. */
  noDataHint(report: R): string;
  /** `report --compare`: tables beyond the metric-by-metric one. */
  compareReports(a: R, b: R, names: readonly [string, string]): string[];
  /** `plan --proposal`: the proposed scenario added to a copy of the catalog. */
  addProposed(catalog: CatalogInput, next: { readonly name: string }): void;
}
