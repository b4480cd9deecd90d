import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

/*
 * moto's server mode on a free loopback port (moto_server.py): a real AWS-API-compatible
 * HTTP server for the SDK paths of the companion commands. moto comes from the project's setup
 * (requirements-dev.txt, installed into .venv by `npm run setup`).
 */

export const ROOT = join(__dirname, '../..');
const PYTHON = join(ROOT, '.venv/bin/python');
const MOTO_SERVER = join(__dirname, 'moto_server.py');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
export const CREDENTIALS = { accessKeyId: 'testing', secretAccessKey: 'testing' };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitForServer(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`${url}/moto-api/`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`moto did not start at ${url}`);
}

export interface Moto {
  readonly endpoint: string;
  stop(): void;
}

export async function startMoto(): Promise<Moto> {
  if (!existsSync(PYTHON)) throw new Error('moto is not installed: run `npm run setup` (creates .venv)');
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(PYTHON, [MOTO_SERVER, '-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  await waitForServer(endpoint);
  return { endpoint, stop: () => server.kill() };
}

export interface CliResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

const run = promisify(execFile);

/** Runs a bin/ command as a user would (through tsx), with test credentials. */
export async function runCli(script: string, args: readonly string[]): Promise<CliResult> {
  try {
    const r = await run(TSX, [join(ROOT, 'bin', script), ...args], {
      cwd: ROOT,
      env: { ...process.env, AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    return { status: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e: any) {
    if (typeof e.code !== 'number') throw e;
    return { status: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
