import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { ConfigError } from '../../../config';
import { ioReason, parseJson, readRegularFile, writeFileAtomically } from '../../../config/json-file';

/*
 * The paths a command reads or writes, checked before it does anything else: a missing file,
 * a directory where a file should be, or a place it may not write is one line naming the
 * option, the path and the problem, never a stack trace. A relative path is the user's: it
 * resolves from where they ran `npm run` (npm's INIT_CWD), not from the repository root where
 * npm starts the command. Nothing is created until there is something to write.
 */

/** Where the user ran the command. */
const userDir = () => process.env.INIT_CWD ?? process.cwd();

/** A path as the user meant it: relative to the directory they ran the command in. */
const userPath = (path: string): string => resolve(userDir(), path);

/** A path as the user would type it from where they stand (for messages): relative below there, else absolute. */
export const shownPath = (path: string): string => {
  const below = relative(userDir(), path);
  return below === '' ? '.' : below.startsWith('..') ? path : below;
};

/** A regular file's text; an empty path (which would resolve to the directory the user is in) is refused as such. */
export function readTextFile(option: string, path: string): string {
  if (path.trim() === '') throw new ConfigError(`${option} "${path}": an empty path (valid: a file's path)`);
  return readRegularFile(userPath(path), `${option} "${path}"`);
}

/** A JSON file's value: read as readTextFile reads it, then parsed (not JSON, or absurdly deep, is one line). */
export const readJson = (option: string, path: string, valid: string): unknown => parseJson(readTextFile(option, path), `${option} "${path}"`, valid);

/**
 * A directory that can be written, or created where it is missing: its nearest existing
 * ancestor is a directory the user may write. Returned resolved; created by writeOutput.
 */
export function writableDir(option: string, dir: string): string {
  const path = userPath(dir);
  try {
    let existing = path;
    while (!existsSync(existing)) existing = dirname(existing);
    if (!statSync(existing).isDirectory()) throw Object.assign(new Error('ENOTDIR'), { code: 'ENOTDIR' });
    accessSync(existing, constants.W_OK);
    return path;
  } catch (e) {
    throw new ConfigError(`${option} "${dir}": cannot write there (${ioReason(e)})`);
  }
}

/** A file path that can be written (its directory as writableDir checks it) and that is not a directory. Returned resolved. */
export function writableFile(option: string, file: string): string {
  writableDir(option, dirname(file));
  const path = userPath(file);
  if (existsSync(path) && statSync(path).isDirectory()) throw new ConfigError(`${option} "${file}": cannot write it (a directory, not a file)`);
  return path;
}

/** Writes one output file whole, creating its directory first: the one place a command's output reaches the disk. */
export function writeOutput(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomically(file, content);
}
