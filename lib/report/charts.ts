import * as echarts from 'echarts';
import type { MetricCatalog } from '../metrics';
import { seriesById } from '../metrics';
import type { Points } from './fetch';
import { pointsOf } from './summarize';
import type { ReportWindow } from './window';

const LIMIT_COLOR = '#c23531';

export interface Chart {
  readonly file: string;
  readonly title: string;
  readonly svg: string;
}

/**
 * One SVG per report panel of the catalog: its series over the window, and its limits (the
 * configured ACU range, alarm thresholds, the pool ceiling) as dashed lines. Rendered by
 * Apache ECharts on the server side: no browser, no canvas, and the same SVG for the same
 * points.
 */
export function renderCharts(catalog: MetricCatalog, fetched: ReadonlyMap<string, Points>, window: ReportWindow, subtitle: string): Chart[] {
  const start = window.start.getTime();
  const end = window.end.getTime();
  return catalog.panels
    .filter((p) => p.inReport)
    .map((panel) => {
      const perMinute = panel.unit === 'per minute' ? 60 / window.periodSeconds : 1;
      const lines = panel.series.map((id) => {
        const p = pointsOf(catalog, fetched, id);
        return {
          name: seriesById(catalog, id).label,
          type: 'line' as const,
          showSymbol: false,
          connectNulls: false,
          data: withGaps(p, window.periodSeconds * 1000).map(([t, v]) => [t, v === null ? null : v * perMinute]),
        };
      });
      const limits = panel.limits.map((l) => ({
        name: l.label,
        type: 'line' as const,
        showSymbol: false,
        color: LIMIT_COLOR,
        lineStyle: { type: 'dashed' as const, width: 1.5 },
        data: [
          [start, l.value],
          [end, l.value],
        ],
      }));
      const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 960, height: 360 });
      chart.setOption({
        animation: false,
        useUTC: true,
        title: { text: panel.title, subtext: subtitle, left: 'center' },
        legend: { bottom: 0, type: 'plain' },
        grid: { left: 70, right: 30, top: 70, bottom: 70 },
        xAxis: { type: 'time', min: start, max: end },
        yAxis: { type: 'value', min: 0, name: panel.unit },
        series: [...lines, ...limits],
      });
      const svg = stableIds(chart.renderToSVGString());
      chart.dispose();
      return { file: `${panel.id}.svg`, title: panel.title, svg };
    });
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
function stableIds(svg: string): string {
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
