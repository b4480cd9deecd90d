import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from './errors';

/*
 * The JSON files the project reads (config's price and engine-version files, the records and
 * reports the commands read back) and writes. A file that cannot be read, is not a regular
 * file, is not JSON or nests absurdly deep is one ConfigError line naming it; a file is written
 * whole or not at all, so an interrupted refresh or command never leaves half a file behind.
 */

/** Deeper than anything the project writes (a report nests about eight levels): past it, the readers' recursion would run off the stack. */
const MAX_DEPTH = 64;

/** Why a file cannot be read or written, in words. */
export function ioReason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a part of the path is a file';
    case 'EISDIR':
      return 'a directory, not a file';
    case 'ELOOP':
      return 'a symbolic link that loops';
    default:
      return (err.message ?? String(e)).split('\n')[0];
  }
}

/**
 * A regular file's text; `shown` names it in the one line a problem gives. A FIFO or a device
 * (which would block, or never end) is refused before anything is read.
 */
export function readRegularFile(file: string, shown: string): string {
  try {
    const s = statSync(file);
    if (s.isDirectory()) throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
    if (!s.isFile()) throw new Error('not a regular file (a FIFO, socket or device)');
    return utf8Text(readFileSync(file));
  } catch (e) {
    throw new ConfigError(`${shown}: cannot read it (${ioReason(e)})`);
  }
}

/** A file's bytes as UTF-8 text: a UTF-8 byte order mark dropped (an editor's, which JSON may ignore); UTF-16 or binary refused by name. */
function utf8Text(bytes: Buffer): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString('utf8');
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) throw new Error('UTF-16 text; valid: UTF-8');
  if (bytes.subarray(0, 4096).includes(0)) throw new Error('NUL bytes: UTF-16 without a byte order mark, or not text; valid: UTF-8');
  return bytes.toString('utf8');
}

/** How deep a parsed value nests, counted without recursion, up to just past the limit. */
function depthOver(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > limit) return true;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return false;
}

/** JSON text parsed, or one ConfigError line: not JSON, or nested deeper than any file of the project. */
export function parseJson(text: string, shown: string, valid: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${shown}: not JSON (${(e as Error).message.split('\n')[0]}) (valid: ${valid})`);
  }
  if (depthOver(value, MAX_DEPTH)) throw new ConfigError(`${shown}: nested more than ${MAX_DEPTH} levels deep (valid: ${valid})`);
  return value;
}

/** A JSON file read and parsed (readRegularFile, then parseJson). */
export const readJsonFile = (file: string, shown: string, valid: string): unknown => parseJson(readRegularFile(file, shown), shown, valid);

/** Writes a file whole: into a temporary file beside it, then renamed over it (atomic on one file system). */
export function writeFileAtomically(file: string, content: string): void {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, content);
    renameSync(temp, file);
  } finally {
    rmSync(temp, { force: true });
  }
}
