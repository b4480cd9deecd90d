import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { mockClient } from 'aws-sdk-client-mock';
import type { TemporalScenario } from '../../../../../config';
import { renderLadderCharts } from '../../../../../lib/temporal/commands/report/temporal-charts';
import { renderMarkdown } from '../../../../../lib/commands/report/render-report';
import { type ServerView, unreadServer } from '../../../../../lib/temporal/commands/report/server-view';
import { type TemporalReport, summarizeTemporal } from '../../../../../lib/temporal/commands/report/temporal-summary';
import type { Ladder } from '../../../../../lib/commands/shared/run-record';
import { fixtureServerView } from '../../../../../harness/query-range-fixture';
import { generatorResult } from '../../../../support/generator-result';
import { fixtureReport } from '../../../../support/report-fixture';

/*
 * A ladder's run record in the report: the steps, the highest rate held, and the bottleneck
 * at the first step that did not hold, judged on that step's own server view; the proposal
 * follows that step, not the whole ladder. Over the recorded 150 wps window (12:00 to 12:05).
 */

const cw = mockClient(CloudWatchClient);
const RULES = { completedShareMin: 0.99, p99MaxMs: 1000, openGrowthShareMax: 0.05 };

/** Steps of one minute from 12:00, the last (600/s) three minutes long; `failed`: whether it did not hold. */
function ladder(failed = true): Ladder {
  const at = (m: number) => new Date(Date.UTC(2026, 0, 21, 12, m)).toISOString();
  const step = (rate: number, from: number, to: number, held: boolean) => ({
    rate,
    start: at(from),
    end: at(to),
    exitCode: 0,
    result: generatorResult(rate, (to - from) * 60),
    held,
    failed: held ? [] : ['completed 90000 of 108000 offered (83.3%, below 99%)'],
    figures: {
      offered: rate * (to - from) * 60,
      completed: rate * (to - from) * 60,
      completedShare: held ? 1 : 0.833,
      completedPerSecond: held ? rate : 500,
      p99Ms: held ? 250 : 4000,
      openGrowthShare: held ? 0 : 0.4,
    },
  });
  return {
    step: '1m',
    held: RULES,
    rates: [150, 300, 600],
    steps: [step(150, 0, 1, true), step(300, 1, 2, true), step(600, 2, 5, !failed)],
    highestHeld: failed ? 300 : 600,
    firstFailed: failed ? 600 : null,
  };
}

/** The recorded server view with every worker slot taken and activities waiting seconds for one: a worker-bound step. */
function starved(view: ServerView): ServerView {
  const r = view.run;
  return {
    ...view,
    run: {
      ...r,
      workerSlots: { ...r.workerSlots, freeLowest: 0, freeLowestShare: 0 },
      scheduleToStartMs: { ...r.scheduleToStartMs, workerActivity: { p50: 5000, p95: 9000, p99: 9900 } },
    },
  };
}

async function ladderReport(l: Ladder, failedStep: (s: TemporalScenario) => ServerView | undefined): Promise<TemporalReport> {
  const f = await fixtureReport(cw, 'temporal-150wps', 'temporal-150wps', { ladder: l });
  const scenario = f.scenario as TemporalScenario;
  return summarizeTemporal(scenario, f.catalog, f.points, f.window, f.server!, failedStep(scenario));
}

beforeEach(() => cw.reset());

test('the bottleneck at the first failing step is judged on its own view, and the proposal follows it', async () => {
  const r = await ladderReport(ladder(), (s) => starved(fixtureServerView(s, new Date('2026-01-21T12:02:00Z'))));
  expect(r.ladder).toMatchObject({ highestHeld: 300, firstFailed: 600, atFirstFailed: { rate: 600, start: '2026-01-21T12:02:00.000Z', unread: null } });
  expect(r.ladder!.atFirstFailed!.bottlenecks.ranked[0].component).toBe('workers');
  // The whole window (the recorded healthy run) was not worker-bound: the step is what says so.
  expect(r.bottlenecks.ranked.map((b) => b.component)).not.toContain('workers');
  expect(r.proposal).toMatchObject({ status: 'proposed', rule: 'workers' });
  const md = renderMarkdown(r, []);
  expect(md).toContain('## The ladder');
  expect(md).toContain('| 600 | 500 | 83% | 4,000 ms | 40% | did not hold: completed 90000 of 108000 offered (83.3%, below 99%) |');
  expect(md).toContain('**Highest rate held: 300/s.** The first that did not: 600/s.');
  expect(md).toMatch(
    /### Where 600\/s was held back \(its step alone, 2026-01-21T12:02:00.000Z to 2026-01-21T12:05:00.000Z\)\n\n\| Rank \| Component \|[^\n]*\n[^\n]*\n\| 1 \| workers \|/,
  );
});

test('a failing step whose servers were not read is not judged, and proposes nothing', async () => {
  const r = await ladderReport(ladder(), (s) => unreadServer(s, 'http://x', 'connection refused'));
  expect(r.ladder!.atFirstFailed).toMatchObject({ unread: 'connection refused', bottlenecks: { ranked: [] } });
  expect(r.proposal.status).toBe('unjudged');
  expect(renderMarkdown(r, [])).toContain("Not judged: the servers' metrics over the step were not read (connection refused).");
});

test('a ladder that held every step says the limit is higher, and judges no step', async () => {
  const r = await ladderReport(ladder(false), () => undefined);
  expect(r.ladder).toMatchObject({ highestHeld: 600, firstFailed: null, atFirstFailed: null });
  expect(renderMarkdown(r, [])).toContain('**Every step held**, up to 600/s, the last rate planned: the limit is higher (climb again from 600/s).');
});

test('the charts draw each step against its offered rate, the failing one in the limit colour, with the bound and the highest held', async () => {
  const r = await ladderReport(ladder(), (s) => starved(fixtureServerView(s, new Date('2026-01-21T12:02:00Z'))));
  const [throughput, latency] = renderLadderCharts(r.ladder!, 'temporal-150wps ladder');
  expect([throughput.file, latency.file]).toEqual(['ladderThroughput.svg', 'ladderLatency.svg']);
  expect(throughput.svg).toContain('offered (workflows/s)');
  expect(throughput.svg).toContain('highest held 300/s');
  expect(latency.svg).toContain('bound 1000 ms');
  // The failing step's point, and only it, in the limit colour.
  expect(throughput.svg.match(/fill="#c23531"/g)?.length).toBeGreaterThanOrEqual(1);
  const allHeld = renderLadderCharts({ ...r.ladder!, steps: r.ladder!.steps.map((s) => ({ ...s, held: true })) }, 'x')[0];
  expect(allHeld.svg).not.toContain('fill="#c23531"');
});
