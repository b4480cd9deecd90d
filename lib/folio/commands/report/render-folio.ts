import { markdownTable } from '../../../commands/shared/markdown-table';
import { bytes, heading, num, NO_DATA, pct, pctValue } from '../../../commands/report/report-format';
import type { FolioReport } from './folio-summary';

/** A FOLIO report's body: the phase's configuration, the capacity, both writers, the waits. */
export function renderFolio(r: FolioReport): string[] {
  const c = r.configured;
  const m = r.metrics;
  return [
    ...heading('FOLIO hybrid Aurora report', r),
    `Primary writer ${c.primaryInstanceClass}; offload cluster ${c.offload}; routed to the offload cluster: ${c.routedToOffload.join(', ') || 'none'}.`,
    '',
    ...(c.acu && m.acu ? capacity(c.acu, m.acu, r.coverage.acu) : []),
    '## Writer CPU',
    '',
    markdownTable(
      ['Cluster', 'Peak', 'Average'],
      [
        [`primary (${c.primaryInstanceClass})`, pctValue(m.cpu.primary.peak), pctValue(m.cpu.primary.average)],
        [`offload (${c.offload})`, pctValue(m.cpu.offload.peak), pctValue(m.cpu.offload.average)],
      ],
    ),
    '',
    '## Connections, memory and load',
    '',
    markdownTable(
      ['Cluster', 'Connections peak', 'Connections average', 'Freeable memory lowest', 'DB load peak', 'DB load average'],
      (['primary', 'offload'] as const).map((k) => [
        k,
        num(m.connections[k].peak, 0),
        num(m.connections[k].average, 0),
        bytes(m.freeableMemoryLowestBytes[k]),
        num(m.dbLoad[k].peak, 1),
        num(m.dbLoad[k].average, 1),
      ]),
    ),
    '',
    ...waitLines(r.waits),
  ];
}

/** Where the offload writer's load waited, or why that is not known. */
function waitLines(w: FolioReport['waits']): string[] {
  if (!w.offload) return ['## Where the offload writer waited', '', `Not read: ${w.unread ?? 'no load in the window'}.`, ''];
  return [
    '## Where the offload writer waited',
    '',
    `Database load by wait event (Performance Insights); I/O waits: ${pct(w.offload.ioShare)} of it.`,
    '',
    markdownTable(
      ['Wait event', 'Type', 'Share of load'],
      w.offload.top.map((e) => [e.name, e.type, pct(e.share)]),
    ),
    '',
  ];
}

/** The Serverless v2 offload cluster's capacity section. */
function capacity(
  c: NonNullable<FolioReport['configured']['acu']>,
  a: NonNullable<FolioReport['metrics']['acu']>,
  covered: FolioReport['coverage'][string] | undefined,
): string[] {
  // ACU-hours count only the minutes with a point: said, so they are not read as the average times the window.
  const partial = covered && covered.points > 0 && covered.points < covered.expected ? ` (${covered.points} of ${covered.expected} points with data)` : '';
  return [
    `## Serverless v2 capacity (configured ${c.min}-${c.max} ACU)`,
    '',
    markdownTable(
      ['Metric', 'Value'],
      [
        ['Peak ACU', a.peak === null ? NO_DATA : `${num(a.peak, 1)} (${pct(a.peakShareOfMax)} of max)`],
        ['Average ACU', num(a.average, 2)],
        ['Lowest ACU', num(a.lowest, 1)],
        [
          `Time at ceiling (>= ${c.ceilingPercentOfMax}% of ${c.max} ACU)`,
          a.minutesAtCeiling === null ? NO_DATA : `${num(a.minutesAtCeiling, 0)} min (${pct(a.shareOfWindowAtCeiling)} of the window)`,
        ],
        [`ACU-hours${partial}`, num(a.acuHours, 2)],
        ['ACU utilization (peak / average)', `${pctValue(a.utilization.peak)} / ${pctValue(a.utilization.average)}`],
        ...(a.paused
          ? [['Paused (0 ACU)', `${num(a.paused.minutes, 0)} min in ${a.paused.stretches.length} stretch${a.paused.stretches.length === 1 ? '' : 'es'}`]]
          : []),
      ],
    ),
    '',
    ...(a.paused?.stretches.length
      ? [
          markdownTable(
            ['Paused from', 'Resumed by', 'Minutes'],
            a.paused.stretches.map((x) => [x.from, x.to, num(x.minutes, 0)]),
          ),
          '',
        ]
      : []),
    ...(a.paused ? resumeLines(a.paused) : []),
  ];
}

/** What the first connection after each pause waited, from the writer's RDS events. */
function resumeLines(p: NonNullable<NonNullable<FolioReport['metrics']['acu']>['paused']>): string[] {
  if (p.resumes === null) return [`What the first connection after a pause waited was not read: ${p.resumesUnread ?? 'no reason given'}.`, ''];
  const since = p.resumesSince ? ` (RDS keeps events 14 days: from ${p.resumesSince})` : '';
  if (!p.resumes.length) return [`The offload writer did not resume in the window${since}: no "Initiated resume" event.`, ''];
  return [
    markdownTable(
      ['Resume started', 'First connection waited (s)'],
      p.resumes.map((r) => [r.at, r.waitedSeconds === null ? "not resumed by the window's end" : num(r.waitedSeconds, 1)]),
    ),
    '',
    `From the offload writer's RDS events${since}: each resume from its start ("Initiated resume") to its end ("Successfully resumed"), which is what the connection that woke it waited.`,
    '',
  ];
}
