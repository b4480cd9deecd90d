import { execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cacheDir } from './cache-dir';
import { freePort } from './ports';
import { exitWithOutput } from './processes';

/*
 * A real PostgreSQL server for the tests: the distribution's packages (15 on Debian 12), or
 * PostgreSQL 16, the major Aurora runs (scripts/setup-postgres16.sh); a data directory under a
 * temp dir, a free loopback port, password authentication, and stop() that always removes both.
 * PostgreSQL refuses to run as root, so as root the server runs as the packages' `postgres` user.
 */

const run = promisify(execFile);

export interface Postgres {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** Admits TLS connections only (requireTls). */
  readonly tls: boolean;
  /** The server's major version. */
  readonly major: number;
  /** The client tools of the server's major (psql, pg_dump, pg_restore). */
  readonly bin: string;
  /** Runs SQL with psql on `database` and returns its unaligned, tuple-only output. */
  psql(sql: string, database?: string): Promise<string>;
  /**
   * A client session that runs `sql` under `applicationName`, as a module still connected would,
   * and stays connected until closed (an open transaction stays open); resolves once
   * pg_stat_activity shows it in `until` (default: connected at all).
   */
  session(sql: string, database: string, applicationName: string, until?: SessionState): Promise<Session>;
  /** Stops the server and keeps its data: `immediate` is a crash, `fast` what a restart does. */
  halt(mode: 'fast' | 'immediate'): Promise<void>;
  /** Starts a halted server again on the same port and data. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** What a session is doing, as pg_stat_activity shows it. */
type SessionState = 'connected' | 'idle in transaction' | 'waiting on a lock';

export interface Session {
  /** Its server process. */
  readonly pid: number;
  /** How psql ended (its exit code, and what it printed), once it has. */
  readonly ended: Promise<{ code: number | null; output: string }>;
  /** Ends the session on the server (rolling back what it left open) and waits for psql to exit. */
  close(): Promise<void>;
}

export interface PostgresOptions {
  /** 16 for PostgreSQL 16 (installed by scripts/setup-postgres16.sh); the distribution's by default. */
  readonly major?: 15 | 16;
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
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin/initdb'))) : [];
  if (!versions.length) throw new Error('PostgreSQL server packages are not installed: run `npm run setup:integration`');
  return join(root, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

const asRoot = process.getuid?.() === 0;

/** Where scripts/setup-postgres16.sh installs PostgreSQL 16: keep the two in step. */
function postgres16Dir(): string {
  if (process.env.DB_BENCH_PG16) return process.env.DB_BENCH_PG16;
  if (asRoot) return '/opt/db-bench-infra/postgresql-16';
  return join(cacheDir(), 'postgresql-16');
}

/** The server's and the client tools' directories for a major. */
function binaries(major: 15 | 16 | undefined): { server: string; client: string } {
  if (major !== 16) {
    const bin = postgresBin();
    return { server: bin, client: bin };
  }
  const dir = postgres16Dir();
  if (!existsSync(join(dir, 'server/bin/initdb')) || !existsSync(join(dir, 'client/bin/pg_dump')))
    throw new Error(`PostgreSQL 16 is not installed in ${dir}: run \`npm run setup:integration\``);
  return { server: join(dir, 'server/bin'), client: join(dir, 'client/bin') };
}

/** Runs a server binary, as `postgres` when we are root. */
function serverCommand(bin: string, tool: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
}

/** The data directory's settings: a loopback port, a private socket directory, no durability (a throwaway server), TLS when asked. */
function initialize(o: PostgresOptions, data: string, port: number, socketDir: string): void {
  const conf = [
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${socketDir}'`,
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
    execFileSync(
      'openssl',
      ['req', '-new', '-x509', '-days', '1', '-nodes', '-subj', '/CN=localhost', '-keyout', join(data, 'server.key'), '-out', join(data, 'server.crt')],
      { stdio: 'ignore' },
    );
    chmodSync(join(data, 'server.key'), 0o600);
    writeFileSync(join(data, 'pg_hba.conf'), 'local all all scram-sha-256\nhostssl all all 127.0.0.1/32 scram-sha-256\n');
    owned.push('server.key', 'server.crt', 'pg_hba.conf');
  }
  if (asRoot) execFileSync('chown', ['postgres:postgres', ...owned.map((f) => join(data, f))]);
}

interface Login {
  readonly bin: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
}

/**
 * Runs SQL with psql and returns its unaligned output. A long script (a 60-tenant seed) would
 * pass the kernel's limit on one argument: it goes on standard input instead, in one
 * transaction as -c runs it.
 */
async function runPsql(l: Login, sql: string, database = 'postgres'): Promise<string> {
  const args = ['-X', '-v', 'ON_ERROR_STOP=1', '-At', '-h', '127.0.0.1', '-p', String(l.port), '-U', l.user, '-d', database];
  if (Buffer.byteLength(sql) < 64 * 1024)
    return (await run(join(l.bin, 'psql'), [...args, '-c', sql], { env: { ...process.env, PGPASSWORD: l.password } })).stdout.trim();
  const child = execFile(join(l.bin, 'psql'), [...args, '-1', '-q', '-f', '-'], {
    env: { ...process.env, PGPASSWORD: l.password },
    maxBuffer: 64 * 1024 * 1024,
  });
  const done = new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (err += d));
    child.on('error', reject);
    void exitWithOutput(child).then(({ code }) => (code === 0 ? resolve(out.trim()) : reject(new Error(`psql exited ${code}: ${err.trim().split('\n')[0]}`))));
  });
  child.stdin!.end(sql);
  return done;
}

/** A session kept open on standard input, once it has reached `until`; it lives until it is ended. */
async function openSession(l: Login, sql: string, database: string, applicationName: string, until: SessionState): Promise<Session> {
  const child = spawn(join(l.bin, 'psql'), ['-X', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(l.port), '-U', l.user, '-d', database], {
    env: { ...process.env, PGPASSWORD: l.password, PGAPPNAME: applicationName },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const ended = exitWithOutput(child).then(({ code }) => ({ code, output }));
  child.stdin.write(`${sql.trim().replace(/;?$/, ';')}\n`);
  const where = { connected: 'true', 'idle in transaction': "state = 'idle in transaction'", 'waiting on a lock': "wait_event_type = 'Lock'" }[until];
  let pid = 0;
  for (let i = 0; i < 200 && !pid; i++) {
    pid = Number(await runPsql(l, `SELECT coalesce(max(pid), 0) FROM pg_stat_activity WHERE application_name = '${applicationName}' AND ${where}`));
    if (!pid) await new Promise((r) => setTimeout(r, 50));
  }
  if (!pid) throw new Error(`session ${applicationName} never got to "${until}": ${output}`);
  const close = async () => {
    await runPsql(l, `SELECT pg_terminate_backend(${pid})`).catch(() => undefined);
    child.stdin.end();
    await ended;
  };
  return { pid, ended, close };
}

export async function startPostgres(o: PostgresOptions = {}): Promise<Postgres> {
  const { server: serverBin, client: bin } = binaries(o.major);
  const dir = mkdtempSync(join(tmpdir(), 'pg-test-'));
  const data = join(dir, 'data');
  const login: Login = { bin, port: await freePort(), user: 'postgres', password: 'local-test-only' };
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${login.password}\n`);
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const exec = async (tool: string, args: string[]) => {
    const [cmd, argv] = serverCommand(serverBin, tool, args);
    return run(cmd, argv, { maxBuffer: 64 * 1024 * 1024 });
  };
  const start = async () => void (await exec('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']));
  const halt = async (mode: 'fast' | 'immediate') => void (await exec('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']));
  const stop = async () => {
    await exec('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await exec('initdb', ['-D', data, '-U', login.user, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
    initialize(o, data, login.port, dir);
    await start();
  } catch (e) {
    await stop();
    throw e;
  }
  const psql = (sql: string, database?: string) => runPsql(login, sql, database);
  const session = (sql: string, database: string, applicationName: string, until: SessionState = 'connected') =>
    openSession(login, sql, database, applicationName, until);
  const major = Number((await psql('SHOW server_version_num')).slice(0, -4));
  return {
    host: '127.0.0.1',
    port: login.port,
    user: login.user,
    password: login.password,
    tls: o.requireTls ?? false,
    major,
    bin,
    psql,
    session,
    halt,
    start,
    stop,
  };
}
