import * as echarts from 'echarts';
import type { Scenario } from '../../config';
import { familyOf } from '../families';
import { type Chart, PERCENTILE_COLORS, stableIds, WIDTH } from '../commands/report/charts';
import type { ReportBase } from '../commands/report/summarize';
import type { CostEstimate } from '../commands/shared/cost-model';
import type { BenchRun } from '../commands/shared/run-record';
import { markdownTable } from '../commands/shared/markdown-table';
import { plural } from '../commands/shared/figure';
import type { CampaignRecord } from './campaign-record';

/*
 * The campaign report: every step side by side, as seed 002's summary table sets PTF's phases
 * (each family says which columns: lib/<family>/commands/report/<family>-campaign-row.ts),
 * and a bar chart per figure across the steps.
 */

/** A step as the report reads it: its scenario, its report.json, and its cost estimate. */
export interface ReportedStep {
  readonly step: number;
  readonly scenario: Scenario;
  readonly report: ReportBase;
  readonly estimate: CostEstimate;
  /** The run record its load wrote (bench's), if any. */
  readonly run?: BenchRun;
}

function barChart(id: string, title: string, labels: readonly string[], values: readonly (number | null)[], subtitle: string): Chart {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: WIDTH, height: 400 });
  chart.setOption({
    animation: false,
    backgroundColor: '#ffffff',
    title: { text: title, subtext: subtitle, left: 'center' },
    grid: { left: 70, right: 40, top: 70, bottom: 90 },
    xAxis: { type: 'category', data: labels, axisLabel: { rotate: labels.length > 6 ? 30 : 0, interval: 0 } },
    yAxis: { type: 'value', min: 0 },
    series: [{ type: 'bar', data: values.map((v) => v ?? '-'), itemStyle: { color: PERCENTILE_COLORS[0] }, label: { show: true, position: 'top' } }],
  });
  const svg = stableIds(chart.renderToSVGString());
  chart.dispose();
  return { file: `${id}.svg`, title, svg };
}

/** `ys` against `x`, a labelled point per step; the first y on the left axis, the others on the right (a day's cost and a million workflows' differ by orders). */
function againstChart(
  id: string,
  x: string,
  ys: readonly string[],
  points: readonly { label: string; figures: Readonly<Record<string, number | null>> }[],
  subtitle: string,
): Chart {
  const title = `${ys.join(' and ')} against ${x}`;
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: WIDTH, height: 420 });
  chart.setOption({
    animation: false,
    backgroundColor: '#ffffff',
    title: { text: title, subtext: subtitle, left: 'center', textStyle: { fontSize: 14 } },
    legend: { bottom: 0 },
    grid: { left: 80, right: 80, top: 80, bottom: 70 },
    xAxis: { type: 'value', name: x, nameLocation: 'middle', nameGap: 30, min: 0 },
    yAxis: [ys.slice(0, 1), ys.slice(1)]
      .filter((names) => names.length)
      .map((names, i) => ({
        type: 'value',
        name: names.join(', '),
        min: 0,
        position: i === 0 ? 'left' : 'right',
        nameTextStyle: { align: i === 0 ? 'left' : 'right' },
      })),
    series: ys.map((y, i) => ({
      name: y,
      type: 'line',
      yAxisIndex: Math.min(i, 1),
      symbolSize: 10,
      itemStyle: { color: PERCENTILE_COLORS[i % PERCENTILE_COLORS.length] },
      label: { show: true, formatter: (p: { data: [number, number, string] }) => p.data[2], position: 'top' },
      data: points
        .filter((p) => p.figures[x] != null && p.figures[y] != null)
        .map((p) => [p.figures[x]!, p.figures[y]!, p.label] as const)
        .sort((a, b) => a[0] - b[0]),
    })),
  });
  const svg = stableIds(chart.renderToSVGString());
  chart.dispose();
  return { file: `${id}.svg`, title, svg };
}

/** The campaign report's markdown and charts. */
export function renderCampaignReport(record: CampaignRecord, title: string, steps: readonly ReportedStep[]): { markdown: string; charts: Chart[] } {
  const status =
    record.status === 'done'
      ? `done${record.ended ? `, ended ${record.ended.at} (${record.ended.environment})` : ''}`
      : record.status === 'failed'
        ? `stopped${record.failure ? ` at step ${record.failure.step + 1}, ${record.failure.stage}: ${record.failure.reason}` : ''}`
        : `under way${record.running ? `: step ${record.running.step + 1}, ${record.running.stage}, since ${record.running.since}` : ''}`;
  const lines = [`# Campaign report: ${record.campaign}`, '', `${title}. Started ${record.started}; ${status}. ${plural(steps.length, 'step')} reported.`, ''];
  const charts: Chart[] = [];
  if (steps.length) {
    const family = familyOf(steps[0].scenario);
    const rows = steps.map((s) => ({ s, row: family.campaignRow(s.report, s.scenario, s.estimate, s.run) }));
    lines.push(
      markdownTable(
        ['Step', family.noun[0].toUpperCase() + family.noun.slice(1), ...Object.keys(rows[0].row.cells)],
        rows.map(({ s, row }) => [String(s.step + 1), s.scenario.name, ...Object.values(row.cells)]),
      ),
      '',
    );
    const labels = rows.map(({ s }) => `${s.step + 1}. ${s.scenario.name}`);
    Object.keys(rows[0].row.figures).forEach((figure, i) => {
      const chart = barChart(
        `campaign-${i + 1}`,
        figure,
        labels,
        rows.map(({ row }) => row.figures[figure] ?? null),
        record.campaign,
      );
      charts.push(chart);
      lines.push(`![${figure}](charts/${chart.file})`, '');
    });
    const against = rows[0].row.against;
    if (against) {
      const points = rows.map(({ s, row }) => ({ label: s.scenario.name, figures: row.figures }));
      const chart = againstChart('campaign-against', against.x, against.ys, points, record.campaign);
      charts.push(chart);
      lines.push(`![${chart.title}](charts/${chart.file})`, '');
    }
  }
  for (const [definition, why] of Object.entries(record.stopped)) lines.push(`Step definition ${Number(definition) + 1} followed no further: ${why}.`, '');
  return { markdown: lines.join('\n'), charts };
}
