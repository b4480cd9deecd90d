import { join } from 'node:path';
import { ConfigError } from '../../../config';
import { familyNames, familyOf } from '../../families';
import type { Family } from '../../family-contract';
import type { MetricSeries } from '../../platform/contract/metrics';
import { loadAwsClients } from '../aws/load-clients';
import { CommandFailure, type CommandDeps, type CommandOutput, EXIT_NO_DATA, processIO } from '../shared/cli';
import { shownPath, writableDir, writeOutput } from '../shared/files';
import { readReport } from '../shared/report-file';
import { runScenario } from '../shared/run-record';
import { resolveTarget, type TargetOptions } from '../shared/target';
import { compareReports, metricDeltas } from './compare-reports';
import { renderMarkdown } from './render-report';
import { reportWindow, type WindowOptions } from './window';

/*
 * `npm run report`: check the arguments, read the window's CloudWatch metrics (and what the
 * family reads beyond them: Temporal's servers' Prometheus series, a FOLIO offload cluster's
 * resume events and waits), write report.md, report.json and the charts, and return the markdown. Or compare
 * two finished reports.
 */

/** The window's options (--start, --end, --last, --run, --period, --workflows), and the rest. */
export interface ReportOptions extends WindowOptions, Pick<TargetOptions, 'catalog'> {
  readonly scenario?: string;
  readonly envName?: string;
  readonly dsqlClusterId?: string;
  readonly out?: string;
  readonly endpointUrl?: string;
  readonly prometheusUrl?: string;
  readonly compare?: readonly string[];
  /** Print report.json (or, with --compare, the deltas) instead of the markdown. */
  readonly json?: boolean;
}

export interface ReportDeps extends CommandDeps {
  /** The end of a --last window. */
  readonly now?: Date;
}

function compare(o: ReportOptions): CommandOutput {
  if (o.compare!.length !== 2) throw new ConfigError(`--compare takes two report files, got ${o.compare!.length}; valid: --compare <a.json> <b.json>`);
  const others = Object.entries(o)
    .filter(([k, v]) => k !== 'compare' && k !== 'json' && v !== undefined)
    .map(([k]) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
  if (others.length)
    throw new ConfigError(
      `--compare cannot be combined with ${others.join(', ')}: it reads two finished reports (valid: --compare <a.json> <b.json>, alone or with --json)`,
    );
  const [a, b] = o.compare!;
  const [ra, rb] = [readReport(a), readReport(b)];
  if (o.json) return { stdout: `${JSON.stringify({ a, b, metrics: metricDeltas(ra, rb, [a, b]) }, null, 2)}\n` };
  return { stdout: compareReports(ra, rb, [a, b]) };
}

/** Refuses an option of another family's report, naming the family that takes it. */
function checkFamilyOptions(o: ReportOptions, name: string, family: Family): void {
  const given: Readonly<Record<string, unknown>> = { ...o };
  for (const other of familyNames().map((n) => familyOf({ family: n }))) {
    const flag = other.reportOptions.find((f) => given[optionKey(f)] !== undefined && !family.reportOptions.includes(f));
    if (flag)
      throw new ConfigError(
        `${flag} does not apply to ${name} (a ${family.kind}${family.reportOptions.length ? `; valid here: ${family.reportOptions.join(', ')}` : `: ${flag} is a ${other.kind}'s option`})`,
      );
  }
}

/** An option's name as commander gives it: --dsql-cluster-id is dsqlClusterId. */
const optionKey = (flag: string): string => flag.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** What a family reads of the options: its own (by their names in camelCase) and --endpoint-url. */
function familyInputs(o: ReportOptions, flags: readonly string[]): Readonly<Record<string, string | undefined>> {
  const given: Readonly<Record<string, unknown>> = { ...o };
  return Object.fromEntries(['--endpoint-url', ...flags].map(optionKey).map((k) => [k, given[k] === undefined ? undefined : String(given[k])]));
}

export async function runReport(o: ReportOptions, deps: ReportDeps = {}): Promise<CommandOutput> {
  if (o.compare) return compare(o);
  const io = deps.io ?? processIO();
  // A run record names its scenario; --scenario, when given as well, must agree (reportWindow checks).
  const name = o.scenario ?? (o.run !== undefined ? runScenario(o.run) : undefined);
  if (!name) throw new ConfigError('no scenario given: pass --scenario <name>, --run <file> (which names it) or --compare <a.json> <b.json>');
  const { scenario, aws: target } = resolveTarget(o, name);
  const family = familyOf(scenario);
  checkFamilyOptions(o, scenario.name, family);
  const options = familyInputs(o, family.reportOptions);
  family.checkReportOptions(scenario, options);
  const window = reportWindow(o, scenario.name, deps.now, family.ladderRules?.(scenario));
  // Where the report goes is checked before anything is fetched.
  const out = writableDir('--out', o.out ?? join('reports', `${scenario.name}-${window.start.toISOString().replace(/[-:]|\.\d+/g, '')}`));

  // Loaded once the arguments are valid: the SDK clients and echarts are most of the start-up.
  const aws = (deps.aws ?? loadAwsClients)();
  const { fetchMetrics } = require('./fetch') as typeof import('./fetch');
  const { renderCharts, renderGeneratorCharts } = require('./charts') as typeof import('./charts');
  const reading = { scenario, options, aws, target, window, io, now: deps.now };
  const catalog = family.metricCatalog(scenario, await family.deployedForReport(reading));
  const metrics = catalog.series.filter((s): s is MetricSeries => s.kind === 'metric');

  const { points, messages } = await fetchMetrics(aws.cloudWatch(target), metrics, window, (p) =>
    io.status.update(`GetMetricData: ${p.series} series, batch ${p.batch}/${p.batches}, page ${p.page}`),
  );
  io.status.done();
  for (const m of messages) io.note(`note: CloudWatch: ${m}`);

  const { report, charts: familyCharts } = await family.report(reading, catalog, points);

  // Said once, beside the report: a hibernated environment publishes nothing from then on.
  const hibernated = await family.hibernatedNow(aws, target, scenario);
  if (hibernated) io.note(`note: ${hibernated}`);

  const subtitle = `${scenario.name}, ${report.window.start} to ${report.window.end}`;
  const charts = [
    ...renderCharts(catalog, points, window, subtitle),
    ...(window.generatorSeries ? renderGeneratorCharts(window.generatorSeries, window, subtitle) : []),
    ...familyCharts(subtitle),
  ];
  for (const c of charts) writeOutput(join(out, 'charts', c.file), c.svg);
  const markdown = renderMarkdown(
    report,
    charts.map((c) => ({ file: `charts/${c.file}`, title: c.title })),
  );
  writeOutput(join(out, 'report.md'), markdown);
  writeOutput(join(out, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  io.note(`wrote ${shownPath(join(out, 'report.md'))}, report.json and ${charts.length} charts`);
  const empty = report.missing.length === Object.keys(report.coverage).length;
  return {
    stdout: o.json ? `${JSON.stringify(report, null, 2)}\n` : markdown,
    ...(empty && {
      failure: new CommandFailure(
        hibernated
          ? `no datapoint at all in ${report.window.start} to ${report.window.end} for ${scenario.name}: ${hibernated}; a window from before it hibernated has data`
          : `no datapoint at all in ${report.window.start} to ${report.window.end} for ${scenario.name} in ${scenario.env.region}: check the window, the region and --env-name, or whether anything ran`,
        EXIT_NO_DATA,
      ),
    }),
  };
}
