import { ConfigError, FAMILY_NAME, type ImageRef, type TemporalScenario } from '../../config';
import { durationSeconds } from '../../config/fields';
import type { TemporalScenarioInput } from '../../config/temporal-schema';
import { TEMPORAL_OUTPUTS } from './contract/temporal-stack-outputs';
import type { Family } from '../family-contract';
import type { ServerView } from './commands/report/server-view';
import type { TemporalReport } from './commands/report/temporal-summary';
import { temporalCatalog } from './contract/temporal-metrics';

/*
 * Temporal on ECS as a family: the presets, each a rate the cluster is sized for, with its
 * history in Aurora DSQL or Aurora PostgreSQL (an environment keeps its store for life). What
 * only a command runs is loaded when the command calls it, so synth never loads a command.
 */

export const TEMPORAL: Family<TemporalScenario, TemporalReport> = {
  name: 'temporal',
  kind: FAMILY_NAME.temporal,
  noun: 'preset',
  scenarioOutput: TEMPORAL_OUTPUTS.scenario,
  scenarioFile: 'config/temporal-scenarios.ts',

  addDataStack(app, scenario) {
    // Loaded when a stack is built: the commands read this family without the CDK's constructs.
    const { TemporalDsqlStack }: typeof import('../temporal-dsql-stack') = require('../temporal-dsql-stack');
    const stack = new TemporalDsqlStack(app, scenario.stackName, { scenario, env: scenario.env });
    return { stack, deployed: { dsqlClusterId: stack.historyStore.dsql?.identifier } };
  },
  metricCatalog(scenario, deployed) {
    if (scenario.preset.store.engine === 'dsql' && deployed.dsqlClusterId === undefined)
      throw new Error('the Temporal metric catalog needs the DSQL cluster id');
    return temporalCatalog(scenario, deployed.dsqlClusterId ?? '');
  },
  dashboardHeader(scenario) {
    const { preset } = scenario;
    return (
      `## ${scenario.stackName}: ${preset.name}\n` +
      `${preset.capacity.main.instances} x ${preset.capacity.main.instanceType} (main), 0-${preset.capacity.benchmark.maxInstances} x ` +
      `${preset.capacity.benchmark.instanceType} (benchmark); target ${preset.benchmark.targetRate} workflows/s`
    );
  },
  title: (scenario) => scenario.preset.title,

  costOptions: ['--tx-rate', '--load-hours'],
  cost(scenario, prices, inputs) {
    const { temporalCost }: typeof import('./commands/cost/temporal-cost') = require('./commands/cost/temporal-cost');
    return temporalCost(scenario, prices, inputs);
  },
  loadFromReport(report, scenario, path, given) {
    if (scenario.preset.store.engine !== 'dsql')
      throw new ConfigError(
        `--report ${path}: ${scenario.name}'s history is in ${scenario.preset.store.engine}, whose writer bills by the hour whatever the load, so a report's transaction rate changes nothing (valid: a DSQL preset's report)`,
      );
    if (given.transactionsPerSecond !== undefined) return given;
    const perMinute = report.metrics.transactions.totalPerMinute.average;
    if (perMinute === null) throw new ConfigError(`${path} has no DSQL transaction rate (no data in its window)`);
    return { ...given, transactionsPerSecond: perMinute / 60 };
  },
  checkCostInputs(scenario, inputs) {
    if (scenario.preset.store.engine !== 'dsql' && inputs.transactionsPerSecond !== undefined)
      throw new ConfigError(
        `--tx-rate does not apply to ${scenario.name} (its history is in ${scenario.preset.store.engine}, whose writer bills by the hour whatever the load; valid: a DSQL preset)`,
      );
  },

  reportOptions: ['--workflows', '--dsql-cluster-id', '--prometheus-url'],
  checkReportOptions(scenario, options) {
    if (scenario.preset.store.engine !== 'dsql' && options.dsqlClusterId !== undefined)
      throw new ConfigError(`--dsql-cluster-id does not apply to ${scenario.name} (its history is in ${scenario.preset.store.engine}; valid: a DSQL preset)`);
  },
  ladderRules: (scenario) => scenario.environment.observability.ladder.held,
  async deployedForReport({ scenario, options, aws, target }) {
    // The Aurora store's metrics are named by its configured cluster identifier: nothing to look up.
    if (scenario.preset.store.engine !== 'dsql' || options.dsqlClusterId !== undefined) return { dsqlClusterId: options.dsqlClusterId };
    const { stackOutput }: typeof import('../commands/aws/read-stack-outputs') = require('../commands/aws/read-stack-outputs');
    return { dsqlClusterId: await stackOutput(aws.cloudFormation(target), scenario.stackName, TEMPORAL_OUTPUTS.dsqlClusterId, '--dsql-cluster-id <id>') };
  },
  async report({ scenario, options, aws, target, window, io }, catalog, points) {
    const {
      PrometheusReader,
      workspaceEndpoint,
      isLoopback,
    }: typeof import('./commands/report/prometheus-reader') = require('./commands/report/prometheus-reader');
    const { readServerView, unreadServer }: typeof import('./commands/report/server-view') = require('./commands/report/server-view');
    const { firstFailedWindow }: typeof import('./commands/report/ladder-view') = require('./commands/report/ladder-view');
    const { stackOutput }: typeof import('../commands/aws/read-stack-outputs') = require('../commands/aws/read-stack-outputs');
    const scrapeSeconds = durationSeconds(scenario.environment.observability.prometheus.scrapeInterval);
    let server: ServerView;
    let failedStep: ServerView | undefined;
    if (options.prometheusUrl === undefined && options.endpointUrl !== undefined) {
      server = unreadServer(
        scenario,
        options.endpointUrl,
        '--endpoint-url points the AWS calls at an emulator, which serves no Prometheus query API (pass --prometheus-url)',
      );
    } else {
      const promUrl = options.prometheusUrl;
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
    const { summarizeTemporal }: typeof import('./commands/report/temporal-summary') = require('./commands/report/temporal-summary');
    const report = summarizeTemporal(scenario, catalog, points, window, server, failedStep);
    return {
      report,
      charts: (subtitle) => {
        const { renderLadderCharts, renderServerCharts }: typeof import('./commands/report/temporal-charts') = require('./commands/report/temporal-charts');
        return [...(!server.unread ? renderServerCharts(server, window, subtitle) : []), ...(report.ladder ? renderLadderCharts(report.ladder, subtitle) : [])];
      },
    };
  },
  renderReport(report) {
    const { renderTemporal }: typeof import('./commands/report/render-temporal') = require('./commands/report/render-temporal');
    return renderTemporal(report);
  },
  noDataHint: (report) => (report.store === 'dsql' ? ' and the DSQL cluster id' : ''),
  compareReports(a, b, names) {
    const { compareTemporalReports }: typeof import('./commands/report/compare-temporal') = require('./commands/report/compare-temporal');
    return compareTemporalReports(a, b, names);
  },
  addProposed(catalog, next) {
    (catalog.temporal.scenarios as TemporalScenarioInput[]).push(next as TemporalScenarioInput);
  },

  checkSwitch(a, b) {
    if (a.preset.store.engine !== b.preset.store.engine)
      throw new ConfigError(
        `"${a.name}" keeps Temporal's history in ${a.preset.store.engine} and "${b.name}" in ${b.preset.store.engine}: an environment keeps its store for life ` +
          `(the switch would orphan the history, and its deploy is refused); deploy "${b.name}" as a second environment: -c envName=<name>`,
      );
  },
  lifelongSettings: (scenario) => [
    {
      setting: 'persistence.numHistoryShards (config/temporal-environment.ts)',
      output: TEMPORAL_OUTPUTS.historyShards,
      value: String(scenario.environment.persistence.numHistoryShards),
    },
    { setting: `${scenario.name}'s store.engine`, output: TEMPORAL_OUTPUTS.historyStoreEngine, value: scenario.preset.store.engine },
  ],
  switchNotes: () => ({ notes: [] }),

  images(scenario) {
    const e = scenario.environment;
    const store: [string, ImageRef][] =
      scenario.preset.store.engine === 'aurora-postgresql'
        ? [
            ['auroraPostgresql.images.server', e.auroraPostgresql.images.server],
            ['auroraPostgresql.images.schemaTool', e.auroraPostgresql.images.schemaTool],
          ]
        : [['images.server', e.images.server]];
    return [...store, ['images.collector', e.images.collector], ['images.benchmark', e.images.benchmark]];
  },
  async preflightChecks(clients) {
    const { serviceLinkedRoleCheck }: typeof import('../commands/preflight/preflight-checks') = require('../commands/preflight/preflight-checks');
    return [await serviceLinkedRoleCheck(clients.iam)];
  },

  loadHours(load, scenario) {
    const { benchLoadHours }: typeof import('./commands/shared/campaign-load') = require('./commands/shared/campaign-load');
    return benchLoadHours(load, scenario);
  },
  campaignRow(report, scenario, estimate, run) {
    const { temporalCampaignRow }: typeof import('./commands/report/temporal-campaign-row') = require('./commands/report/temporal-campaign-row');
    return temporalCampaignRow(report, scenario, estimate, run);
  },
  hibernatedNow(aws, target, scenario) {
    const { temporalHibernatedNow }: typeof import('./commands/shared/hibernated') = require('./commands/shared/hibernated');
    return temporalHibernatedNow(aws, target, scenario);
  },
  environmentOptions: ['--force'],
  environment(run) {
    const { temporalEnvironment }: typeof import('./commands/environment/temporal-hibernation') = require('./commands/environment/temporal-hibernation');
    return temporalEnvironment(run);
  },
};
