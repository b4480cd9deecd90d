import { familyOf } from '../../families';
import type { FamilyCore } from '../../platform/family';
import { markdownTable } from '../shared/markdown-table';
import { num } from './report-format';
import type { ReportBase } from './summarize';

/** Markdown tables in the shape of the seed reports. Deterministic: no clock, no locale. */
export function renderMarkdown(report: ReportBase, charts: readonly { file: string; title: string }[] = []): string {
  const family = familyOf(report);
  const body = [...family.renderReport(report), ...proposalLines(report, family)];
  const gaps = Object.entries(report.coverage).filter(([, c]) => c.points < c.expected);
  const series = Object.keys(report.coverage).length;
  const missing = report.missing.length;
  const notice =
    missing === series
      ? [
          `**No data at all** in this window: none of the ${series} series has a datapoint. Check the window (times are UTC), the region, --env-name${family.noDataHint(report)}, or whether anything ran. Every figure below says "no data"; none is a zero.`,
          '',
        ]
      : missing
        ? [
            `**No data** for ${missing} of ${series} series in this window: ${report.missing.join(', ')}. Their figures below say "no data", and figures derived from them are left out.`,
            '',
          ]
        : [];
  return [
    ...body.slice(0, 4),
    ...notice,
    ...body.slice(4),
    ...(charts.length ? ['## Charts', '', ...charts.map((c) => `![${c.title}](${c.file})`), ''] : []),
    ...(gaps.length
      ? [
          '## Data coverage',
          '',
          'Series with fewer points than the window holds (gaps are unknown, not zero, for gauges):',
          '',
          markdownTable(
            ['Series', 'Points', 'Expected'],
            gaps.map(([id, c]) => [id, num(c.points), num(c.expected)]),
          ),
          '',
        ]
      : []),
    ...(report.notes.length ? ['## Notes', '', ...report.notes.map((n) => `- ${n}`), ''] : []),
  ].join('\n');
}

/** The proposal: what to deploy next and why, each reason a figure against its threshold. */
function proposalLines(r: ReportBase, family: Pick<FamilyCore, 'noun' | 'scenarioFile'>): string[] {
  const p = r.proposal;
  const lead =
    p.status === 'proposed' || p.status === 'blocked'
      ? `**${p.rule}**: ${p.says}.`
      : p.status === 'unchanged'
        ? `Nothing to change: ${p.says}.`
        : `No proposal: ${p.says}.`;
  return [
    '## What to try next',
    '',
    lead,
    '',
    ...(p.evidence.length ? [`From: ${p.evidence.join('; ')}.`, ''] : []),
    ...p.caveats.map((c) => `Caveat: ${c}.`),
    ...(p.caveats.length ? [''] : []),
    ...(p.next
      ? [
          `As a ${family.noun}: \`proposal.next.phase\` in report.json, named \`${p.next.phase.name}\` (\`npm run plan -- --from ${r.scenario} --proposal <this report.json>\` shows what deploying it does; add it to \`${family.scenarioFile}\` to deploy it). What it changes:`,
          '',
          '```text',
          ...p.next.diff,
          '```',
          '',
        ]
      : []),
  ];
}
