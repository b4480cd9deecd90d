import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { join } from 'node:path';
import type { TemporalScenario } from '../config';
import type { RangeSeries } from '../lib/temporal/commands/report/prometheus-reader';
import { queriesFor, summarizeServer } from '../lib/temporal/commands/report/server-view';

/*
 * Recorded query_range answers of a real run (test/fixtures/query-range): the local cluster's
 * steady benchmark, scraped by a real Prometheus, recorded by the integration suite with
 * RECORD_FIXTURES=1. The offline tests summarize them as the report does; try:offline serves
 * them as a Prometheus would, moved in time to the window it is asked for.
 */

const DIR = join(__dirname, '../test/fixtures/query-range');

export interface QueryRangeFixture {
  readonly scenario: string;
  readonly window: { readonly start: string; readonly end: string };
  readonly stepSeconds: number;
  readonly workflowsCompleted: number;
  /** By query id: the series as the endpoint answered them. */
  readonly answers: Readonly<Record<string, RangeSeries[]>>;
}

export function recordQueryRange(
  scenario: TemporalScenario,
  window: { start: Date; end: Date },
  stepSeconds: number,
  answers: ReadonlyMap<string, RangeSeries[]>,
  workflowsCompleted: number,
): void {
  mkdirSync(DIR, { recursive: true });
  const fixture: QueryRangeFixture = {
    scenario: scenario.name,
    window: { start: window.start.toISOString(), end: window.end.toISOString() },
    stepSeconds,
    workflowsCompleted,
    answers: Object.fromEntries([...answers].sort(([a], [b]) => a.localeCompare(b))),
  };
  writeFileSync(join(DIR, `${scenario.name}.json`), `${JSON.stringify(fixture)}\n`);
}

export function loadQueryRange(name: string): QueryRangeFixture {
  return JSON.parse(readFileSync(join(DIR, `${name}.json`), 'utf8'));
}

/** The answers with every timestamp moved so that the recorded window starts at `start`. */
export function shiftedAnswers(f: QueryRangeFixture, start: Date): Map<string, RangeSeries[]> {
  const by = start.getTime() - new Date(f.window.start).getTime();
  return new Map(Object.entries(f.answers).map(([id, series]) => [id, series.map((s) => ({ labels: s.labels, t: s.t.map((t) => t + by), v: s.v }))]));
}

/** The recorded run's server view, as the report summarizes it, moved to start at `start`. */
export function fixtureServerView(scenario: TemporalScenario, start: Date, name = 'temporal-150wps') {
  const f = loadQueryRange(name);
  return summarizeServer(scenario, shiftedAnswers(f, start), f.stepSeconds, 'http://127.0.0.1:9090 (recorded)');
}

/**
 * The recorded points at another step, as the endpoint would answer it: counts (and histogram
 * buckets) of the steps a longer step holds are added up, a gauge keeps its highest value.
 */
function resampled(s: RangeSeries, shape: 'gauge' | 'count' | 'histogram', stepMs: number): { t: number[]; v: number[] } {
  if (!s.t.length) return { t: [], v: [] };
  const groups = new Map<number, number[]>();
  for (const [i, t] of s.t.entries()) {
    const k = s.t[0] + Math.floor((t - s.t[0]) / stepMs) * stepMs;
    groups.set(k, [...(groups.get(k) ?? []), s.v[i]]);
  }
  const t = [...groups.keys()];
  return { t, v: t.map((k) => (shape === 'gauge' ? Math.max(...groups.get(k)!) : groups.get(k)!.reduce((a, b) => a + b, 0))) };
}

/**
 * A Prometheus query API on loopback that answers the report's queries from the recording:
 * each query is recognized as the report builds it for the step it asks, and answered with
 * the recorded series moved to the window asked. A query it does not know is a 400, as a
 * Prometheus answers a bad one.
 */
export async function serveRecordedPrometheus(scenario: TemporalScenario, name = 'temporal-150wps'): Promise<{ url: string; server: Server }> {
  const f = loadQueryRange(name);
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const step = Number(String(form.get('step')).replace(/s$/, ''));
      const query = queriesFor(scenario, step).find((q) => q.promql === form.get('query'));
      const answers = shiftedAnswers(f, new Date(Number(form.get('start')) * 1000));
      res.setHeader('content-type', 'application/json');
      if (!query || req.url !== '/api/v1/query_range') {
        res.statusCode = 400;
        res.end(JSON.stringify({ status: 'error', errorType: 'bad_data', error: `not a recorded query: ${form.get('query')}` }));
        return;
      }
      const result = (answers.get(query.id) ?? []).map((s) => {
        const r = resampled(s, query.shape, step * 1000);
        return { metric: s.labels, values: r.t.map((t, i) => [t / 1000, String(r.v[i])]) };
      });
      res.end(JSON.stringify({ status: 'success', data: { resultType: 'matrix', result } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}
