import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { binaries } from './binaries';
import { listening } from './ports';
import { stopProcess, tailOf, waitFor } from './processes';
import type { ClusterOptions } from './temporal-cluster';
import { localStores, setUpDatabases } from './temporal-stores';

/**
 * Temporal's stock development setup for comparison: the server module's own
 * config/development-postgres12.yaml and its dynamic config, one process running every role,
 * pointed at the same PostgreSQL (only the connection settings and the shard count changed).
 */
export async function startStockServer(o: ClusterOptions): Promise<{ frontendAddress: string; stop(): Promise<void>; tail(lines?: number): string }> {
  const b = binaries();
  const stores = localStores(o.postgres, o.databasePrefix ?? 'stock', o.numHistoryShards);
  await setUpDatabases(b, o.postgres, stores.database, stores.visibilityDatabase);
  const c = parse(readFileSync(join(b.serverSource, 'config/development-postgres12.yaml'), 'utf8'));
  c.persistence.numHistoryShards = stores.numHistoryShards;
  for (const [name, db] of [
    [c.persistence.defaultStore, stores.database],
    [c.persistence.visibilityStore, stores.visibilityDatabase],
  ])
    Object.assign(c.persistence.datastores[name].sql, {
      databaseName: db,
      connectAddr: `${o.postgres.host}:${o.postgres.port}`,
      user: o.postgres.user,
      password: o.postgres.password,
    });
  const dir = mkdtempSync(join(tmpdir(), 'temporal-stock-'));
  const file = join(dir, 'config.yaml');
  writeFileSync(file, stringify(c, { lineWidth: 0 }));
  const log = join(dir, 'server.log');
  const fd = openSync(log, 'a');
  // Its dynamic-config path is relative to the module's root.
  const child = spawn(join(b.serverDir, 'temporal-server'), ['--config-file', file, '--allow-no-auth', 'start'], {
    cwd: b.serverSource,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const stop = async () => {
    await stopProcess(child);
    rmSync(dir, { recursive: true, force: true });
  };
  const port = c.services.frontend.rpc.grpcPort as number;
  try {
    await waitFor(
      `stock server listening on ${port}`,
      o.startTimeoutMs ?? 90_000,
      () => listening(port),
      () => (child.exitCode !== null ? `exited (${child.exitCode}):\n${tailOf(log)}` : undefined),
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { frontendAddress: `127.0.0.1:${port}`, stop, tail: (lines) => tailOf(log, lines) };
}
