import { markdownTable } from './markdown-table';
import { usd } from './money';
import type { CostEstimate } from './cost-model';

const bold = (s: string) => `**${s}**`;
const signedUsd = (v: number) => `${v < 0 ? '-' : '+'}${usd(Math.abs(v))}`;

/** The estimate as markdown, in the shape of seed 000's "Daily Cost Estimate". */
export function renderCost(e: CostEstimate): string {
  const out = [
    `## Daily Cost Estimate (24-hour day, ${e.region})`,
    '',
    `${e.scenario}: ${e.title}. On-demand prices from config/prices/${e.region}.json, read ${e.pricesAsOf.oldest}${e.pricesAsOf.newest !== e.pricesAsOf.oldest ? ` to ${e.pricesAsOf.newest}` : ''}.`,
    '',
  ];
  for (const s of e.sections) {
    const subtotal = s.headers.map((_, i) => (i === 0 ? bold(s.subtotalLabel ?? 'Subtotal') : i === s.headers.length - 1 ? bold(usd(s.subtotal)) : ''));
    out.push(`### ${s.title}`, '', markdownTable(s.headers, [...s.lines.map((l) => l.cells), subtotal]), '');
    if (s.note) out.push(`*${s.note}*`, '');
  }
  out.push(
    '### Total Daily Cost Summary',
    '',
    markdownTable(['Category', '24-hr Day'], [...e.sections.map((s) => [s.category, usd(s.subtotal)]), [bold('Total'), bold(usd(e.total))]]),
    '',
  );
  const m = e.perMillionWorkflows;
  if (m)
    out.push(
      '### Cost per Million Workflows',
      '',
      markdownTable(
        ['Workflows/s', 'Workflows/day', 'Per million workflows'],
        [
          [
            `${Number(m.workflowsPerSecond.toFixed(2))} (${m.basis === 'recorded' ? 'recorded' : 'target'})`,
            `${(m.workflowsPerDay / 1e6).toFixed(2)}M`,
            bold(usd(m.usd)),
          ],
        ],
      ),
      '',
    );
  for (const c of e.comparisons ?? [])
    out.push(
      `### ${c.title}`,
      '',
      markdownTable(
        [...c.headers],
        c.rows.map((r) => [...r]),
      ),
      '',
      ...c.notes.map((n) => `*${n}*`),
      '',
    );
  if (e.variants.length)
    out.push(
      '### Variants',
      '',
      markdownTable(
        ['Variant', '24-hr Day', 'Change', 'What changes'],
        e.variants.map((v) => [v.label, usd(v.total), signedUsd(v.delta), v.note]),
      ),
      '',
    );
  out.push(...e.notes.map((n) => `- ${n}`), '');
  return out.join('\n');
}
