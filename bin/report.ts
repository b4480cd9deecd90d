#!/usr/bin/env node
import { join } from 'node:path';
import { ConfigError, resolveScenario } from '../config';
import { CommandFailure, endpointUrl, EXIT_NO_DATA, newCommand, progress, runCommand } from '../lib/commands/shared/cli';
import { shownPath, writableDir, writeOutput } from '../lib/commands/shared/files';
import { type MetricSeries, catalogFor } from '../lib/contract/metrics';
import { TEMPORAL_OUTPUTS } from '../lib/contract/stack-outputs';
import { compareReports } from '../lib/commands/report/compare-reports';
import { readReport } from '../lib/commands/shared/report-file';
import { renderMarkdown } from '../lib/commands/report/render-report';
import { summarize } from '../lib/commands/report/summarize';
import { reportWindow } from '../lib/commands/report/window';
import { runScenario } from '../lib/commands/shared/run-record';
import type { ServerView } from '../lib/commands/report/server-view';
import { durationSeconds } from '../config/fields';

const program = newCommand('report')
  .description(
    'Fetch a scenario\'s CloudWatch metrics over a time window and write the report: markdown tables, JSON and SVG charts.\n' +
      `Or compare two report JSONs. Exits ${EXIT_NO_DATA} when the window holds no datapoint at all (the report, written anyway, says so).`,
  )
  .option('-s, --scenario <name>', 'the scenario the window ran (a FOLIO phase or a Temporal preset; with --run, the record names it)')
  .option('--env-name <name>', 'the envName the stacks were deployed with, if any')
  .option('--start <time>', 'window start, ISO 8601 with a zone (with --end)')
  .option('--end <time>', 'window end, ISO 8601 with a zone (with --start)')
  .option('--last <duration>', 'the window that ends now, e.g. 30m, 2h')
  .option('--run <file>', 'the run record bench run writes: its scenario, window and workflow count')
  .option('--period <duration>', 'time per point, whole minutes: 1m, 5m, 1h (default: the finest CloudWatch keeps for the window)')
  .option('--workflows <count>', 'workflows the run completed (Temporal): gives transactions per workflow')
  .option('--dsql-cluster-id <id>', 'the DSQL cluster id (Temporal; default: the data stack\'s DsqlClusterId output)')
  .option('-o, --out <dir>', 'where to write report.md, report.json and the charts (default: reports/<scenario>-<start>)')
  .option('--endpoint-url <url>', 'an AWS-API-compatible endpoint instead of AWS (a local emulator)', endpointUrl)
  .option('--prometheus-url <url>', "Temporal: a Prometheus-compatible query endpoint instead of the stack's Managed Prometheus workspace (signed with SigV4 unless on loopback)")
  .option('--compare <reports...>', 'compare two report.json files (A then B) and print the deltas')
  .addHelpText(
    'after',
    '\nExamples:\n' +
      '  npm run report -- --scenario test10 --start 2026-01-21T10:00:00Z --end 2026-01-21T12:00:00Z\n' +
      '  npm run report -- --scenario temporal-150wps --run reports/run.json\n' +
      '  npm run report -- --compare reports/test11/report.json reports/test12/report.json',
  );

interface Options {
  scenario?: string;
  envName?: string;
  start?: string;
  end?: string;
  last?: string;
  run?: string;
  period?: string;
  workflows?: string;
  dsqlClusterId?: string;
  out?: string;
  endpointUrl?: string;
  prometheusUrl?: string;
  compare?: string[];
}

/** --prometheus-url: an http(s) URL, checked before anything runs. */
function prometheusUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`--prometheus-url "${text}" is not a URL (valid: http(s)://host[:port][/path], e.g. http://127.0.0.1:9090)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`--prometheus-url "${text}" is not http or https (valid: http(s)://host[:port][/path])`);
  return text.replace(/\/$/, '');
}

async function main(o: Options): Promise<number> {
  if (o.compare) {
    if (o.compare.length !== 2) throw new ConfigError(`--compare takes two report files, got ${o.compare.length}; valid: --compare <a.json> <b.json>`);
    const others = Object.entries(o).filter(([k, v]) => k !== 'compare' && v !== undefined).map(([k]) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    if (others.length) throw new ConfigError(`--compare cannot be combined with ${others.join(', ')}: it reads two finished reports (valid: --compare <a.json> <b.json> alone)`);
    const [a, b] = o.compare;
    process.stdout.write(compareReports(readReport(a), readReport(b), [a, b]));
    return 0;
  }
  // A run record names its scenario; --scenario, when given as well, must agree (reportWindow checks).
  const name = o.scenario ?? (o.run !== undefined ? runScenario(o.run) : undefined);
  if (!name) throw new ConfigError('no scenario given: pass --scenario <name>, --run <file> (which names it) or --compare <a.json> <b.json>');
  const scenario = resolveScenario({ scenario: name, envName: o.envName }, undefined, '--scenario');
  if (scenario.family === 'folio') {
    const temporalOnly = Object.entries({ '--workflows': o.workflows, '--dsql-cluster-id': o.dsqlClusterId, '--prometheus-url': o.prometheusUrl }).find(([, v]) => v !== undefined);
    if (temporalOnly) throw new ConfigError(`${temporalOnly[0]} does not apply to ${scenario.name} (a FOLIO phase: it runs no workflows and has no DSQL cluster)`);
  }
  if (scenario.family === 'temporal' && scenario.preset.store.engine !== 'dsql' && o.dsqlClusterId !== undefined)
    throw new ConfigError(`--dsql-cluster-id does not apply to ${scenario.name} (its history is in ${scenario.preset.store.engine}; valid: a DSQL preset)`);
  const promUrl = o.prometheusUrl === undefined ? undefined : prometheusUrl(o.prometheusUrl);
  const window = reportWindow(o, scenario.name);
  const target = { region: scenario.env.region, endpoint: o.endpointUrl };
  // Where the report goes is checked before anything is fetched.
  const out = writableDir('--out', o.out ?? join('reports', `${scenario.name}-${window.start.toISOString().replace(/[-:]|\.\d+/g, '')}`));

  // Loaded once the arguments are valid: the SDK clients and echarts are most of the start-up.
  const { cloudFormationClient, cloudWatchClient } = require('../lib/commands/aws/clients') as typeof import('../lib/commands/aws/clients');
  const { stackOutput } = require('../lib/commands/aws/stack-outputs') as typeof import('../lib/commands/aws/stack-outputs');
  const { fetchMetrics } = require('../lib/commands/report/fetch') as typeof import('../lib/commands/report/fetch');
  const { renderCharts, renderGeneratorCharts, renderServerCharts } = require('../lib/commands/report/charts') as typeof import('../lib/commands/report/charts');
  let dsqlClusterId = o.dsqlClusterId;
  // The Aurora store's metrics are named by its configured cluster identifier: nothing to look up.
  if (scenario.family === 'temporal' && scenario.preset.store.engine === 'dsql' && dsqlClusterId === undefined)
    dsqlClusterId = await stackOutput(cloudFormationClient(target), scenario.stackName, TEMPORAL_OUTPUTS.dsqlClusterId, '--dsql-cluster-id <id>');
  const catalog = catalogFor(scenario, { dsqlClusterId });
  const metrics = catalog.series.filter((s): s is MetricSeries => s.kind === 'metric');

  const status = progress();
  const { points, messages } = await fetchMetrics(cloudWatchClient(target), metrics, window, (p) =>
    status.update(`GetMetricData: ${p.series} series, batch ${p.batch}/${p.batches}, page ${p.page}`),
  );
  status.done();
  for (const m of messages) process.stderr.write(`note: CloudWatch: ${m}\n`);

  let server: ServerView | undefined;
  if (scenario.family === 'temporal') {
    const { PrometheusReader, workspaceEndpoint, isLoopback } = require('../lib/commands/report/prometheus') as typeof import('../lib/commands/report/prometheus');
    const { readServerView, unreadServer } = require('../lib/commands/report/server-view') as typeof import('../lib/commands/report/server-view');
    const scrapeSeconds = durationSeconds(scenario.environment.observability.prometheus.scrapeInterval);
    if (promUrl === undefined && o.endpointUrl !== undefined) {
      server = unreadServer(scenario, o.endpointUrl, '--endpoint-url points the AWS calls at an emulator, which serves no Prometheus query API (pass --prometheus-url)');
    } else {
      const endpoint = promUrl
        ? { url: promUrl, region: isLoopback(promUrl) ? undefined : scenario.env.region }
        : workspaceEndpoint(scenario.env.region, await stackOutput(cloudFormationClient(target), scenario.stackName, TEMPORAL_OUTPUTS.prometheusWorkspaceId, '--prometheus-url <url>'));
      const reading = progress();
      reading.update(`Prometheus: query_range at ${endpoint.url}`);
      server = (await readServerView(scenario, new PrometheusReader(endpoint), window, scrapeSeconds)).view;
      reading.done();
    }
    if (server.unread) process.stderr.write(`note: Prometheus: not read: ${server.unread}\n`);
  }

  // A Serverless v2 offload cluster that pauses: when it resumed, and how long that took.
  let resumes: import('../lib/commands/report/resumes').ResumeReading | undefined;
  if (scenario.family === 'folio' && scenario.phase.offload.serverless?.min === 0) {
    const { rdsClient } = require('../lib/commands/aws/clients') as typeof import('../lib/commands/aws/clients');
    const { readResumes } = require('../lib/commands/report/resumes') as typeof import('../lib/commands/report/resumes');
    const { writerInstanceIdentifier } = require('../lib/contract/physical-names') as typeof import('../lib/contract/physical-names');
    resumes = await readResumes(rdsClient(target), writerInstanceIdentifier(scenario.environment.names.offloadCluster), window);
    if (resumes.unread) process.stderr.write(`note: RDS events: not read: ${resumes.unread}\n`);
  }

  const report = summarize(scenario, catalog, points, window, server, resumes);
  const subtitle = `${scenario.name}, ${report.window.start} to ${report.window.end}`;
  const charts = [
    ...renderCharts(catalog, points, window, subtitle),
    ...(window.generatorSeries ? renderGeneratorCharts(window.generatorSeries, window, subtitle) : []),
    ...(server && !server.unread ? renderServerCharts(server, window, subtitle) : []),
  ];
  for (const c of charts) writeOutput(join(out, 'charts', c.file), c.svg);
  const markdown = renderMarkdown(report, charts.map((c) => ({ file: `charts/${c.file}`, title: c.title })));
  writeOutput(join(out, 'report.md'), markdown);
  writeOutput(join(out, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(markdown);
  process.stderr.write(`wrote ${shownPath(join(out, 'report.md'))}, report.json and ${charts.length} charts\n`);
  if (report.missing.length === Object.keys(report.coverage).length)
    throw new CommandFailure(`no datapoint at all in ${report.window.start} to ${report.window.end} for ${scenario.name} in ${scenario.env.region}: check the window, the region and --env-name, or whether anything ran`, EXIT_NO_DATA);
  return 0;
}

void runCommand(() => main(program.parse().opts<Options>()));
