import type { TemporalScenario } from '../config';
import { uiEnvironment } from '../lib/temporal/contract/temporal-config';
import { binaries } from './binaries';
import { freePort } from './ports';
import { stopProcess } from './processes';
import { spawnInPosture, taskPosture } from './task-posture';

/*
 * The Temporal Web UI as the stack runs it: the release config names, started with the image's
 * own config template and the environment uiEnvironment() renders for its task. Only its port
 * differs (a free one on loopback), as every local port does. It runs under its task's posture.
 */

export interface LocalUi {
  readonly url: string;
  output(): string;
  stop(): Promise<void>;
}

export async function startUi(scenario: TemporalScenario, frontendAddress: string, timeoutMs = 30_000): Promise<LocalUi> {
  const port = await freePort();
  const { ui } = binaries();
  const child = await spawnInPosture(taskPosture('temporal-ui'), {}, ui.server, ['--root', ui.root, '--config', 'config', '--env', 'docker', 'start'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ...uiEnvironment(scenario.environment, scenario.preset, { frontendAddress }),
      TEMPORAL_UI_PORT: String(port),
    },
  });
  let out = '';
  child.sandbox.stdout?.on('data', (d) => (out += d));
  child.sandbox.stderr?.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const local: LocalUi = { url, output: () => out, stop: () => stopProcess(child) };
  // Up once its own health check (the one the task definition runs) answers.
  for (const until = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 250))) {
    if (!child.running()) throw new Error(`the Web UI exited ${(await child.exited).code}:\n${out.slice(-2000)}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return local;
    if (Date.now() > until) {
      await local.stop();
      throw new Error(`the Web UI did not answer /healthz within ${timeoutMs / 1000} s:\n${out.slice(-2000)}`);
    }
  }
}
