import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `engines.node` in package.json: the Node.js release lines the project supports. */
export const ENGINES: string = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')).engines.node;

/** The major versions ENGINES names (`^22 || ^24` gives 22 and 24). */
export const SUPPORTED_NODE_MAJORS: readonly string[] = [...ENGINES.matchAll(/\^(\d+)/g)].map((m) => m[1]);
