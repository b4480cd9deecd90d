import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CloudWatchClient, GetMetricDataCommand, type GetMetricDataCommandOutput } from '@aws-sdk/client-cloudwatch';
import type { AwsStub } from 'aws-sdk-client-mock';
import { resolveScenario, resolveScenarioOf } from '../../config';
import { catalogFor } from '../../lib/families';
import type { MetricSeries } from '../../lib/platform/contract/metrics';
import { fetchMetrics } from '../../lib/commands/report/fetch';
import { summarizeFolio } from '../../lib/folio/commands/report/folio-summary';
import { summarizeTemporal } from '../../lib/temporal/commands/report/temporal-summary';
import type { ReportWindow } from '../../lib/commands/report/window';
import { fixtureServerView } from '../../harness/query-range-fixture';

/*
 * Recorded GetMetricData responses (test/fixtures/get-metric-data): realistic series, paged
 * the way CloudWatch pages them (NextToken, PartialData), with gaps. Served through a mocked
 * CloudWatch client, they go through the same fetch and arithmetic as a real run.
 */

type CloudWatchStub = AwsStub<any, any, any>;

function loadFixture(name: string): { window: ReportWindow; pages: GetMetricDataCommandOutput[] } {
  const f = JSON.parse(readFileSync(join(__dirname, '../fixtures/get-metric-data', `${name}.json`), 'utf8'));
  // As the SDK deserializes them: timestamps become Dates.
  const pages = f.pages.map((p: any) => ({
    ...p,
    MetricDataResults: p.MetricDataResults.map((r: any) => ({ ...r, Timestamps: r.Timestamps.map((t: string) => new Date(t)) })),
    $metadata: {},
  }));
  return { window: { start: new Date(f.window.start), end: new Date(f.window.end), periodSeconds: 60 }, pages };
}

/** The fixture's report, fetched through `cw` (a mock of CloudWatchClient) page by page. */
export async function fixtureReport(cw: CloudWatchStub, name: string, scenarioName: string, extra: Partial<ReportWindow> = {}) {
  const { window, pages } = loadFixture(name);
  // Page N for NextToken `page-N`, as CloudWatch does.
  cw.on(GetMetricDataCommand).callsFake((input: { NextToken?: string }) => pages[input.NextToken ? Number(input.NextToken.split('-')[1]) - 1 : 0]);
  const scenario = resolveScenario({ scenario: scenarioName });
  const catalog = catalogFor(scenario, { dsqlClusterId: 'abcdefghijklmnopqrstuvwxyz' });
  const metrics = catalog.series.filter((s): s is MetricSeries => s.kind === 'metric');
  const w = { ...window, ...extra };
  const { points } = await fetchMetrics(new CloudWatchClient({ region: 'eu-west-1' }), metrics, w);
  // The servers' own metrics: the recorded query_range answers of a real local run, moved to this window.
  const server = scenario.family === 'temporal' ? fixtureServerView(scenario, w.start) : undefined;
  const report =
    scenario.family === 'temporal'
      ? summarizeTemporal(scenario, catalog, points, w, server!)
      : summarizeFolio(resolveScenarioOf('folio', { scenario: scenario.name }, { option: '--scenario', command: 'report' }), catalog, points, w);
  return { scenario, catalog, points, window: w, server, report };
}
