import { execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports';

/*
 * A real PostgreSQL server for the tests: the distribution's packages (installed by
 * scripts/setup-integration.sh), a data directory under a temp dir, a free loopback port,
 * password authentication, and stop() that always removes both. PostgreSQL refuses to run
 * as root, so as root the server runs as the packages' `postgres` user.
 */

const run = promisify(execFile);

export interface Postgres {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** Admits TLS connections only (requireTls). */
  readonly tls: boolean;
  /** The server's binaries (initdb, psql, pg_dump, ...). */
  readonly bin: string;
  /** Runs SQL with psql on `database` and returns its unaligned, tuple-only output. */
  psql(sql: string, database?: string): Promise<string>;
  /**
   * A client session that stays in `sql` (e.g. a pg_sleep) under `applicationName`, as a module
   * still connected would; resolves once pg_stat_activity shows it.
   */
  session(sql: string, database: string, applicationName: string): Promise<{ close(): void }>;
  stop(): Promise<void>;
}

export interface PostgresOptions {
  readonly maxConnections?: number;
  /** Extra postgresql.conf lines. */
  readonly settings?: readonly string[];
  /**
   * TLS only, as Aurora with rds.force_ssl=1: a self-signed certificate, and pg_hba.conf
   * admitting TCP connections over SSL only.
   */
  readonly requireTls?: boolean;
}

/** The newest server installed from the distribution's packages, or a clear error. */
export function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin/initdb'))) : [];
  if (!versions.length) throw new Error('PostgreSQL server packages are not installed: run `npm run setup:integration`');
  return join(root, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

const asRoot = process.getuid?.() === 0;

/** Runs a server binary, as `postgres` when we are root. */
function serverCommand(bin: string, tool: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
}

export async function startPostgres(o: PostgresOptions = {}): Promise<Postgres> {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'pg-test-'));
  const data = join(dir, 'data');
  const password = 'local-test-only';
  const user = 'postgres';
  const port = await freePort();
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${password}\n`);
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const exec = async (tool: string, args: string[]) => {
    const [cmd, argv] = serverCommand(bin, tool, args);
    return run(cmd, argv, { maxBuffer: 64 * 1024 * 1024 });
  };
  const stop = async () => {
    await exec('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await exec('initdb', ['-D', data, '-U', user, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
    const conf = [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      `max_connections = ${o.maxConnections ?? 100}`,
      // A throwaway server: durability costs time and proves nothing here.
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      ...(o.requireTls ? ['ssl = on', "ssl_cert_file = 'server.crt'", "ssl_key_file = 'server.key'"] : []),
      ...(o.settings ?? []),
    ];
    writeFileSync(join(data, 'postgresql.auto.conf'), `${conf.join('\n')}\n`);
    const owned = ['postgresql.auto.conf'];
    if (o.requireTls) {
      execFileSync('openssl', ['req', '-new', '-x509', '-days', '1', '-nodes', '-subj', '/CN=localhost', '-keyout', join(data, 'server.key'), '-out', join(data, 'server.crt')], { stdio: 'ignore' });
      chmodSync(join(data, 'server.key'), 0o600);
      writeFileSync(join(data, 'pg_hba.conf'), 'local all all scram-sha-256\nhostssl all all 127.0.0.1/32 scram-sha-256\n');
      owned.push('server.key', 'server.crt', 'pg_hba.conf');
    }
    if (asRoot) execFileSync('chown', ['postgres:postgres', ...owned.map((f) => join(data, f))]);
    await exec('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  } catch (e) {
    await stop();
    throw e;
  }
  const psql = async (sql: string, database = 'postgres') => {
    const { stdout } = await run(join(bin, 'psql'), ['-X', '-v', 'ON_ERROR_STOP=1', '-At', '-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', database, '-c', sql], {
      env: { ...process.env, PGPASSWORD: password },
    });
    return stdout.trim();
  };
  const session = async (sql: string, database: string, applicationName: string) => {
    const child = spawn(join(bin, 'psql'), ['-X', '-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', database, '-c', sql], {
      env: { ...process.env, PGPASSWORD: password, PGAPPNAME: applicationName },
      stdio: 'ignore',
    });
    const seen = `SELECT count(*) FROM pg_stat_activity WHERE application_name = '${applicationName}'`;
    for (let i = 0; i < 100 && (await psql(seen)) === '0'; i++) await new Promise((r) => setTimeout(r, 50));
    return { close: () => void child.kill() };
  };
  return { host: '127.0.0.1', port, user, password, tls: o.requireTls ?? false, bin, psql, session, stop };
}
