import { join } from 'node:path';
import { ConfigError, resolveScenario } from '../../../config';
import { durationSeconds } from '../../../config/fields';
import { type MetricSeries, catalogFor } from '../../contract/metrics';
import { writerInstanceIdentifier } from '../../contract/physical-names';
import { TEMPORAL_OUTPUTS } from '../../contract/stack-outputs';
import { hibernatedNow } from '../aws/environment-state';
import { loadAwsClients } from '../aws/load-clients';
import { stackOutput } from '../aws/read-stack-outputs';
import { CommandFailure, type CommandDeps, type CommandOutput, EXIT_NO_DATA, processIO } from '../shared/cli';
import { shownPath, writableDir, writeOutput } from '../shared/files';
import { readReport } from '../shared/report-file';
import { runScenario } from '../shared/run-record';
import { compareReports } from './compare-reports';
import { renderMarkdown } from './render-report';
import type { ResumeReading } from './resumes';
import { firstFailedWindow } from './ladder-view';
import type { ServerView } from './server-view';
import type { WaitReading } from './wait-events';
import { summarize } from './summarize';
import { reportWindow, type WindowOptions } from './window';

/*
 * `npm run report`: check the arguments, read the window's CloudWatch metrics (and, for
 * Temporal, the servers' Prometheus series; for a pausing Serverless v2 cluster, its resume
 * events), write report.md, report.json and the charts, and return the markdown. Or compare
 * two finished reports.
 */

/** The window's options (--start, --end, --last, --run, --period, --workflows), and the rest. */
export interface ReportOptions extends WindowOptions {
  readonly scenario?: string;
  readonly envName?: string;
  readonly dsqlClusterId?: string;
  readonly out?: string;
  readonly endpointUrl?: string;
  readonly prometheusUrl?: string;
  readonly compare?: readonly string[];
}

export interface ReportDeps extends CommandDeps {
  /** The end of a --last window. */
  readonly now?: Date;
}

/** --prometheus-url: an http(s) URL, checked before anything runs. */
function prometheusUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`--prometheus-url "${text}" is not a URL (valid: http(s)://host[:port][/path], e.g. http://127.0.0.1:9090)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`--prometheus-url "${text}" is not http or https (valid: http(s)://host[:port][/path])`);
  return text.replace(/\/$/, '');
}

function compare(o: ReportOptions): CommandOutput {
  if (o.compare!.length !== 2) throw new ConfigError(`--compare takes two report files, got ${o.compare!.length}; valid: --compare <a.json> <b.json>`);
  const others = Object.entries(o)
    .filter(([k, v]) => k !== 'compare' && v !== undefined)
    .map(([k]) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
  if (others.length)
    throw new ConfigError(`--compare cannot be combined with ${others.join(', ')}: it reads two finished reports (valid: --compare <a.json> <b.json> alone)`);
  const [a, b] = o.compare!;
  return { stdout: compareReports(readReport(a), readReport(b), [a, b]) };
}

export async function runReport(o: ReportOptions, deps: ReportDeps = {}): Promise<CommandOutput> {
  if (o.compare) return compare(o);
  const io = deps.io ?? processIO();
  // A run record names its scenario; --scenario, when given as well, must agree (reportWindow checks).
  const name = o.scenario ?? (o.run !== undefined ? runScenario(o.run) : undefined);
  if (!name) throw new ConfigError('no scenario given: pass --scenario <name>, --run <file> (which names it) or --compare <a.json> <b.json>');
  const scenario = resolveScenario({ scenario: name, envName: o.envName }, undefined, '--scenario');
  if (scenario.family === 'folio') {
    const temporalOnly = Object.entries({ '--workflows': o.workflows, '--dsql-cluster-id': o.dsqlClusterId, '--prometheus-url': o.prometheusUrl }).find(
      ([, v]) => v !== undefined,
    );
    if (temporalOnly)
      throw new ConfigError(`${temporalOnly[0]} does not apply to ${scenario.name} (a FOLIO phase: it runs no workflows and has no DSQL cluster)`);
  }
  if (scenario.family === 'temporal' && scenario.preset.store.engine !== 'dsql' && o.dsqlClusterId !== undefined)
    throw new ConfigError(`--dsql-cluster-id does not apply to ${scenario.name} (its history is in ${scenario.preset.store.engine}; valid: a DSQL preset)`);
  const promUrl = o.prometheusUrl === undefined ? undefined : prometheusUrl(o.prometheusUrl);
  const window = reportWindow(o, scenario.name, deps.now);
  const target = { region: scenario.env.region, endpoint: o.endpointUrl };
  // Where the report goes is checked before anything is fetched.
  const out = writableDir('--out', o.out ?? join('reports', `${scenario.name}-${window.start.toISOString().replace(/[-:]|\.\d+/g, '')}`));

  // Loaded once the arguments are valid: the SDK clients and echarts are most of the start-up.
  const aws = (deps.aws ?? loadAwsClients)();
  const { fetchMetrics } = require('./fetch') as typeof import('./fetch');
  const { renderCharts, renderGeneratorCharts, renderLadderCharts, renderServerCharts } = require('./charts') as typeof import('./charts');
  let dsqlClusterId = o.dsqlClusterId;
  // The Aurora store's metrics are named by its configured cluster identifier: nothing to look up.
  if (scenario.family === 'temporal' && scenario.preset.store.engine === 'dsql' && dsqlClusterId === undefined)
    dsqlClusterId = await stackOutput(aws.cloudFormation(target), scenario.stackName, TEMPORAL_OUTPUTS.dsqlClusterId, '--dsql-cluster-id <id>');
  const catalog = catalogFor(scenario, { dsqlClusterId });
  const metrics = catalog.series.filter((s): s is MetricSeries => s.kind === 'metric');

  const { points, messages } = await fetchMetrics(aws.cloudWatch(target), metrics, window, (p) =>
    io.status.update(`GetMetricData: ${p.series} series, batch ${p.batch}/${p.batches}, page ${p.page}`),
  );
  io.status.done();
  for (const m of messages) io.note(`note: CloudWatch: ${m}`);

  let server: ServerView | undefined;
  let failedStep: ServerView | undefined;
  if (scenario.family === 'temporal') {
    const { PrometheusReader, workspaceEndpoint, isLoopback } = require('./prometheus-reader') as typeof import('./prometheus-reader');
    const { readServerView, unreadServer } = require('./server-view') as typeof import('./server-view');
    const scrapeSeconds = durationSeconds(scenario.environment.observability.prometheus.scrapeInterval);
    if (promUrl === undefined && o.endpointUrl !== undefined) {
      server = unreadServer(
        scenario,
        o.endpointUrl,
        '--endpoint-url points the AWS calls at an emulator, which serves no Prometheus query API (pass --prometheus-url)',
      );
    } else {
      const endpoint = promUrl
        ? { url: promUrl, region: isLoopback(promUrl) ? undefined : scenario.env.region }
        : workspaceEndpoint(
            scenario.env.region,
            await stackOutput(aws.cloudFormation(target), scenario.stackName, TEMPORAL_OUTPUTS.prometheusWorkspaceId, '--prometheus-url <url>'),
          );
      io.status.update(`Prometheus: query_range at ${endpoint.url}`);
      const reader = new PrometheusReader(endpoint);
      server = (await readServerView(scenario, reader, window, scrapeSeconds)).view;
      // A ladder: the servers' metrics over its first failing step alone, where it was held back.
      const failed = window.ladder && firstFailedWindow(window.ladder);
      if (failed) failedStep = (await readServerView(scenario, reader, failed, scrapeSeconds)).view;
      io.status.done();
    }
    if (server.unread) io.note(`note: Prometheus: not read: ${server.unread}`);
  }

  // A Serverless v2 offload cluster that pauses: when it resumed, and how long that took.
  let resumes: ResumeReading | undefined;
  if (scenario.family === 'folio' && scenario.phase.offload.serverless?.min === 0) {
    const { readResumes } = require('./resumes') as typeof import('./resumes');
    resumes = await readResumes(aws.rds(target), writerInstanceIdentifier(scenario.environment.names.offloadCluster), window);
    if (resumes.unread) io.note(`note: RDS events: not read: ${resumes.unread}`);
  }

  // Where the offload writer's load waited: Performance Insights, which an emulator does not serve.
  let waits: WaitReading | undefined;
  if (scenario.family === 'folio') {
    if (o.endpointUrl !== undefined)
      waits = { offload: null, unread: '--endpoint-url points the AWS calls at an emulator, which serves no Performance Insights API' };
    else {
      const { readWaitEvents } = require('./wait-events') as typeof import('./wait-events');
      waits = await readWaitEvents(aws.rds(target), aws.pi(target), writerInstanceIdentifier(scenario.environment.names.offloadCluster), window, deps.now);
    }
    if (waits.unread) io.note(`note: Performance Insights: not read: ${waits.unread}`);
  }

  // Said once, beside the report: a hibernated environment publishes nothing from then on.
  const hibernated = await hibernatedNow(aws, target, scenario);
  if (hibernated) io.note(`note: ${hibernated}`);

  const report = summarize(scenario, catalog, points, window, server, resumes, waits, failedStep);
  const subtitle = `${scenario.name}, ${report.window.start} to ${report.window.end}`;
  const charts = [
    ...renderCharts(catalog, points, window, subtitle),
    ...(window.generatorSeries ? renderGeneratorCharts(window.generatorSeries, window, subtitle) : []),
    ...(server && !server.unread ? renderServerCharts(server, window, subtitle) : []),
    ...(report.family === 'temporal' && report.ladder ? renderLadderCharts(report.ladder, subtitle) : []),
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
    stdout: markdown,
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
