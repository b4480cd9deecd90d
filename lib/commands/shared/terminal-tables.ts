import { getBorderCharacters, table } from 'table';

/*
 * What a command prints is markdown (a file, a pipe, a pull request read it as such). On a
 * terminal its tables are drawn instead: columns padded to line up, and long cells wrapped so
 * that no row runs past the terminal's width.
 */

/** The narrowest a wrapped column is made: a word of a note still fits. */
const MIN_COLUMN = 12;

/** A markdown table row's cells (the tables here never hold a pipe in a cell). */
const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim().replace(/\*\*(.*?)\*\*/g, '$1'));

const isRule = (line: string) => /^\|(\s*:?-{3,}:?\s*\|)+$/.test(line.trim());

/** Column widths that fit `width`: the widest columns give up room first, none below MIN_COLUMN (or its own width). */
export function fitColumns(natural: readonly number[], width: number): number[] {
  // Each column costs its content plus 3 for the border and padding, and the table 1 more.
  const budget = width - 1 - 3 * natural.length;
  const widths = [...natural];
  while (widths.reduce((a, b) => a + b, 0) > budget) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest] <= MIN_COLUMN) break;
    widths[widest] -= 1;
  }
  return widths;
}

/** One markdown table drawn for a terminal `width` columns wide. */
function draw(lines: readonly string[], width: number): string {
  const rows = lines.filter((l) => !isRule(l)).map(cells);
  const count = Math.max(...rows.map((r) => r.length));
  const padded = rows.map((r) => [...r, ...Array<string>(count - r.length).fill('')]);
  const natural = Array.from({ length: count }, (_, i) => Math.max(1, ...padded.map((r) => r[i].length)));
  const widths = fitColumns(natural, width);
  return table(padded, {
    border: getBorderCharacters('norc'),
    columns: widths.map((w) => ({ width: w, wrapWord: true })),
    drawHorizontalLine: (i, size) => i === 0 || i === 1 || i === size,
  }).trimEnd();
}

/** A command's markdown with each table outside a code fence drawn for the terminal. */
export function forTerminal(markdown: string, width: number): string {
  const out: string[] = [];
  let block: string[] = [];
  let fenced = false;
  const flush = () => {
    if (block.length >= 2 && isRule(block[1])) out.push(draw(block, width));
    else out.push(...block);
    block = [];
  };
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (!fenced && line.trimStart().startsWith('|')) {
      block.push(line);
      continue;
    }
    flush();
    out.push(line);
  }
  flush();
  return out.join('\n');
}
