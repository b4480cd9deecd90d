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

/** One step of a page's walkthrough: a shell command, a patch to apply, or a file to write. */
export type WalkthroughStep =
  | { readonly kind: 'sh'; readonly command: string }
  | { readonly kind: 'patch'; readonly patch: string }
  | { readonly kind: 'file'; readonly path: string; readonly content: string };

/** A fenced block (its indentation removed): its language, the words after it, its text. */
function blocks(text: string): { lang: string; info: string[]; body: string }[] {
  return [...text.matchAll(/^( *)```(\w+)([^\n]*)\n([\s\S]*?)^\1```/gm)].map((m) => ({
    lang: m[2],
    info: m[3].trim().split(/\s+/).filter(Boolean),
    body: m[4]
      .split('\n')
      .map((l) => l.slice(m[1].length))
      .join('\n'),
  }));
}

/** A shell block's commands: continuations joined, comments dropped, `&&` split. */
const commandsOf = (body: string) =>
  body
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l && !l.startsWith('#'))
    .flatMap((l) => l.split('&&').map((x) => x.trim()));

/** The commands of a text's sh blocks, of every block or only the walkthrough's (```sh walkthrough). */
export function shellCommands(text: string, which: 'all' | 'walkthrough'): string[] {
  return blocks(text)
    .filter((b) => b.lang === 'sh' && (which === 'all' || b.info[0] === 'walkthrough'))
    .flatMap((b) => commandsOf(b.body));
}

/**
 * A page's walkthrough, in page order: its ```sh walkthrough blocks' commands, its ```diff
 * walkthrough patches, and its ```<lang> walkthrough <path> files (run on a copy of the repository).
 */
export function walkthroughSteps(text: string): WalkthroughStep[] {
  return blocks(text)
    .filter((b) => b.info[0] === 'walkthrough')
    .flatMap((b): WalkthroughStep[] => {
      if (b.lang === 'sh') return commandsOf(b.body).map((command) => ({ kind: 'sh', command }));
      if (b.lang === 'diff') return [{ kind: 'patch', patch: b.body }];
      return [{ kind: 'file', path: b.info[1], content: b.body }];
    });
}
