import { ConfigError, type TemporalScenario } from '../../../../config';
import type { TemporalScenarioInput } from '../../../../config/temporal-schema';
import { durationSeconds } from '../../../../config/fields';
import { stackOutput } from '../../../commands/aws/read-stack-outputs';
import { prometheusUrl } from '../../../commands/shared/option-values';
import type { FamilyReport, ReportReading } from '../../../commands/report/family-report';
import { TEMPORAL_OUTPUTS } from '../../contract/temporal-stack-outputs';
import type { TemporalDeployed } from '../../contract/temporal-metrics';
import { compareTemporalReports } from './compare-temporal';
import { firstFailedWindow } from './ladder-view';
import { isLoopback, PrometheusReader, workspaceEndpoint } from './prometheus-reader';
import { renderTemporal } from './render-temporal';
import { readServerView, type ServerView, unreadServer } from './server-view';
import { renderLadderCharts, renderServerCharts } from './temporal-charts';
import { summarizeTemporal, type TemporalReport } from './temporal-summary';

/** `report` for a Temporal preset: CloudWatch's figures beside the servers' own, read from Prometheus. */
export const TEMPORAL_REPORT_PART: FamilyReport<TemporalScenario, TemporalReport> = {
  reportOptions: ['--workflows', '--dsql-cluster-id', '--prometheus-url'],
  checkReportOptions(scenario, options) {
    if (options.prometheusUrl !== undefined) prometheusUrl(options.prometheusUrl);
    if (scenario.preset.store.engine !== 'dsql' && options.dsqlClusterId !== undefined)
      throw new ConfigError(`--dsql-cluster-id does not apply to ${scenario.name} (its history is in ${scenario.preset.store.engine}; valid: a DSQL preset)`);
  },
  ladderRules: (scenario) => scenario.environment.observability.ladder.held,
  async deployedForReport({ scenario, options, aws, target }): Promise<TemporalDeployed> {
    // The Aurora store's metrics are named by its configured cluster identifier: nothing to look up.
    if (scenario.preset.store.engine !== 'dsql' || options.dsqlClusterId !== undefined) return { dsqlClusterId: options.dsqlClusterId };
    return { dsqlClusterId: await stackOutput(aws.cloudFormation(target), scenario.stackName, TEMPORAL_OUTPUTS.dsqlClusterId, '--dsql-cluster-id <id>') };
  },
  async report(reading, catalog, points) {
    const { server, failedStep } = await readServers(reading);
    if (server.unread) reading.io.note(`note: Prometheus: not read: ${server.unread}`);
    const report = summarizeTemporal(reading.scenario, catalog, points, reading.window, server, failedStep);
    return {
      report,
      charts: (subtitle) => [
        ...(!server.unread ? renderServerCharts(server, reading.window, subtitle) : []),
        ...(report.ladder ? renderLadderCharts(report.ladder, subtitle) : []),
      ],
    };
  },
  renderReport: renderTemporal,
  noDataHint: (report) => (report.store === 'dsql' ? ' and the DSQL cluster id' : ''),
  compareReports: compareTemporalReports,
  addProposed(catalog, next) {
    (catalog.temporal.scenarios as TemporalScenarioInput[]).push(next as TemporalScenarioInput);
  },
};

/** The servers' view of the window, and of a ladder's first failing step alone, where it was held back. */
async function readServers({
  scenario,
  options,
  aws,
  target,
  window,
  io,
}: ReportReading<TemporalScenario>): Promise<{ server: ServerView; failedStep?: ServerView }> {
  if (options.prometheusUrl === undefined && options.endpointUrl !== undefined)
    return {
      server: unreadServer(
        scenario,
        options.endpointUrl,
        '--endpoint-url points the AWS calls at an emulator, which serves no Prometheus query API (pass --prometheus-url)',
      ),
    };
  const scrapeSeconds = durationSeconds(scenario.environment.observability.prometheus.scrapeInterval);
  const promUrl = options.prometheusUrl === undefined ? undefined : prometheusUrl(options.prometheusUrl);
  const endpoint = promUrl
    ? { url: promUrl, region: isLoopback(promUrl) ? undefined : scenario.env.region }
    : workspaceEndpoint(
        scenario.env.region,
        await stackOutput(aws.cloudFormation(target), scenario.stackName, TEMPORAL_OUTPUTS.prometheusWorkspaceId, '--prometheus-url <url>'),
      );
  io.status.update(`Prometheus: query_range at ${endpoint.url}`);
  const reader = new PrometheusReader(endpoint);
  const server = (await readServerView(scenario, reader, window, scrapeSeconds)).view;
  const failed = window.ladder && firstFailedWindow(window.ladder);
  const failedStep = failed ? (await readServerView(scenario, reader, failed, scrapeSeconds)).view : undefined;
  io.status.done();
  return { server, failedStep };
}
