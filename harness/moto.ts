import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './ports';

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
