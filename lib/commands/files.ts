import { accessSync, constants, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../../config';

/*
 * The paths a command reads or writes, checked before it does anything else: a missing file,
 * a directory where a file should be, or a place it may not write is one line naming the
 * option, the path and the problem, never a stack trace.
 */

const reason = (e: unknown) => {
  const err = e as NodeJS.ErrnoException;
  return err.code === 'ENOENT' ? 'no such file or directory' : err.code === 'EACCES' || err.code === 'EPERM' ? 'permission denied' : err.code === 'ENOTDIR' || err.code === 'EEXIST' ? 'a part of the path is a file' : err.code === 'EISDIR' ? 'a directory, not a file' : (err.message ?? String(e)).split('\n')[0];
};

/** A text file's content. */
export function readTextFile(option: string, path: string): string {
  try {
    if (statSync(path).isDirectory()) throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`${option} "${path}": cannot read it (${reason(e)})`);
  }
}

/** A directory that exists (created if need be) and may be written. */
export function writableDir(option: string, dir: string): string {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return dir;
  } catch (e) {
    throw new ConfigError(`${option} "${dir}": cannot write there (${reason(e)})`);
  }
}

/** A file path whose directory exists (created if need be) and may be written, and that is not a directory. */
export function writableFile(option: string, file: string): string {
  writableDir(option, dirname(file));
  try {
    if (statSync(file).isDirectory()) throw new ConfigError(`${option} "${file}": cannot write it (a directory, not a file)`);
  } catch (e) {
    if (e instanceof ConfigError) throw e;
  }
  return file;
}
