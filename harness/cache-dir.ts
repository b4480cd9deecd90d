import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The user's cache for what outlives a checkout and is slow to make again (the servers
 * scripts/setup-integration.sh builds, PostgreSQL 16, the linters' results): $DB_BENCH_CACHE,
 * else ~/.cache/db-bench-infra. Everything in it is named by what made it, so clones share it.
 */
export function cacheDir(): string {
  return process.env.DB_BENCH_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'db-bench-infra');
}
