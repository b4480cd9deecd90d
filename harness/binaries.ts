import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { TEMPORAL_ENVIRONMENT } from '../config/temporal-environment';

/*
 * Where scripts/setup-integration.sh puts what it builds: one cache directory, keyed by the
 * Temporal release in config (servers.upstream), so a version bump builds afresh and nothing
 * stale runs.
 */

const TEMPORAL_SERVER_VERSION = `v${TEMPORAL_ENVIRONMENT.servers.upstream.release}`;

function cacheDir(): string {
  return process.env.DB_BENCH_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'db-bench-infra');
}

export interface Binaries {
  /** Holds temporal-server and temporal-sql-tool. */
  readonly serverDir: string;
  readonly sqlTool: string;
  readonly benchmark: string;
  /** The upstream module's source: its stock development config lives here. */
  readonly serverSource: string;
}

export function binaries(): Binaries {
  const serverDir = join(cacheDir(), `temporal-server-${TEMPORAL_SERVER_VERSION}`);
  const b = {
    serverDir,
    sqlTool: join(serverDir, 'temporal-sql-tool'),
    benchmark: join(cacheDir(), 'benchmark/benchmark'),
    serverSource: join(serverDir, 'source'),
  };
  for (const path of [join(serverDir, 'temporal-server'), b.sqlTool, b.benchmark, b.serverSource])
    if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run setup:integration\` first`);
  return b;
}
