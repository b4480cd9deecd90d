import * as echarts from 'echarts';
import type { MetricCatalog } from '../../platform/contract/metrics';
import { seriesById } from '../../platform/contract/metrics';
import type { Points } from './fetch';
import { pointsOf } from './summarize';
import type { GeneratorSeries } from '../shared/run-record';
import type { ReportWindow } from './window';

// Without a canvas, ECharts guesses text widths narrower than common sans fonts draw them, and
// legend entries then run into each other: measure generously instead (0.65 em a character).
echarts.setPlatformAPI({
  measureText: (text: string, font?: string) => ({ width: text.length * Number(/(\d+)px/.exec(font ?? '')?.[1] ?? 12) * 0.65 }),
});

export const LIMIT_COLOR = '#c23531';
export const PERCENTILE_COLORS = ['#2f7d32', '#ef6c00', '#6a1b9a'];
export const WIDTH = 960;
const LABEL_POSITIONS = ['insideEndTop', 'insideStartTop', 'insideMiddleTop'] as const;
/** What an empty chart says: no line is not a line at zero. */
export const NO_DATA_TEXT = 'No data in this window';

export interface Chart {
  readonly file: string;
  readonly title: string;
  readonly svg: string;
}

/**
 * One SVG per report panel of the catalog: its series over the window, and its limits (the
 * configured ACU range, alarm thresholds, the pool ceiling) as labelled dashed lines drawn over
 * the series; on a white background, with UTC time (and dates across midnight), a legend that
 * wraps rather than overlaps, and a notice instead of an empty plot. Rendered by Apache
 * ECharts on the server side: no browser, no canvas, and the same SVG for the same points.
 */
export function renderCharts(catalog: MetricCatalog, fetched: ReadonlyMap<string, Points>, window: ReportWindow, subtitle: string): Chart[] {
  return catalog.panels
    .filter((p) => p.inReport)
    .map((panel) => {
      const perMinute = panel.unit === 'per minute' ? 60 / window.periodSeconds : 1;
      const lines = panel.series.map((id) => {
        const p = pointsOf(catalog, fetched, id);
        return { name: seriesById(catalog, id).label, points: { t: p.t, v: p.v.map((v) => v * perMinute) } };
      });
      // Limits, and on the latency chart the benchmark's percentiles.
      const levels = [
        ...panel.limits.map((l) => ({ label: l.label, value: l.value, color: LIMIT_COLOR })),
        ...(panel.id === 'commitLatency' && window.benchmarkLatencyMs
          ? (['p50', 'p95', 'p99'] as const).map((p, i) => ({
              label: `benchmark ${p.toUpperCase()} ${window.benchmarkLatencyMs![p]} ms`,
              value: window.benchmarkLatencyMs![p],
              color: PERCENTILE_COLORS[i],
            }))
          : []),
      ];
      return renderPanel({ id: panel.id, title: panel.title, unit: panel.unit, lines, levels, periodSeconds: window.periodSeconds }, window, subtitle);
    });
}

/** A chart to draw: lines over the window and levels (limits) drawn over them. */
export interface DrawnPanel {
  readonly id: string;
  readonly title: string;
  readonly unit: string;
  readonly lines: readonly { readonly name: string; readonly points: Points }[];
  readonly levels: readonly { readonly label: string; readonly value: number; readonly color?: string }[];
  /** Time per point: a longer gap between two points is drawn as a gap. */
  readonly periodSeconds: number;
}

export function renderPanel(panel: DrawnPanel, window: { start: Date; end: Date }, subtitle: string): Chart {
  const start = window.start.getTime();
  const end = window.end.getTime();
  // A window across midnight (UTC) labels its axis with dates too.
  const days = new Date(start).toISOString().slice(0, 10) !== new Date(end).toISOString().slice(0, 10);
  const lines = panel.lines.map((l) => ({
    name: l.name,
    type: 'line' as const,
    showSymbol: false,
    connectNulls: false,
    z: 2,
    data: withGaps(l.points, panel.periodSeconds * 1000),
  }));
  const empty = lines.every((l) => l.data.length === 0);
  // Levels are drawn over the series (a series sitting on a limit leaves it visible) and labelled where they end.
  const levels = panel.levels.map((l) => ({ ...l, color: l.color ?? LIMIT_COLOR }));
  const limits = levels.map((l, i) => ({
    name: l.label,
    type: 'line' as const,
    color: l.color,
    z: 5,
    data: [],
    markLine: {
      silent: true,
      symbol: 'none',
      lineStyle: { type: 'dashed' as const, width: 2, color: l.color },
      // Staggered, so that labels of levels close together do not overlap.
      label: { formatter: l.label, position: LABEL_POSITIONS[i % LABEL_POSITIONS.length], color: l.color, fontSize: 11 },
      data: [{ yAxis: l.value }],
    },
  }));
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: WIDTH, height: 400 });
  chart.setOption({
    animation: false,
    useUTC: true,
    backgroundColor: '#ffffff',
    title: { text: panel.title, subtext: subtitle, left: 'center' },
    legend: { bottom: 4, left: 'center', width: WIDTH - 80, type: 'plain', itemGap: 28, textStyle: { fontSize: 12 } },
    grid: { left: 70, right: 40, top: 70, bottom: 100 },
    xAxis: {
      type: 'time',
      min: start,
      max: end,
      name: 'UTC',
      nameLocation: 'end',
      axisLabel: { formatter: days ? '{MM}-{dd} {HH}:{mm}' : '{HH}:{mm}', hideOverlap: true },
    },
    // Room above the highest limit, so a series on it and its label stay inside the plot.
    yAxis: {
      type: 'value',
      min: 0,
      name: panel.unit,
      max: levels.length ? (v: { max: number }) => niceCeiling(Math.max(v.max, ...levels.map((l) => l.value)) * 1.1) : undefined,
    },
    ...(empty ? { graphic: [{ type: 'text', left: 'center', top: 'middle', style: { text: NO_DATA_TEXT, fontSize: 18, fill: '#555555' } }] } : {}),
    series: [...lines, ...limits],
  });
  const svg = stableIds(chart.renderToSVGString());
  chart.dispose();
  return { file: `${panel.id}.svg`, title: panel.title, svg };
}

/** 1, 2 or 5 times a power of ten, at or above v: an axis maximum that reads well. */
export function niceCeiling(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * p).find((x) => x >= v)!;
}

/** The points, with a null after each one that the next period lacks: a gap shows as a gap. */
function withGaps(p: Points, periodMs: number): [number, number | null][] {
  const out: [number, number | null][] = [];
  p.t.forEach((t, i) => {
    out.push([t, p.v[i]]);
    if (i + 1 < p.t.length && p.t[i + 1] - t > 1.5 * periodMs) out.push([t + periodMs, null]);
  });
  return out;
}

/**
 * ECharts numbers its element ids and classes per process (`zr3-cls-12`); renumbered from
 * zero per SVG, the same points give the same bytes whatever was drawn before.
 */
export function stableIds(svg: string): string {
  const renamed = new Map<string, string>();
  const next: Record<string, number> = {};
  return svg.replace(/zr\d+-(cls-|c)\d+/g, (token, kind: string) => {
    if (!renamed.has(token)) {
      next[kind] = (next[kind] ?? -1) + 1;
      renamed.set(token, `zr0-${kind}${next[kind]}`);
    }
    return renamed.get(token)!;
  });
}

/**
 * The generator's own second-by-second counts from the run record: starts, start errors and
 * completions, and the P99 of what completed each second. A fault or a deploy mid-run shows
 * here as a dip in completions and a rise in latency, at the resolution CloudWatch lacks.
 */
export function renderGeneratorCharts(series: GeneratorSeries, window: { start: Date; end: Date }, subtitle: string): Chart[] {
  const t = series.started.map((_, i) => series.start.getTime() + i * series.intervalSeconds * 1000);
  const points = (v: readonly number[], per = 1): Points => ({ t, v: v.map((x) => x / per) });
  const panel = (id: string, title: string, unit: string, lines: DrawnPanel['lines']) =>
    renderPanel({ id, title, unit, lines, levels: [], periodSeconds: series.intervalSeconds }, window, subtitle);
  return [
    panel('generatorThroughput', 'Benchmark generator: starts, completions and start errors', 'per second', [
      { name: 'started/s', points: points(series.started, series.intervalSeconds) },
      { name: 'completed/s', points: points(series.completed, series.intervalSeconds) },
      { name: 'start errors/s', points: points(series.startErrors, series.intervalSeconds) },
    ]),
    panel('generatorLatency', 'Benchmark generator: P99 latency of the workflows completed', 'ms', [
      // An interval without a completion has no latency: a gap, not a zero.
      { name: 'P99', points: { t: t.filter((_, i) => series.completed[i] > 0), v: series.latencyP99Ms.filter((_, i) => series.completed[i] > 0) } },
    ]),
  ];
}
