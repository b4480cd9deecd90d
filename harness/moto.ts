import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './ports';
import { stopProcess, waitFor } from './processes';

/*
 * moto's server mode on a free loopback port (moto_server.py): a real AWS-API-compatible
 * HTTP server for the SDK paths of the companion commands. moto comes from the project's setup
 * (requirements-dev.txt, installed into .venv by `npm run setup`).
 */

const ROOT = join(__dirname, '..');
const PYTHON = join(ROOT, '.venv/bin/python');
const MOTO_SERVER = join(__dirname, 'moto_server.py');
export const CREDENTIALS = { accessKeyId: 'testing', secretAccessKey: 'testing' };

/**
 * The same keys as a user's shell gives them to the SDK's default credential chain, for a
 * command's run function called in this process against moto.
 */
export function useMotoCredentials(): void {
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey });
}

/* moto imports every AWS backend before it listens: seconds alone, tens of seconds beside the
 * integration suite's Temporal clusters and PostgreSQL servers (CI saw 10 s pass). */
export const MOTO_START_MS = 90_000;

export interface Moto {
  readonly endpoint: string;
  stop(): void;
}

export async function startMoto(): Promise<Moto> {
  if (!existsSync(PYTHON)) throw new Error('moto is not installed: run `npm run setup` (creates .venv)');
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(PYTHON, [MOTO_SERVER, '-H', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  server.stderr?.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const answers = () =>
    fetch(`${endpoint}/moto-api/`).then(
      () => true,
      () => false,
    );
  const died = () => (server.exitCode !== null || server.signalCode ? `exited (${server.exitCode ?? server.signalCode}):\n${stderr}` : undefined);
  try {
    await waitFor(`moto answering at ${endpoint}`, MOTO_START_MS, answers, died);
  } catch (err) {
    await stopProcess(server);
    throw err;
  }
  // Its request log is not kept: a pipe nobody reads would fill and stall the server.
  server.stderr?.removeAllListeners('data').resume();
  return { endpoint, stop: () => server.kill() };
}
