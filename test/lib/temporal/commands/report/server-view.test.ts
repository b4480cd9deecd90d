import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEMPORAL_ROLES, type TemporalScenario, resolveScenario } from '../../../../../config';
import { editedCatalog } from '../../../../../harness/catalog';
import {
  type Fetch,
  PrometheusError,
  PrometheusReader,
  isLoopback,
  rangeStep,
  workspaceEndpoint,
} from '../../../../../lib/temporal/commands/report/prometheus-reader';
import { metricNames, serverQueries } from '../../../../../lib/temporal/contract/server-queries';
import { queriesFor, readServerView, summarizeServer } from '../../../../../lib/temporal/commands/report/server-view';
import { histogramQuantile } from '../../../../../lib/temporal/commands/report/range-series';
import { bottleneckFigures, findBottlenecks } from '../../../../../lib/temporal/commands/report/bottlenecks';
import { renderMarkdown } from '../../../../../lib/commands/report/render-report';
import { catalogFor } from '../../../../../lib/families';
import { summarizeTemporal } from '../../../../../lib/temporal/commands/report/temporal-summary';
import { fixtureServerView, loadQueryRange, shiftedAnswers } from '../../../../../harness/query-range-fixture';

/*
 * The report's reading of the servers' own metrics, offline: the recorded query_range answers
 * of a real local run (test/integration/temporal-local.test.ts records them), the queries held
 * to the metric names the emitting code defines, and every check fed bad data.
 */

const ROOT = join(__dirname, '../../../../..');
const contract = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/temporal-metrics/contract.json'), 'utf8'));
const scenario = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
const aurora = resolveScenario({ scenario: 'temporal-aurora-150wps' }) as TemporalScenario;
const recorded = loadQueryRange('temporal-150wps');
const rules = scenario.environment.observability.bottlenecks;

/** The exported names of a recorded metric: tally exports a timer or histogram as three series. */
const exported = (name: string, type: string) => (type === 'timer' || type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name]);
const known = (store: 'dsql' | 'aurora-postgresql') =>
  new Set(
    [contract.stores[store].metrics, contract.sdk.metrics, contract.benchmark.metrics].flatMap((m: Record<string, { type: string }>) =>
      Object.entries(m).flatMap(([name, d]) => exported(name, d.type)),
    ),
  );

describe('the queries read only metrics the emitting code defines', () => {
  test.each(['dsql', 'aurora-postgresql'] as const)('%s: every metric in every query is recorded for that store, with file and line', (store) => {
    const names = known(store);
    const queries = serverQueries({ store, namespace: 'benchmark', stepSeconds: 60 });
    for (const q of queries) {
      const used = metricNames(q.promql);
      expect(used.length).toBeGreaterThan(0);
      for (const m of used) expect({ query: q.id, metric: m, recorded: names.has(m) }).toEqual({ query: q.id, metric: m, recorded: true });
    }
    for (const d of Object.values(contract.stores[store].metrics) as { source: string }[]) expect(d.source).toMatch(/^[\w/.-]+\.go:\d+$/);
  });

  test("the DSQL plugin's own metrics are asked of the dsql store only", () => {
    const auroraNames = serverQueries({ store: 'aurora-postgresql', namespace: 'x', stepSeconds: 60 }).flatMap((q) => metricNames(q.promql));
    expect(auroraNames.filter((m) => m.startsWith('dsql_'))).toEqual([]);
    const dsqlNames = serverQueries({ store: 'dsql', namespace: 'x', stepSeconds: 60 }).flatMap((q) => metricNames(q.promql));
    expect(dsqlNames).toEqual(
      expect.arrayContaining(['dsql_pool_wait_total', 'dsql_tx_conflict_total', 'dsql_tx_retry_total', 'dsql_pool_wait_duration_bucket']),
    );
  });

  test('the recording answers every query the report asks at its step, and its fork record is at the pinned commit', () => {
    expect(Object.keys(recorded.answers).sort()).toEqual(
      queriesFor(scenario, recorded.stepSeconds)
        .map((q) => q.id)
        .sort(),
    );
    const servers = scenario.environment.servers;
    expect(contract.stores.dsql.commit).toBe(servers.dsqlFork.commit);
    expect(contract.stores['aurora-postgresql'].version).toBe(`v${servers.upstream.release}`);
  });
});

describe('histogram quantiles follow Prometheus (histogram_quantile)', () => {
  const b = [
    { le: 0.1, count: 50 },
    { le: 0.2, count: 90 },
    { le: 0.5, count: 100 },
    { le: Infinity, count: 100 },
  ];
  test('linear inside the bucket that holds the rank', () => {
    expect(histogramQuantile(0.5, b)).toBeCloseTo(0.1);
    expect(histogramQuantile(0.25, b)).toBeCloseTo(0.05);
    expect(histogramQuantile(0.7, b)).toBeCloseTo(0.15);
    expect(histogramQuantile(0.95, b)).toBeCloseTo(0.35);
  });
  test('the +Inf bucket gives the highest finite bound; no observations or no +Inf give no number', () => {
    expect(
      histogramQuantile(0.99, [
        { le: 1, count: 1 },
        { le: Infinity, count: 10 },
      ]),
    ).toBe(1);
    expect(
      histogramQuantile(0.5, [
        { le: 1, count: 0 },
        { le: Infinity, count: 0 },
      ]),
    ).toBeNull();
    expect(histogramQuantile(0.5, [{ le: 1, count: 4 }])).toBeNull();
    expect(histogramQuantile(0.5, [])).toBeNull();
  });
});

describe('the recorded run, as the report reads it', () => {
  const view = fixtureServerView(scenario, new Date(recorded.window.start));

  test.each(TEMPORAL_ROLES)('%s: its pool is the size the stack renders, and it is judged', (role) => {
    expect(view.persistence[role].poolMax).toBe(scenario.preset.pools[role].maxConns);
    expect(view.persistence[role].health).not.toBe('unknown');
  });

  test('state transitions are counted per persisted update, consistent with the workflows completed', () => {
    const perWorkflow = view.run.stateTransitions! / recorded.workflowsCompleted;
    expect(perWorkflow).toBeGreaterThanOrEqual(3);
    expect(perWorkflow).toBeLessThanOrEqual(12);
  });

  test("the local run's plugin is upstream's: the DSQL plugin's counters are no data, not zero, in the figures and the table", () => {
    for (const role of TEMPORAL_ROLES) expect(view.persistence[role]).toMatchObject({ poolWaits: null, conflicts: null, retries: null });
    const window = { start: new Date(recorded.window.start), end: new Date(recorded.window.end), periodSeconds: 60 };
    const md = renderMarkdown(summarizeTemporal(scenario, catalogFor(scenario, { dsqlClusterId: 'x' }), new Map(), window, view));
    expect(md).toMatch(/\n\| history \| 50 \| \d+ \| \d+ \/ [\d.]+ \| [\d.]+ \| no data \| no data \| no data \| no data \|/);
    expect(md).toContain('| history | healthy | OCC conflicts: no data; pool waits: no data;');
  });

  test('a total from the servers counts the span their samples cover, and says so when that is less than the window', () => {
    const covered = view.run.stateTransitionsCoverSeconds!;
    expect(covered % recorded.stepSeconds).toBe(0);
    const line = (minutes: number) => {
      const start = new Date(recorded.window.start);
      const window = { start, end: new Date(start.getTime() + minutes * 60_000), periodSeconds: 60 };
      return renderMarkdown(summarizeTemporal(scenario, catalogFor(scenario, { dsqlClusterId: 'x' }), new Map(), window, view))
        .split('\n')
        .find((l) => l.startsWith('| State transitions/s'))!;
    };
    const transitions = Math.round(view.run.stateTransitions!).toLocaleString('en-US');
    // A window the samples fill: the window's count.
    expect(line(covered / 60)).toContain(`(${transitions} in the window)`);
    // A longer window: the count is of the covered span only, and says how much that is.
    expect(line(5)).toContain(`(${transitions} in the ${covered} s the servers' samples cover, of the window's 300 s)`);
  });

  test('a window with no data at all: every rule "not judged", and nothing said to have stayed within its thresholds', () => {
    const window = { start: new Date(recorded.window.start), end: new Date(recorded.window.end), periodSeconds: 60 };
    const nothing = summarizeServer(scenario, new Map(), recorded.stepSeconds, 'x');
    const md = renderMarkdown(summarizeTemporal(scenario, catalogFor(scenario, { dsqlClusterId: 'x' }), new Map(), window, nothing));
    const section = md.slice(md.indexOf('## Where the bottleneck was'), md.indexOf('\n## ', md.indexOf('## Where the bottleneck was') + 1));
    expect(section).toMatch(/Not judged \(no data\): /);
    expect(section).not.toContain('None:');
    expect(section).not.toContain('stayed within');
  });

  test('a healthy run has no bottleneck', () => {
    const b = findBottlenecks(rules, bottleneckFigures(view, { historyCpuPeakPercent: 40, commitLatencyMs: 4, minutes: 1 }));
    expect(b.ranked).toEqual([]);
  });

  test('the same answers moved in time give the same figures', () => {
    const later = summarizeServer(scenario, shiftedAnswers(recorded, new Date('2030-01-01T00:00:00Z')), recorded.stepSeconds, 'x');
    expect(later.persistence).toEqual(view.persistence);
    expect(later.run).toEqual(view.run);
  });
});

describe('service health: each word is earned by its evidence, and bad runs are not called healthy', () => {
  const step = 60;
  const t = [0, 1, 2].map((i) => Date.parse('2026-01-21T12:00:00Z') + i * step * 1000);
  const series = (labels: Record<string, string>, v: number[]) => ({ labels, t: t.slice(0, v.length), v });
  const history = { service_name: 'history' };
  /** A history role with a 50-connection pool that the DSQL plugin reports on, and whatever else is given. */
  const judged = (extra: Record<string, ReturnType<typeof series>[]>) =>
    summarizeServer(
      scenario,
      new Map(
        Object.entries({
          poolMax: [series(history, [50, 50, 50])],
          dsqlPoolMax: [series(history, [50, 50, 50])],
          poolInUse: [series(history, [5, 9, 7])],
          ...extra,
        }),
      ),
      step,
      'x',
    ).persistence.history;

  test('a pool with no waits, conflicts or faults is healthy, and says so with its figures', () => {
    expect(judged({})).toMatchObject({
      health: 'healthy',
      poolWaits: 0,
      conflicts: 0,
      evidence: 'No OCC conflicts observed; no pool waits; 9 of 50 connections in use at peak',
    });
  });
  test('waits for a connection are saturated', () => {
    expect(judged({ poolWaits: [series(history, [0, 12, 3])] })).toMatchObject({ health: 'saturated', poolWaits: 15 });
  });
  test('every connection in use at once is saturated', () => {
    expect(judged({ poolInUseShare: [series(history, [0.5, 1, 0.9])] }).health).toBe('saturated');
  });
  test('OCC conflicts are contended', () => {
    expect(judged({ conflicts: [series(history, [4, 0, 1])], retries: [series(history, [5, 0, 1])] })).toMatchObject({
      health: 'contended',
      evidence: expect.stringContaining('5 OCC conflicts, 6 retries'),
    });
  });
  test('unavailable stores and exhausted retries are failing, named by class', () => {
    const r = judged({
      persistenceErrors: [series({ ...history, error_type: 'serviceerror_Unavailable' }, [0, 3, 0])],
      retriesExhausted: [series(history, [1])],
    });
    expect(r.health).toBe('failing');
    expect(r.evidence).toBe('1 transactions ran out of retries; 3 × serviceerror_Unavailable');
  });
  test('a role without pool metrics is unknown, not healthy', () => {
    expect(summarizeServer(scenario, new Map(), step, 'x').persistence.history.health).toBe('unknown');
  });
});

describe('where the bottleneck was: the rules in config, fed bad runs', () => {
  const healthy = {
    workerScheduleToStartP50Ms: 5,
    workerSlotsFreeLowestShare: 0.9,
    matchingBacklogPeak: 0,
    matchingBacklogAgePeakSeconds: 0,
    historyCpuPeakPercent: 40,
    historyPersistenceP99Ms: 10,
    storePoolWaitsPerMinute: 0,
    storePoolInUsePeakShare: 0.3,
    storeConflictsPerMinute: 0,
    storeCommitLatencyMs: 4,
    generatorPeakStartShareOfTarget: 1,
    generatorStartErrors: 0,
  };

  test('workers that take tasks late with every slot busy are the bottleneck (the reference run of ~1,170/s)', () => {
    const b = findBottlenecks(rules, { ...healthy, workerScheduleToStartP50Ms: 53_000, workerSlotsFreeLowestShare: 0, matchingBacklogPeak: 27_600 });
    expect(b.ranked[0].component).toBe('workers');
    expect(b.ranked.map((f) => f.component)).not.toContain('matching');
    expect(b.ranked[0].evidence.join(' ')).toContain('workerScheduleToStartP50Ms 53,000 (above 200)');
  });

  test('a backlog while worker slots stand free is matching: pollers starved (the reference attempt at 400/s)', () => {
    const b = findBottlenecks(rules, { ...healthy, matchingBacklogPeak: 27_600, workerSlotsFreeLowestShare: 0.8, generatorPeakStartShareOfTarget: 1.9 });
    expect(b.ranked[0].component).toBe('matching');
  });

  test('ranked by how far past its threshold each went', () => {
    const b = findBottlenecks(rules, { ...healthy, historyCpuPeakPercent: 90, storePoolWaitsPerMinute: 50 });
    expect(b.ranked.map((f) => f.component)).toEqual(['store', 'history']);
  });

  test('a figure with no data holds no rule and is named, never read as healthy', () => {
    const b = findBottlenecks(rules, { ...healthy, workerScheduleToStartP50Ms: null, workerSlotsFreeLowestShare: null });
    expect(b.ranked).toEqual([]);
    expect(b.unjudged).toEqual(['workerScheduleToStartP50Ms', 'workerSlotsFreeLowestShare']);
  });

  test('a rule naming a figure the report does not compute is refused in one line', () => {
    const withRule = (rule: unknown) => editedCatalog((c) => (c.temporal.environment.observability.bottlenecks = [rule]));
    expect(() =>
      resolveScenario({ scenario: 'temporal-150wps' }, withRule({ component: 'workers', when: { figure: 'slotsFree', below: 1 }, says: 'x' })),
    ).toThrow(/"slotsFree" is not a figure the report computes \(valid: workerScheduleToStartP50Ms, /);
    expect(() =>
      resolveScenario({ scenario: 'temporal-150wps' }, withRule({ component: 'workers', when: { figure: 'generatorStartErrors' }, says: 'x' })),
    ).toThrow(/needs exactly one of above or below/);
  });
});

describe('the reader: signed for a workspace, refused where it cannot be trusted', () => {
  const matrix = (result: unknown[]) => JSON.stringify({ status: 'success', data: { resultType: 'matrix', result } });
  const calls: { url: string; headers: Record<string, string>; body: string }[] = [];
  const answering =
    (status: number, body: string): Fetch =>
    async (url, init) => {
      calls.push({ url, headers: init.headers, body: init.body });
      return { ok: status < 300, status, text: async () => body };
    };
  const q = { query: 'up{}', start: new Date('2026-01-21T12:00:00Z'), end: new Date('2026-01-21T12:10:00Z'), stepSeconds: 60 };
  const credentials = async () => ({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' });
  beforeEach(() => (calls.length = 0));

  test("a workspace's queries are signed with SigV4 for service aps in its region", async () => {
    const reader = new PrometheusReader(
      workspaceEndpoint('eu-west-1', 'ws-123'),
      answering(
        200,
        matrix([
          {
            metric: { a: 'b' },
            values: [
              [1768996800, '1.5'],
              [1768996860, 'NaN'],
            ],
          },
        ]),
      ),
      credentials,
    );
    const series = await reader.queryRange(q);
    expect(series).toEqual([{ labels: { a: 'b' }, t: [1768996800000], v: [1.5] }]);
    expect(calls[0].url).toBe('https://aps-workspaces.eu-west-1.amazonaws.com/workspaces/ws-123/api/v1/query_range');
    expect(calls[0].headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/aps\/aws4_request, SignedHeaders=[^,]*host[^,]*, Signature=[0-9a-f]{64}$/,
    );
    expect(new URLSearchParams(calls[0].body).get('step')).toBe('60s');
  });

  test('only a loopback endpoint goes unsigned', () => {
    expect(isLoopback('http://127.0.0.1:9090')).toBe(true);
    expect(isLoopback('http://localhost:9090')).toBe(true);
    expect(isLoopback('http://prometheus.internal:9090')).toBe(false);
    expect(() => new PrometheusReader({ url: 'http://prometheus.internal:9090' }, answering(200, matrix([])))).toThrow(PrometheusError);
  });

  test.each([
    [
      'an HTTP error with its reason',
      403,
      JSON.stringify({ message: 'User is not authorized to perform: aps:QueryMetrics' }),
      /HTTP 403: User is not authorized to perform: aps:QueryMetrics/,
    ],
    [
      'a Prometheus error',
      400,
      JSON.stringify({ status: 'error', errorType: 'bad_data', error: 'exceeded maximum resolution of 11,000 points' }),
      /HTTP 400 \(bad_data\): exceeded maximum resolution/,
    ],
    ['not JSON', 502, '<html>Bad Gateway</html>', /HTTP 502: <html>Bad Gateway/],
    [
      'a vector where a matrix belongs',
      200,
      JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [] } }),
      /answered a vector to a range query/,
    ],
  ])('refuses %s', async (_what, status, body, message) => {
    const reader = new PrometheusReader({ url: 'http://127.0.0.1:9090' }, answering(status, body));
    await expect(reader.queryRange(q)).rejects.toThrow(message);
  });

  test('a refusal becomes the view\'s reason, every figure "no data", and the report says so', async () => {
    const reader = new PrometheusReader({ url: 'http://127.0.0.1:9090' }, answering(403, JSON.stringify({ message: 'denied' })));
    const { view, answers } = await readServerView(scenario, reader, q, 15);
    expect(answers).toBeNull();
    expect(view.unread).toContain('HTTP 403: denied');
    for (const role of TEMPORAL_ROLES) expect(view.persistence[role]).toMatchObject({ poolMax: null, health: 'unknown' });
    expect(view.run.stateTransitions).toBeNull();
  });

  test('each point looks back one step, so the first is a step into the window: nothing from before it is counted', async () => {
    const reader = new PrometheusReader({ url: 'http://127.0.0.1:9090' }, answering(200, matrix([])));
    await readServerView(scenario, reader, q, 15);
    const starts = calls.map((c) => Number(new URLSearchParams(c.body).get('start')));
    expect(new Set(starts)).toEqual(new Set([q.start.getTime() / 1000 + 60]));
    expect(calls.map((c) => new URLSearchParams(c.body).get('query'))).toEqual(expect.arrayContaining([expect.stringContaining('[60s]')]));
  });

  test('a window shorter than one step is refused, not read as an empty run', async () => {
    const reader = new PrometheusReader({ url: 'http://127.0.0.1:9090' }, answering(200, matrix([])));
    const { view } = await readServerView(scenario, reader, { start: q.start, end: new Date(q.start.getTime() + 30_000) }, 15);
    expect(view.unread).toBe('the window (30 s) is shorter than one step (60 s, four scrapes)');
    expect(calls).toEqual([]);
  });

  test('the step keeps every series within the point limits, and at four scrapes at least', () => {
    expect(rangeStep(600, 60)).toBe(60);
    expect(rangeStep(86_400, 60)).toBe(180);
    expect(rangeStep(30 * 86_400, 60) * 600).toBeGreaterThanOrEqual(30 * 86_400);
    expect(queriesFor(aurora, 60).some((q) => q.promql.includes('[60s]'))).toBe(true);
  });
});
