import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/*
 * The size rules of the source, so that a function reads on one screen and a file whole: no function over
 * MAX_FUNCTION_LINES lines and no file over MAX_FILE_LINES, counted as the editor shows them.
 */

export const MAX_FUNCTION_LINES = 80;
export const MAX_FILE_LINES = 400;

/** Each function (declaration, method, constructor, arrow or expression) and file over its bound, as "path:line name (n lines)". */
export function oversized(path: string, text: string): string[] {
  const out: string[] = [];
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_FILE_LINES) out.push(`${path} (${lines} lines)`);
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body) {
      const first = source.getLineAndCharacterOfPosition(n.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(n.getEnd()).line;
      if (last - first + 1 > MAX_FUNCTION_LINES) out.push(`${path}:${first + 1} ${nameOf(n)} (${last - first + 1} lines)`);
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return out;
}

function nameOf(n: ts.Node): string {
  const named = (n as { name?: ts.Node }).name;
  if (named) return named.getText();
  if (ts.isConstructorDeclaration(n)) return 'constructor';
  if (ts.isVariableDeclaration(n.parent)) return n.parent.name.getText();
  return 'an anonymous function';
}

/** The project's source files (lib, config, bin, harness, scripts), relative to `root`: read from the tree, so a copy without .git lists them too. */
export function sourceFiles(root: string, dir = ''): string[] {
  const tops = ['lib', 'config', 'bin', 'harness', 'scripts'];
  return (
    dir ? readdirSync(join(root, dir), { withFileTypes: true }).map((e) => ({ e, path: `${dir}/${e.name}` })) : tops.map((t) => ({ e: undefined, path: t }))
  ).flatMap(({ e, path }) => (!e || e.isDirectory() ? sourceFiles(root, path) : /\.(ts|js|cjs|sh|py)$/.test(path) ? [path] : []));
}
