import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * The manual: the README and the pages under docs/ (the generated examples in docs/'s
 * subdirectories are not pages). The tests in test/docs hold every page to the code.
 */

const ROOT = join(__dirname, '../..');

/** Each page's text, by its path from the repository's root: README.md first. */
export const PAGES: ReadonlyMap<string, string> = new Map([
  ['README.md', readFileSync(join(ROOT, 'README.md'), 'utf8')],
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => [`docs/${f}`, readFileSync(join(ROOT, 'docs', f), 'utf8')] as const),
]);

export const README = PAGES.get('README.md')!;

/** A page by its path; a test that names a page that is gone fails here, by name. */
export function page(path: string): string {
  const text = PAGES.get(path);
  if (text === undefined) throw new Error(`no page ${path} (pages: ${[...PAGES.keys()].join(', ')})`);
  return text;
}

/** Every page, one after the other. */
export const MANUAL = [...PAGES.values()].join('\n');

/** The part of a page from one heading to the next of its level or higher (or to the end). */
export function section(text: string, heading: string): string {
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const level = /^#+/.exec(heading)![0].length;
  const rest = text.slice(start + heading.length);
  const next = [...rest.matchAll(/^(#+) /gm)].find((m) => m[1].length <= level && !inFence(rest, m.index));
  return text.slice(start, next ? start + heading.length + next.index : undefined);
}

/** Whether position `at` of a markdown text is inside a fenced code block. */
function inFence(text: string, at: number): boolean {
  return (text.slice(0, at).match(/^```/gm)?.length ?? 0) % 2 === 1;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** A page's headings outside code blocks, as anchors. */
export function anchors(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/^#{1,6} (.+)$/gm)) if (!inFence(text, m.index)) out.add(slug(m[1]));
  return out;
}

/**
 * The commands of a text's sh blocks (continuations joined, comments dropped, `&&` split), of
 * every block or only the walkthrough's (fenced ```sh walkthrough: run in order on a copy of the repository).
 */
export function shellCommands(text: string, blocks: 'all' | 'walkthrough'): string[] {
  const fence = blocks === 'all' ? /```sh(?: walkthrough)?\n([\s\S]*?)```/g : /```sh walkthrough\n([\s\S]*?)```/g;
  return [...text.matchAll(fence)]
    .flatMap((m) => m[1].replace(/\\\n\s*/g, ' ').split('\n'))
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l && !l.startsWith('#'))
    .flatMap((l) => l.split('&&').map((x) => x.trim()));
}
