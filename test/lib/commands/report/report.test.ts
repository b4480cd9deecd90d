import { CloudWatchClient, GetMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import { mockClient } from 'aws-sdk-client-mock';
import { resolveScenario, type FolioScenario, type TemporalScenario } from '../../../../config';
import { editedCatalog } from '../../../support/synth';
import { AWS_CLIENTS } from '../../../../lib/commands/aws/clients';
import { catalogFor } from '../../../../lib/families';
import type { MetricSeries } from '../../../../lib/platform/contract/metrics';
import { renderCharts } from '../../../../lib/commands/report/charts';
import { compareReports, flatten } from '../../../../lib/commands/report/compare-reports';
import { MAX_QUERIES_PER_CALL, fetchMetrics } from '../../../../lib/commands/report/fetch';
import { type ServerView, unreadServer } from '../../../../lib/temporal/commands/report/server-view';
import { renderMarkdown } from '../../../../lib/commands/report/render-report';
import { pausedStretches, type FolioReport, summarizeFolio } from '../../../../lib/folio/commands/report/folio-summary';
import { type TemporalReport, summarizeTemporal } from '../../../../lib/temporal/commands/report/temporal-summary';
import type { ReportWindow } from '../../../../lib/commands/report/window';
import { fixtureReport } from '../../../support/report-fixture';

/*
 * The report's arithmetic against recorded GetMetricData responses: realistic series, paged
 * the way CloudWatch pages them (NextToken, PartialData), with gaps.
 */

const cw = mockClient(CloudWatchClient);
afterEach(() => cw.reset());
const report = (name: string, scenarioName: string, extra: Partial<ReportWindow> = {}) => fixtureReport(cw, name, scenarioName, extra);

describe('an empty window: no number without data behind it', () => {
  const window = { start: new Date('2026-01-21T12:00:00Z'), end: new Date('2026-01-21T12:05:00Z'), periodSeconds: 60, workflows: 41_052 };

  test('Temporal: every figure says no data, nothing derived is computed, and the top says why', () => {
    const scenario = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
    const catalog = catalogFor(scenario, { dsqlClusterId: 'abc' });
    const r = summarizeTemporal(scenario, catalog, new Map(), window, unreadServer(scenario, 'http://127.0.0.1:9090', 'not asked')) as TemporalReport;
    expect(r.missing).toHaveLength(Object.keys(r.coverage).length);
    expect(r.metrics.transactions).toMatchObject({
      total: null,
      readOnly: null,
      write: null,
      readOnlyShare: null,
      perWorkflow: null,
      peakPerMinuteOverWorkflows: null,
    });
    expect(r.metrics.occConflicts!.total).toBeNull();
    const md = renderMarkdown(r);
    expect(md).toMatch(
      /\n\*\*No data at all\*\* in this window: none of the \d+ series has a datapoint\. Check the window \(times are UTC\), the region, --env-name and the DSQL cluster id/,
    );
    expect(md).toContain('- transactions in the window: no data (TotalTx has no datapoint)');
    expect(md).toContain('- transactions per workflow: not computed (no transaction data)');
    expect(md).not.toMatch(/(^|\| |- )0 (transactions|in the window|min)/m);
  });

  test('FOLIO: no time at the ceiling and no ACU-hours without ACU points', () => {
    const scenario = resolveScenario({ scenario: 'test10' }) as FolioScenario;
    const r = summarizeFolio(scenario, catalogFor(scenario), new Map(), window);
    expect(r.metrics.acu).toMatchObject({ peak: null, minutesAtCeiling: null, shareOfWindowAtCeiling: null, acuHours: null });
    const md = renderMarkdown(r);
    expect(md).toContain('| Time at ceiling (>= 95% of 32 ACU) | no data |');
    expect(md).toContain('| ACU-hours | no data |');
  });
});

describe('fetch', () => {
  test('follows NextToken through every page and joins each series in time order', async () => {
    const { points } = await report('temporal-150wps', 'temporal-150wps');
    expect(cw.commandCalls(GetMetricDataCommand)).toHaveLength(2);
    expect(cw.commandCalls(GetMetricDataCommand)[1].args[0].input.NextToken).toBe('page-2');
    expect(points.get('totalTx')!.v).toEqual([268000, 272000, 271500, 270000, 268500]);
    expect(points.get('readOnlyTx')!.t).toHaveLength(4);
  });

  test('asks for each catalog metric once, by its catalog id, with its statistic and the window period', async () => {
    await report('temporal-150wps', 'temporal-150wps');
    const input = cw.commandCalls(GetMetricDataCommand)[0].args[0].input;
    const total = input.MetricDataQueries!.find((q) => q.Id === 'totalTx')!;
    expect(total.MetricStat).toEqual({
      Metric: { Namespace: 'AWS/AuroraDSQL', MetricName: 'TotalTransactions', Dimensions: [{ Name: 'ClusterId', Value: 'abcdefghijklmnopqrstuvwxyz' }] },
      Period: 60,
      Stat: 'Sum',
    });
    expect(new Set(input.MetricDataQueries!.map((q) => q.Id)).size).toBe(input.MetricDataQueries!.length);
    expect(input.ScanBy).toBe('TimestampAscending');
  });

  test('splits more than 500 queries into batches', async () => {
    cw.on(GetMetricDataCommand).resolves({ MetricDataResults: [], $metadata: {} });
    const many: MetricSeries[] = Array.from({ length: 1201 }, (_, i) => ({
      kind: 'metric',
      id: `m${i}`,
      label: `m${i}`,
      namespace: 'AWS/RDS',
      metricName: 'CPUUtilization',
      dimensions: { DBClusterIdentifier: `c${i}` },
      statistic: 'Average',
      unit: '%',
    }));
    const seen: number[] = [];
    await fetchMetrics(new CloudWatchClient({ region: 'eu-west-1' }), many, { start: new Date(0), end: new Date(60_000), periodSeconds: 60 }, (p) =>
      seen.push(p.batch),
    );
    const sizes = cw.commandCalls(GetMetricDataCommand).map((c) => c.args[0].input.MetricDataQueries!.length);
    expect(sizes).toEqual([MAX_QUERIES_PER_CALL, MAX_QUERIES_PER_CALL, 201]);
    expect(seen).toEqual([1, 2, 3]);
  });

  test('a query CloudWatch refuses fails the fetch, naming it', async () => {
    cw.on(GetMetricDataCommand).resolves({
      MetricDataResults: [{ Id: 'totalTx', Label: 'TotalTx', StatusCode: 'Forbidden', Messages: [{ Code: 'Forbidden', Value: 'not authorized' }] }],
      $metadata: {},
    });
    const scenario = resolveScenario({ scenario: 'temporal-150wps' });
    const catalog = catalogFor(scenario, { dsqlClusterId: 'x' });
    const metrics = catalog.series.filter((s): s is MetricSeries => s.kind === 'metric');
    await expect(
      fetchMetrics(new CloudWatchClient({ region: 'eu-west-1' }), metrics, { start: new Date(0), end: new Date(60_000), periodSeconds: 60 }),
    ).rejects.toThrow(/Forbidden for totalTx \(TotalTx\): not authorized/);
  });

  test('clients retry adaptively, up to 8 attempts', async () => {
    const client = AWS_CLIENTS.cloudWatch({ region: 'eu-west-1' });
    expect(await client.config.maxAttempts()).toBe(8);
    expect(((await client.config.retryStrategy()) as { mode?: string }).mode).toBe('adaptive');
  });
});

describe('Temporal report (seed 000 shape)', () => {
  test('transactions per minute, the read-only share and the write count derived from the two metrics', async () => {
    const { report: r } = await report('temporal-150wps', 'temporal-150wps', { workflows: 41_052 });
    const t = (r as TemporalReport).metrics.transactions;
    expect(t.totalPerMinute).toEqual({ peak: 272_000, average: 270_000 });
    expect(t.total).toBe(1_350_000);
    expect(t.peakPerSecond).toBeCloseTo(4533.33, 2);
    // Minute 3 has no read-only point: the split covers the four minutes with both.
    expect(t.readOnly).toBe(766_000);
    expect(t.write).toBe(268_000 + 272_000 + 270_000 + 268_500 - 766_000);
    expect(t.readOnlyShare).toBeCloseTo(766_000 / 1_078_500, 6);
    expect(t.writePerMinute.peak).toBe(79_000);
    expect(r.notes).toContain('ReadOnlyTx has points in 4 of the 5 periods TotalTx has; the read-only share and write figures cover those 4');
  });

  test("a run's window: totals and peaks over every point that covers it, averages over the points wholly inside it", async () => {
    const run = { start: new Date('2026-01-21T12:00:20Z'), end: new Date('2026-01-21T12:04:40Z') };
    const { report: r } = await report('temporal-150wps', 'temporal-150wps', { run });
    const t = (r as TemporalReport).metrics.transactions;
    // 12:00 starts before the run and 12:04 ends after it: 12:01, 12:02 and 12:03 are whole.
    expect(t.totalPerMinute).toEqual({ peak: 272_000, average: (272_000 + 271_500 + 270_000) / 3 });
    expect(t.total).toBe(1_350_000);
    expect(r.window.run).toEqual({ start: '2026-01-21T12:00:20.000Z', end: '2026-01-21T12:04:40.000Z' });
    expect(renderMarkdown(r)).toContain('(5 min, 60 s points), covering the run 2026-01-21T12:00:20.000Z to 2026-01-21T12:04:40.000Z.');
    // Conflicts and pool waits come from the load: per minute of the run (4m20s), not of the window around it.
    const { scenario, catalog, points, window, server } = await report('temporal-150wps', 'temporal-150wps', { run });
    const busy: ServerView = {
      ...server!,
      persistence: Object.fromEntries(
        Object.entries(server!.persistence).map(([role, row]) => [role, { ...row, conflicts: role === 'history' ? 26 : 0 }]),
      ) as ServerView['persistence'],
    };
    const perMinute = (w: ReportWindow) =>
      summarizeTemporal(scenario as TemporalScenario, catalog, points, w, busy).bottlenecks.figures.storeConflictsPerMinute;
    expect(perMinute(window)).toBeCloseTo(26 / (260 / 60), 9);
    expect(perMinute({ ...window, run: undefined })).toBeCloseTo(26 / 5, 9);
    // Without the run, every point counts.
    const { report: all } = await report('temporal-150wps', 'temporal-150wps');
    expect((all as TemporalReport).metrics.transactions.totalPerMinute.average).toBe(1_350_000 / 5);
    expect(all.window.run).toBeUndefined();
  });

  test("transactions per workflow, and the seed's 6.6 ratio beside it", async () => {
    const { report: r } = await report('temporal-150wps', 'temporal-150wps', { workflows: 41_052 });
    const t = (r as TemporalReport).metrics.transactions;
    expect(t.perWorkflow).toBeCloseTo(1_350_000 / 41_052, 6);
    expect(t.peakPerMinuteOverWorkflows).toBeCloseTo(6.63, 2);
    const md = renderMarkdown(r);
    expect(md).toContain('- 32.9 transactions per workflow (1,350,000 transactions / 41,052 workflows)');
    expect(md).toContain('- 6.6 = peak transactions per minute / workflows');
  });

  test("over 5-minute points the peak is that point's average, and the ratio says it is not the seed's", async () => {
    const { report: r } = await report('temporal-150wps', 'temporal-150wps', { workflows: 41_052 });
    const coarse = { ...r, window: { ...r.window, periodSeconds: 300 } };
    const md = renderMarkdown(coarse);
    expect(md).toMatch(/transactions\/second at the peak 5-minute point \(its average\)/);
    expect(md).toContain("= peak transactions per minute / workflows, over 5-minute points: not seed 000's ratio, which takes the peak 1-minute point");
    expect(md).not.toContain('the ratio seed 000 reports');
    expect(renderMarkdown(r)).toMatch(/transactions\/second at the peak minute\n/);
  });

  test('without a workflow count there is no per-workflow figure, and the report says how to get one', async () => {
    const { report: r } = await report('temporal-150wps', 'temporal-150wps');
    expect((r as TemporalReport).metrics.transactions.perWorkflow).toBeNull();
    expect(renderMarkdown(r)).toContain('pass --workflows (or --run)');
  });

  test('per-service CPU and memory, peak and average, with the alarm threshold flagged', async () => {
    const { report: r } = await report('temporal-150wps', 'temporal-150wps');
    const s = (r as TemporalReport).metrics.services;
    expect(Object.keys(s)).toEqual(['history', 'matching', 'frontend', 'worker', 'benchmark worker']);
    expect(s.history).toEqual({ replicas: 8, cpu: { peak: 78, average: 67.6 }, memory: { peak: 42, average: 41.4 } });
    expect(s['benchmark worker'].replicas).toBe(6);
    const md = renderMarkdown(r);
    expect(md).toContain('| history | 8 | 78% | 68% | 42% | 41% |');
    expect(md).toContain('| benchmark worker | 6 | **92%** (at or above 90%) |');
  });

  test('DSQL gauges, counts and the limiter', async () => {
    const { report: r } = await report('temporal-150wps', 'temporal-150wps');
    const m = (r as TemporalReport).metrics;
    expect(m.commitLatencyMs.peak).toBe(4.4);
    expect(m.commitLatencyMs.average).toBeCloseTo(4.2, 6);
    expect(m.occConflicts).toEqual({ total: 3, peakPerMinute: 2 });
    expect(m.dsqlConnections).toEqual({ peak: 1000, average: 999.4 });
    // No throttle was recorded: no datapoint, reported as such and not as a zero.
    expect(m.limiter).toEqual({ writes: 120, throttledWrites: null });
    expect(r.missing).toEqual(['limiterThrottles']);
    expect(renderMarkdown(r)).toContain('| DSQL connections | 1,000 | 999 | pools full at 1,000 (20 tasks); account-wide metric |');
  });

  test('series with no points are n/a and listed under data coverage, never zero', async () => {
    const { report: r } = await report('temporal-150wps', 'temporal-150wps');
    expect(r.coverage.limiterThrottles).toEqual({ points: 0, expected: 5 });
    expect(r.coverage.totalTx).toEqual({ points: 5, expected: 5 });
    const md = renderMarkdown(r);
    expect(md).toContain('| limiterThrottles | 0 | 5 |');
    expect(md).toContain('| readOnlyTx | 4 | 5 |');
  });

  test('a five-minute period gives the same per-minute rates as one-minute points', async () => {
    // One 5-minute point holding the sum of the five one-minute points.
    const scenario = resolveScenario({ scenario: 'temporal-150wps' });
    const catalog = catalogFor(scenario, { dsqlClusterId: 'x' });
    const window = { start: new Date('2026-01-21T12:00:00Z'), end: new Date('2026-01-21T12:05:00Z'), periodSeconds: 300 };
    const points = new Map([['totalTx', { t: [window.start.getTime()], v: [1_350_000] }]]);
    const r = summarizeTemporal(
      scenario as TemporalScenario,
      catalog,
      points,
      window,
      unreadServer(scenario as TemporalScenario, 'http://127.0.0.1:9090', 'not asked'),
    ) as TemporalReport;
    expect(r.metrics.transactions.totalPerMinute).toEqual({ peak: 270_000, average: 270_000 });
  });
});

describe('FOLIO report (seed 002 shape)', () => {
  test('test10: ACU peak against the configured range, and time flat at the ceiling', async () => {
    const { report: r } = await report('folio-test10', 'test10');
    const f = r as FolioReport;
    expect(f.configured).toMatchObject({
      acu: { min: 0.5, max: 32, ceilingPercentOfMax: 95 },
      primaryInstanceClass: 'db.r7g.2xlarge',
      offload: 'Serverless v2 0.5-32 ACU',
    });
    const acu = f.metrics.acu!;
    expect(acu.peak).toBe(32);
    expect(acu.peakShareOfMax).toBe(1);
    expect(acu.lowest).toBe(0.5);
    // 40 minutes at 32 ACU, 5 of them without data: 35 known minutes at or above 30.4 ACU.
    expect(acu.minutesAtCeiling).toBe(35);
    expect(acu.shareOfWindowAtCeiling).toBeCloseTo(35 / 60, 6);
    expect(acu.average).toBeCloseTo(1409 / 55, 6);
    expect(acu.acuHours).toBeCloseTo(1409 / 60, 6);
    expect(f.coverage.acu).toEqual({ points: 55, expected: 60 });
  });

  test('CPU, connections and memory per cluster', async () => {
    const { report: r } = await report('folio-test10', 'test10');
    const m = (r as FolioReport).metrics;
    expect(m.cpu.primary).toEqual({ peak: 65, average: 65 });
    expect(m.cpu.offload.peak).toBe(80);
    expect(m.cpu.offload.average).toBeCloseTo(4000 / 60, 6);
    expect(m.connections).toEqual({ primary: { peak: 400, average: 400 }, offload: { peak: 180, average: 180 } });
    expect(m.freeableMemoryLowestBytes).toEqual({ primary: 20 * 2 ** 30, offload: 2 * 2 ** 30 });
    expect(m.dbLoad.primary).toEqual({ peak: null, average: null });
  });

  test('a provisioned offload cluster (part3): no capacity figures or section, the cluster named by its class', async () => {
    const { report: r } = await report('folio-test10', 'part3');
    const f = r as FolioReport;
    const md = renderMarkdown(f);
    expect(f.configured).toMatchObject({ acu: null, offload: 'provisioned db.r8g.2xlarge' });
    expect(f.metrics.acu).toBeNull();
    expect(f.metrics.cpu.offload.peak).toBe(80);
    expect(md).not.toContain('Serverless v2 capacity');
    expect(md).toContain('| offload (provisioned db.r8g.2xlarge) | 80% | 67% |');
  });

  test('markdown tables name the configured range and the ceiling', async () => {
    const { report: r } = await report('folio-test10', 'test10');
    const md = renderMarkdown(r);
    expect(md).toContain('## Serverless v2 capacity (configured 0.5-32 ACU)');
    expect(md).toContain('| Peak ACU | 32 (100% of max) |');
    expect(md).toContain('| Time at ceiling (>= 95% of 32 ACU) | 35 min (58% of the window) |');
    expect(md).toContain('| primary (db.r7g.2xlarge) | 65% | 65% |');
    expect(md).toContain('| offload (Serverless v2 0.5-32 ACU) | 80% | 67% |');
    expect(md).toContain('| acu | 55 | 60 |');
  });
});

describe('charts', () => {
  test('one SVG per report panel, with the configured limits drawn and labelled', async () => {
    const { catalog, points, window } = await report('folio-test10', 'test10');
    const charts = renderCharts(catalog, points, window, 'test10');
    expect(charts.map((c) => c.file)).toEqual(['acu.svg', 'cpu.svg', 'connections.svg']);
    const acu = charts[0].svg;
    expect(acu.startsWith('<svg')).toBe(true);
    expect(acu).toContain('max 32 ACU');
    expect(acu).toContain('min 0.5 ACU');
    expect(charts[1].svg).toContain('CPU alarm 90%');
    // Same points, same bytes: reports can be diffed.
    expect(renderCharts(catalog, points, window, 'test10').map((c) => c.svg)).toEqual(charts.map((c) => c.svg));
  });

  test('Temporal charts draw the pool ceiling on the connections chart', async () => {
    const { catalog, points, window } = await report('temporal-150wps', 'temporal-150wps');
    const charts = renderCharts(catalog, points, window, 'temporal-150wps');
    expect(charts.map((c) => c.file)).toEqual(['transactions.svg', 'commitLatency.svg', 'dsqlConnections.svg', 'serviceCpu.svg']);
    expect(charts[2].svg).toContain('pools full: 20 tasks x 50');
    expect(charts[0].svg).toContain('WriteTx (total - read-only)');
  });
});

describe('compare', () => {
  test("prints B - A per metric, like the seed's test-to-test comparisons", async () => {
    const a = (await report('folio-test10', 'test10')).report;
    const b = structuredClone(a) as any;
    b.scenario = 'test11';
    b.metrics.acu.peak = 30;
    b.metrics.cpu.offload.peak = 40;
    const md = compareReports(a, b, ['a.json', 'b.json']);
    expect(md).toContain('| acu.peak | 32 | 30 | -2 | -6.3% |');
    expect(md).toContain('| cpu.offload.peak | 80 | 40 | -40 | -50% |');
    expect(md).toContain('| cpu.primary.peak | 65 | 65 | 0 | 0% |');
  });

  test('over points of different lengths, peaks and lowest values are not compared; totals and averages are', async () => {
    const a = (await report('folio-test10', 'test10')).report;
    const b = structuredClone(a) as any;
    b.window.periodSeconds = 300;
    b.metrics.cpu.offload.peak = 40;
    b.metrics.cpu.offload.average = 30;
    const md = compareReports(a, b, ['a.json', 'b.json']);
    expect(md).toContain("A's points are 60 s and B's 300 s: peaks and lowest values are each of one point, so they are not compared");
    expect(md).toContain('| cpu.offload.peak | 80 | 40 | n/a | not comparable (60 s and 300 s points) |');
    expect(md).toMatch(/\| cpu\.offload\.average \| [\d.]+ \| 30 \| -?[\d.]+ \| /);
    expect(md).not.toMatch(/\| [^|]*(peak|lowest)[^|]* \|[^|]*\|[^|]*\| [-+]?\d/i);
    // The same period: peaks compare as before.
    expect(compareReports(a, { ...b, window: a.window }, ['a.json', 'b.json'])).toContain('| cpu.offload.peak | 80 | 40 | -40 | -50% |');
  });

  test('reports of different families cannot be compared', async () => {
    const a = (await report('folio-test10', 'test10')).report;
    const b = (await report('temporal-150wps', 'temporal-150wps')).report;
    expect(() => compareReports(a, b, ['a.json', 'b.json'])).toThrow('cannot compare a folio report (a.json) with a temporal report (b.json)');
  });

  test('flatten keeps nulls (no data) apart from zeros', () => {
    expect([...flatten({ a: { peak: null, average: 0 }, b: 2, c: 'text' })]).toEqual([
      ['a.peak', null],
      ['a.average', 0],
      ['b', 2],
    ]);
  });
});

describe('scenario types', () => {
  test('the fixtures belong to the scenarios they are read with', () => {
    expect((resolveScenario({ scenario: 'test10' }) as FolioScenario).phase.offload.serverless!.max).toBe(32);
    expect((resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario).preset.services.history.replicas).toBe(8);
  });
});

describe('Temporal on Aurora PostgreSQL: the store in the shape of the DSQL table', () => {
  const scenario = resolveScenario({ scenario: 'temporal-aurora-150wps' }) as TemporalScenario;
  const catalog = catalogFor(scenario);
  const t = [0, 1, 2, 3, 4].map((i) => Date.parse('2026-01-21T12:00:00Z') + i * 60_000);
  const series = (v: number[]) => ({ t: t.slice(0, v.length), v });
  // CommitThroughput is a per-second average over each minute.
  const points = new Map([
    ['commits', series([1000, 2000, 2000, 2000, 1000])],
    ['commitLatency', series([2, 3, 4, 3, 2])],
    ['storeCpu', series([40, 70, 80, 75, 30])],
    ['storeConnections', series([1000, 1000, 1000, 1000, 1000])],
    ['dbLoad', series([3, 6, 7, 6, 2])],
  ]);
  const window: ReportWindow = {
    start: new Date(t[0]),
    end: new Date(t[0] + 300_000),
    periodSeconds: 60,
    workflows: 40_000,
    benchmark: { workflowsPerSecond: 133.3, latencyMs: { p50: 180, p95: 240, p99: 300, max: 700 }, storeRoundTripMs: { median: 0.6, p99: 1.5 } },
  };
  const r = summarizeTemporal(scenario, catalog, points, window, unreadServer(scenario, 'http://127.0.0.1:9090', 'not asked'));

  test('commits are its transactions: per minute, in total, per workflow', () => {
    expect(r.store).toBe('aurora-postgresql');
    expect(r.metrics.transactions).toMatchObject({
      totalPerMinute: { peak: 120_000, average: 96_000 },
      total: 480_000,
      peakPerSecond: 2000,
      perWorkflow: 12,
      readOnly: null,
      readOnlyShare: null,
    });
    expect(r.metrics.aurora).toEqual({
      cpu: { peak: 80, average: 59 },
      connections: { peak: 1000, average: 1000 },
      dbLoad: { peak: 7, average: 4.8 },
      acu: null,
    });
    expect(r.metrics).not.toHaveProperty('occConflicts');
    expect(r.metrics).not.toHaveProperty('limiter');
  });

  test('the markdown names the store and shows its writer, the run, and how much of P99 one round trip is', () => {
    const md = renderMarkdown(r);
    expect(md).toMatch(/^# Temporal on Aurora PostgreSQL report: temporal-aurora-150wps/);
    expect(md).toContain('## Aurora PostgreSQL CloudWatch metrics (writer)');
    expect(md).toContain('| Commits | 120,000/min | 96,000/min | 2,000 commits/s at peak (CommitThroughput) |');
    expect(md).toContain('| DB load (active sessions) | 7 | 4.8 | DBLoad (Performance Insights) |');
    expect(md).toContain('| Connections | 1,000 | 1,000 | pools full at 1,000 (20 tasks) |');
    expect(md).toContain('| 133.3 | 180 ms | 240 ms | 300 ms | 700 ms | 0.6 ms / 1.5 ms |');
    expect(md).toContain("One store round trip (median) is 0.2% of the workflows' P99");
    expect(md).toContain('- 12 commits per workflow (480,000 commits / 40,000 workflows)');
    expect(md).not.toContain('DSQL');
    expect(md).not.toContain('rate limiter');
  });

  test("compare of a DSQL run and an Aurora run: seed 001's table, one row per run, then the deltas", async () => {
    const dsql = (
      await report('temporal-150wps', 'temporal-150wps', {
        workflows: 41_052,
        benchmark: { workflowsPerSecond: 136.74, latencyMs: { p50: 197, p95: 220, p99: 259, max: 594 }, storeRoundTripMs: null },
      })
    ).report;
    const md = compareReports(dsql, r, ['dsql.json', 'aurora.json']);
    expect(md).toContain(
      '| Run | Store | workflows/s | p50 (ms) | p95 (ms) | p99 (ms) | max latency (ms) | transactions per workflow | store round trip, median / p99 (ms) |',
    );
    expect(md).toMatch(/\| A: temporal-150wps \| Aurora DSQL \| 136\.74 \| 197 \| 220 \| 259 \| 594 \| [\d.]+ \| n\/a \|/);
    expect(md).toContain('| B: temporal-aurora-150wps | Aurora PostgreSQL | 133.3 | 180 | 240 | 300 | 700 | 12 | 0.6 / 1.5 |');
    expect(md).toContain('| transactions.perWorkflow |');
  });

  test('a report without a run says so in the table instead of inventing figures', async () => {
    const dsql = (await report('temporal-150wps', 'temporal-150wps')).report;
    const md = compareReports(dsql, r, ['dsql.json', 'aurora.json']);
    expect(md).toContain('| A: temporal-150wps | Aurora DSQL | n/a | n/a | n/a | n/a | n/a |');
    expect(md).toContain('n/a: dsql.json was not written from a bench run (report --run <run.json>), so it has no benchmark figures.');
  });
});

describe('a Serverless v2 range that pauses at 0 ACU', () => {
  const t0 = Date.parse('2026-01-21T10:00:00Z');
  const at = (minutes: number[]) => minutes.map((m) => t0 + m * 60_000);

  test('the stretches at 0 ACU, each to the end of its last point; a gap in the data ends one', () => {
    // 0-2 paused, 3-4 up, 5-6 paused, (7 missing), 8 paused.
    const p = pausedStretches({ t: at([0, 1, 2, 3, 4, 5, 6, 8]), v: [0, 0, 0, 2, 1, 0, 0, 0] }, 60);
    expect(p.stretches).toEqual([
      { from: '2026-01-21T10:00:00.000Z', to: '2026-01-21T10:03:00.000Z', minutes: 3 },
      { from: '2026-01-21T10:05:00.000Z', to: '2026-01-21T10:07:00.000Z', minutes: 2 },
      { from: '2026-01-21T10:08:00.000Z', to: '2026-01-21T10:09:00.000Z', minutes: 1 },
    ]);
    expect(p.minutes).toBe(6);
  });

  test('a cluster that never reached 0 has no stretch, and one that cannot pause has no paused figure at all', async () => {
    expect(pausedStretches({ t: at([0, 1]), v: [0.5, 1] }, 60)).toEqual({ minutes: 0, stretches: [] });
    const { report: r } = await report('folio-test10', 'test10');
    expect((r as FolioReport).metrics.acu!.paused).toBeNull();
  });

  test("the report says when the cluster was paused and what each first connection waited, from the writer's resume events", () => {
    const paused = editedCatalog((c) => (c.folio.phases.find((p: any) => p.name === 'test10').offload = { serverless: { min: 0, max: 32, autoPause: '10m' } }));
    const scenario = resolveScenario({ scenario: 'test10' }, paused) as FolioScenario;
    const window = { start: new Date(t0), end: new Date(t0 + 5 * 60_000), periodSeconds: 60 };
    const resumes = { resumes: [{ at: '2026-01-21T10:02:41.000Z', waitedSeconds: 14.6 }] };
    const r = summarizeFolio(scenario, catalogFor(scenario), new Map([['acu', { t: at([0, 1, 2, 3, 4]), v: [4, 0, 0, 3, 2] }]]), window, resumes);
    expect(r.metrics.acu!.paused).toEqual({
      minutes: 2,
      stretches: [{ from: '2026-01-21T10:01:00.000Z', to: '2026-01-21T10:03:00.000Z', minutes: 2 }],
      resumes: resumes.resumes,
      resumesUnread: null,
      resumesSince: null,
    });
    const md = renderMarkdown(r);
    expect(md).toContain('| Paused (0 ACU) | 2 min in 1 stretch |');
    expect(md).toContain('| 2026-01-21T10:01:00.000Z | 2026-01-21T10:03:00.000Z | 2 |');
    expect(md).toContain('| 2026-01-21T10:02:41.000Z | 14.6 |');
    // Unread events say why; they are never shown as "no resume".
    const unread = summarizeFolio(scenario, catalogFor(scenario), new Map([['acu', { t: at([0, 1]), v: [0, 0] }]]), window, {
      unread: 'DescribeEvents for folio-hybrid-serverless-writer failed: AccessDenied',
    });
    expect(unread.metrics.acu!.paused).toMatchObject({
      resumes: null,
      resumesUnread: 'DescribeEvents for folio-hybrid-serverless-writer failed: AccessDenied',
    });
    expect(renderMarkdown(unread)).toContain(
      'What the first connection after a pause waited was not read: DescribeEvents for folio-hybrid-serverless-writer failed: AccessDenied.',
    );
    const none = summarizeFolio(scenario, catalogFor(scenario), new Map([['acu', { t: at([0, 1]), v: [0, 0] }]]), window, { resumes: [] });
    expect(renderMarkdown(none)).toContain('The offload writer did not resume in the window: no "Initiated resume" event.');
  });
});
