import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A generated documentation file must equal what the code produces today. With
 * UPDATE_DOCS=1 the file is rewritten first (after an intended change), then compared.
 */
export function expectDocFile(path: string, content: string, name = path): void {
  if (process.env.UPDATE_DOCS === '1') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  expect({ name, exists: existsSync(path) }).toEqual({ name, exists: true });
  expect({ name, content: readFileSync(path, 'utf8') }).toEqual({ name, content });
}
