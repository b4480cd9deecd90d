import type { TemporalScenario } from '../../../../config';
import { markdownTable } from '../../../commands/shared/markdown-table';
import type { FleetStatus } from './fleet';
import { round } from '../../../commands/shared/figure';
import type { LadderRecord, RunRecord } from '../../../commands/shared/run-record';
import type { BenchTargets } from './targets';

/** `bench status`: the workers' tasks and the benchmark ASG's instances. */
export function renderStatus(s: FleetStatus, t: BenchTargets, scenario: TemporalScenario): string {
  const rows = [
    [
      'Worker tasks',
      `${s.tasks.running} running, ${s.tasks.pending} pending, ${s.tasks.desired} desired (configured: ${scenario.preset.benchmark.workers.replicas}, fleet: ${scenario.fleet})`,
    ],
    [
      'Benchmark instances',
      `${s.instances.inService} in service, ${s.instances.starting} starting, ${s.instances.stopping} stopping (ASG desired ${s.instances.desired}, max ${s.instances.max})`,
    ],
    ['Latest service event', s.lastEvent ?? '-'],
  ];
  return markdownTable(['', `${t.cluster} / ${t.workerService} / ${t.asgName}`], rows);
}

/** The failed starts and their causes (gRPC status codes), most first. */
function startErrors(x: NonNullable<RunRecord['result']>['results']): string {
  if (x.startErrors === undefined) return '-';
  const causes = Object.entries(x.startErrorsByCause ?? {}).sort(([, a], [, b]) => b - a);
  return causes.length
    ? `${x.startErrors.toLocaleString('en-US')} (${causes.map(([c, n]) => `${c} ${n.toLocaleString('en-US')}`).join(', ')})`
    : x.startErrors.toLocaleString('en-US');
}

/** `bench run`: the window and the generator's results, in the shape of seed 000's table. */
export function renderRun(r: RunRecord, file: string): string {
  const rows = [
    ['Window', `${r.start} to ${r.end}`],
    ['Target Rate', `${r.targetRate} workflows/second (duration ${r.duration}, ramp-up ${r.rampUp})`],
  ];
  if (r.result) {
    const x = r.result.results;
    rows.push(
      ['Actual Rate', `${x.actualRate.toFixed(2)} workflows/second`],
      ['Workflows Started', x.workflowsStarted.toLocaleString('en-US')],
      ['Workflows Completed', x.workflowsCompleted.toLocaleString('en-US')],
      ['Workflows Failed', x.workflowsFailed.toLocaleString('en-US')],
      ['Open at the Deadline', x.workflowsTimedOut === undefined ? '-' : x.workflowsTimedOut.toLocaleString('en-US')],
      ['Start Errors', startErrors(x)],
      ['Latency P50 / P95 / P99 / Max', `${x.latency.p50} / ${x.latency.p95} / ${x.latency.p99} / ${x.latency.max} ms`],
    );
    if (r.result.passed === false) rows.push(['Thresholds', `failed: ${(r.result.failureReasons ?? []).join('; ')}`]);
  }
  rows.push(['Store Round Trip (median / P99)', roundTrip(r)]);
  return `${markdownTable(['Metric', 'Value'], rows)}\n\nRun record: ${file}\nReport: npm run report -- --scenario ${r.scenario} --run ${file}\n`;
}

/** The store probe's line, or why there is none. */
const roundTrip = (r: Pick<RunRecord, 'storeRoundTrip' | 'storeRoundTripNote'>) =>
  r.storeRoundTrip
    ? `${r.storeRoundTrip.medianMs} / ${r.storeRoundTrip.p99Ms} ms (${r.storeRoundTrip.queries} × SELECT 1 from the servers' network to ${r.storeRoundTrip.host})`
    : `not measured: ${r.storeRoundTripNote ?? 'no probe result'}`;

const figure = (v: number | null, unit = '') => (v === null ? '-' : `${round(v)}${unit}`);

/** `bench ladder`: each step offered, what it completed, its P99 and the judgement; then the highest rate held. */
export function renderLadder(r: LadderRecord, file: string): string {
  const l = r.ladder;
  const rows = l.steps.map((x) => [
    String(x.rate),
    figure(x.figures.completedPerSecond),
    x.figures.completedShare === null ? '-' : `${round(x.figures.completedShare * 100)}%`,
    figure(x.figures.p99Ms),
    x.figures.openGrowthShare === null ? '-' : `${round(x.figures.openGrowthShare * 100)}%`,
    x.held ? 'held' : `did not hold: ${x.failed.join('; ')}`,
  ]);
  const first = l.steps.find((x) => !x.held);
  const outcome =
    l.firstFailed === null
      ? `Every step held, up to ${l.highestHeld}/s, the last rate planned (${l.rates.join(', ')}): the limit is higher.`
      : l.highestHeld === null
        ? `The first step, ${l.firstFailed}/s, did not hold: start lower (--from or --rates).`
        : `Highest rate held: ${l.highestHeld}/s. First that did not: ${l.firstFailed}/s (${first!.failed.join('; ')}).`;
  const rules = `A step held when at least ${l.held.completedShareMin * 100}% of what it offered completed, its P99 stayed at or under ${l.held.p99MaxMs} ms, and the open workflows grew by at most ${l.held.openGrowthShareMax * 100}% of its second half's starts (observability.ladder).`;
  return [
    markdownTable(['Offered (wps)', 'Completed (wps)', 'Completed of offered', 'P99 (ms)', 'Open growth', 'Step'], rows),
    '',
    outcome,
    rules,
    `Each step: ${l.step}. Store round trip before the first (median / P99): ${roundTrip(r)}.`,
    '',
    `Run record: ${file}`,
    `Report (the steps charted, the bottleneck at the first that did not hold): npm run report -- --scenario ${r.scenario} --run ${file}`,
    '',
  ].join('\n');
}
