import type { TemporalScenario } from '../../../config';
import { markdownTable } from '../shared/markdown-table';
import type { FleetStatus } from './fleet';
import type { RunRecord } from '../shared/run-record';
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
  const rt = r.storeRoundTrip;
  rows.push([
    'Store Round Trip (median / P99)',
    rt
      ? `${rt.medianMs} / ${rt.p99Ms} ms (${rt.queries} × SELECT 1 from the servers' network to ${rt.host})`
      : `not measured: ${r.storeRoundTripNote ?? 'no probe result'}`,
  ]);
  return `${markdownTable(['Metric', 'Value'], rows)}\n\nRun record: ${file}\nReport: npm run report -- --scenario ${r.scenario} --run ${file}\n`;
}
