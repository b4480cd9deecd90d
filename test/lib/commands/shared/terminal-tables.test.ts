import { fitColumns, forTerminal } from '../../../../lib/commands/shared/terminal-tables';
import { markdownTable } from '../../../../lib/commands/shared/markdown-table';

/* On a terminal a command's tables are drawn to fit it; everything else it prints is left as it is. */

const NOTE = 'npm run hibernate: both clusters stopped, no instance or ACU hours; Aurora storage and backups still bill (not estimated)';
const md = [
  '## Variants',
  '',
  markdownTable(
    ['Variant', '24-hr Day', 'What changes'],
    [
      ['**Stopped**', '$1.35', NOTE],
      ['Serverless at the ceiling', '$120.06', '32 ACU all day'],
    ],
  ),
  '',
  '- a note | with a pipe, not a table',
  '```markdown',
  '| kept | as is |',
  '| --- | --- |',
  '```',
].join('\n');

test('a table is drawn with its columns lined up, no row past the width, its long cells wrapped and nothing lost', () => {
  const out = forTerminal(md, 80);
  const drawn = out.split('\n').filter((l) => /^[│┌├└]/.test(l));
  expect(drawn.length).toBeGreaterThan(5);
  for (const l of drawn) expect([...l].length).toBeLessThanOrEqual(80);
  // Every row of the table is as wide as the others: the columns line up.
  expect(new Set(drawn.map((l) => [...l].length)).size).toBe(1);
  const text = drawn
    .join(' ')
    .replace(/[│┌├└┐┤┘┬┼┴─]/g, ' ')
    .replace(/\s+/g, ' ');
  for (const word of NOTE.split(' ')) expect(text).toContain(word);
  expect(text).toContain('Stopped');
  expect(text).not.toContain('**');
});

test('what is not a table stays as it was: headings, a line with a pipe, a table quoted in a code fence', () => {
  const out = forTerminal(md, 80);
  expect(out).toContain('## Variants\n');
  expect(out).toContain('- a note | with a pipe, not a table\n');
  expect(out).toContain('```markdown\n| kept | as is |\n| --- | --- |\n```');
});

test('columns fit the width, the widest giving up room first, none below the narrowest a word needs', () => {
  expect(fitColumns([10, 5, 100], 80)).toEqual([10, 5, 80 - 1 - 9 - 15]);
  expect(fitColumns([10, 5], 80)).toEqual([10, 5]);
  expect(fitColumns([50, 50, 50], 20)).toEqual([12, 12, 12]);
});
