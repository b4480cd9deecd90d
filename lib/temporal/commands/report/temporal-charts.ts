import * as echarts from 'echarts';
import { TEMPORAL_ROLES } from '../../../../config';
import { type Chart, type DrawnPanel, LIMIT_COLOR, niceCeiling, PERCENTILE_COLORS, renderPanel, stableIds, WIDTH } from '../../../commands/report/charts';
import type { LadderView } from './ladder-view';
import type { ServerView } from './server-view';

/* The Temporal report's own charts: the servers' view over time, and a ladder's steps. */

/** The server view's series over time: the queue and latency charts beside CloudWatch's. */
export function renderServerCharts(view: ServerView, window: { start: Date; end: Date }, subtitle: string): Chart[] {
  const s = view.series;
  const panel = (id: string, title: string, unit: string, lines: [string, string][], levels: DrawnPanel['levels'] = []) =>
    renderPanel(
      { id, title, unit, lines: lines.map(([name, key]) => ({ name, points: s[key] ?? { t: [], v: [] } })), levels, periodSeconds: view.stepSeconds },
      window,
      subtitle,
    );
  return [
    panel('serverStateTransitions', 'State transitions (history)', 'per second', [['state transitions/s', 'stateTransitionsPerSecond']]),
    panel('serverStartLatency', 'StartWorkflowExecution latency at the frontend (P99)', 'ms', [['P99', 'startLatencyP99']]),
    panel('serverScheduleToStart', 'Schedule-to-start latency (P50)', 'ms', [
      ['workflow tasks (server)', 'serverWorkflowScheduleToStartP50'],
      ['activities (server)', 'serverActivityScheduleToStartP50'],
      ['workflow tasks (workers)', 'workerWorkflowScheduleToStartP50'],
      ['activities (workers)', 'workerActivityScheduleToStartP50'],
    ]),
    panel('serverBacklog', 'Matching backlog (benchmark namespace)', 'tasks', [['approximate backlog', 'backlog']]),
    panel(
      'serverPoolInUse',
      'Store connections in use, per role',
      'connections',
      TEMPORAL_ROLES.map((r) => [r, `poolInUse.${r}`]),
    ),
  ];
}

/** One ladder chart: a value axis of the rates offered up to `top`, and `unit` against it (at least up to yMax). */
function ladderChart(c: { id: string; title: string; subtitle: string; unit: string; top: number; yMax?: number }, series: object[]): Chart {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: WIDTH, height: 400 });
  chart.setOption({
    animation: false,
    backgroundColor: '#ffffff',
    title: { text: c.title, subtext: c.subtitle, left: 'center' },
    legend: { bottom: 4, left: 'center', textStyle: { fontSize: 12 } },
    grid: { left: 70, right: 40, top: 70, bottom: 100 },
    xAxis: { type: 'value', min: 0, max: niceCeiling(c.top * 1.1), name: 'offered (workflows/s)', nameLocation: 'middle', nameGap: 28 },
    yAxis: { type: 'value', min: 0, name: c.unit, max: c.yMax === undefined ? undefined : (v: { max: number }) => niceCeiling(Math.max(v.max, c.yMax!) * 1.1) },
    series,
  });
  const svg = stableIds(chart.renderToSVGString());
  chart.dispose();
  return { file: `${c.id}.svg`, title: c.title, svg };
}

/**
 * A ladder's steps against the rate each offered: what completed (beside the offered line,
 * where a cluster that keeps up sits) and the P99 (under its bound). A step that did not hold
 * is drawn in the limit colour; the highest rate held is marked on both.
 */
export function renderLadderCharts(ladder: LadderView, subtitle: string): Chart[] {
  const top = Math.max(...ladder.steps.map((s) => s.rate));
  const point = (s: LadderView['steps'][number], v: number | null) => ({
    value: [s.rate, v],
    itemStyle: { color: s.held ? PERCENTILE_COLORS[0] : LIMIT_COLOR },
  });
  const held =
    ladder.highestHeld === null
      ? []
      : [
          {
            xAxis: ladder.highestHeld,
            label: { formatter: `highest held ${ladder.highestHeld}/s`, color: PERCENTILE_COLORS[0] },
            lineStyle: { color: PERCENTILE_COLORS[0] },
          },
        ];
  const draw = (id: string, title: string, unit: string, series: object[], yMax?: number) => ladderChart({ id, title, subtitle, unit, top, yMax }, series);
  const steps = ladder.steps;
  return [
    draw('ladderThroughput', 'Ladder: completed against offered rate', 'completed (workflows/s)', [
      {
        name: 'completed/s (red: the step did not hold)',
        type: 'line',
        symbol: 'circle',
        symbolSize: 9,
        color: PERCENTILE_COLORS[0],
        data: steps.map((s) => point(s, s.figures.completedPerSecond)),
        markLine: { silent: true, symbol: 'none', lineStyle: { type: 'dashed', width: 2 }, data: held },
      },
      {
        name: 'offered (a cluster that keeps up)',
        type: 'line',
        showSymbol: false,
        color: '#888888',
        lineStyle: { type: 'dotted' },
        data: [
          [0, 0],
          [top, top],
        ],
      },
    ]),
    draw(
      'ladderLatency',
      'Ladder: P99 latency against offered rate',
      'ms',
      [
        {
          name: 'P99 (red: the step did not hold)',
          type: 'line',
          symbol: 'circle',
          symbolSize: 9,
          color: PERCENTILE_COLORS[2],
          data: steps.map((s) => point(s, s.figures.p99Ms)),
          markLine: {
            silent: true,
            symbol: 'none',
            lineStyle: { type: 'dashed', width: 2 },
            data: [
              ...held,
              { yAxis: ladder.held.p99MaxMs, label: { formatter: `bound ${ladder.held.p99MaxMs} ms`, color: LIMIT_COLOR }, lineStyle: { color: LIMIT_COLOR } },
            ],
          },
        },
      ],
      ladder.held.p99MaxMs,
    ),
  ];
}
