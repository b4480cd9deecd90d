/*
 * `npm run typecheck`: tsc over the project (incremental), skipped when nothing it reads has
 * changed since it last passed (harness/typecheck.ts).
 */
import { join } from 'node:path';
import { typecheck } from '../harness/typecheck';

const ROOT = join(__dirname, '..');
const CACHE = join(ROOT, 'node_modules/.cache/db-bench-infra');
const tsc = [process.execPath, join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '--incremental', '--tsBuildInfoFile', join(CACHE, 'tsc.tsbuildinfo')];
process.exitCode = typecheck(ROOT, join(CACHE, 'typecheck.pass'), tsc);
