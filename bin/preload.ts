import { relative } from 'node:path';

/*
 * Loaded before every entry point (`node --import tsx --import ./bin/preload.ts <entry>`): a
 * TypeScript syntax error (a typo in config/) is one line per error, file:line:column and the
 * compiler's message, rather than esbuild's stack trace. Any other uncaught error is a bug and
 * keeps its trace.
 */

/** esbuild's "Transform failed" lines: `<file>:<line>:<column from 0>: ERROR: <text>` (the error crosses tsx's loader thread as text). */
const SYNTAX_ERROR = /^(.+?):(\d+):(\d+): ERROR: (.*)$/gm;

process.on('uncaughtException', (e) => {
  const message = e instanceof Error ? e.message : String(e);
  const found = e instanceof Error && e.name === 'TransformError' ? [...message.matchAll(SYNTAX_ERROR)] : [];
  if (!found.length) {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? message) : message}\n`);
    process.exit(1);
  }
  for (const [, file, line, column, text] of found)
    process.stderr.write(`error: ${relative(process.cwd(), file)}:${line}:${Number(column) + 1}: ${text} (TypeScript syntax; fix the file and run again)\n`);
  process.exit(1);
});
