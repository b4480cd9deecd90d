/*
 * `npm run typecheck`: tsc over the project (incremental), skipped when nothing it reads has
 * changed since it last passed (harness/typecheck.ts).
 */
import { join } from 'node:path';
import { TSC, typecheck } from '../harness/typecheck';

const ROOT = join(__dirname, '..');
const CACHE = join(ROOT, 'node_modules/.cache/db-bench-infra');
const tsc = [process.execPath, TSC, '--noEmit', '--incremental', '--tsBuildInfoFile', join(CACHE, 'tsc.tsbuildinfo')];
process.exitCode = typecheck(ROOT, join(CACHE, 'typecheck.pass'), tsc);
