import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { freePort } from '../../../harness/ports';
import { stopProcess } from '../../../harness/processes';

/*
 * A real Prometheus server (Debian's `prometheus` package, installed by setup-integration)
 * scraping local targets as each task's collector scrapes its task on ECS: one job per
 * service, named as the stack names the collector's job. On loopback, a free port, a
 * temporary data directory, always stopped.
 */

const PROMETHEUS_BIN = '/usr/bin/prometheus';

export interface LocalPrometheus {
  readonly url: string;
  readonly scrapeSeconds: number;
  /** Waits until every job has been scraped successfully at least once. */
  scraped(jobs: readonly string[], timeoutMs?: number): Promise<void>;
  /** Waits until an instant query answers at least `series` series (a gauge first reported late). */
  answers(query: string, series: number, timeoutMs?: number): Promise<void>;
  log(): string;
  stop(): Promise<void>;
}

/** `jobs`: each job's port, or ports (one target each, as each ECS task is its own instance). */
export async function startPrometheus(jobs: Readonly<Record<string, number | readonly number[]>>, scrapeSeconds = 5): Promise<LocalPrometheus> {
  if (!existsSync(PROMETHEUS_BIN)) throw new Error(`${PROMETHEUS_BIN} is missing: run \`npm run setup:integration\` first`);
  const dir = mkdtempSync(join(tmpdir(), 'prometheus-'));
  const config = {
    global: { scrape_interval: `${scrapeSeconds}s`, evaluation_interval: `${scrapeSeconds}s` },
    scrape_configs: Object.entries(jobs).map(([job, ports]) => ({
      job_name: job,
      static_configs: [{ targets: [ports].flat().map((port) => `127.0.0.1:${port}`) }],
    })),
  };
  writeFileSync(join(dir, 'prometheus.yml'), stringify(config));
  const port = await freePort();
  const logFile = join(dir, 'prometheus.log');
  const fd = openSync(logFile, 'a');
  const child: ChildProcess = spawn(
    PROMETHEUS_BIN,
    [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', fd, fd] },
  );
  closeSync(fd);
  const url = `http://127.0.0.1:${port}`;
  const log = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
  const stop = async () => {
    await stopProcess(child);
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      const out = log();
      await stop();
      throw new Error(`prometheus exited (${child.exitCode}):\n${out}`);
    }
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus not ready on ${url} within 30 s:\n${log()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    scrapeSeconds,
    log,
    stop,
    answers: async (query, series, timeoutMs = 90_000) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const body = (await (await fetch(`${url}/api/v1/query?query=${encodeURIComponent(query)}`)).json()) as { data: { result: unknown[] } };
        if (body.data.result.length >= series) return;
        if (Date.now() > until)
          throw new Error(`prometheus answers ${query} with ${body.data.result.length} series, not ${series}, after ${timeoutMs / 1000} s`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    },
    scraped: async (names, timeoutMs = 60_000) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const body = (await (await fetch(`${url}/api/v1/targets`)).json()) as { data: { activeTargets: { labels: { job: string }; health: string }[] } };
        const up = new Set(body.data.activeTargets.filter((t) => t.health === 'up').map((t) => t.labels.job));
        const missing = names.filter((n) => !up.has(n));
        if (!missing.length) return;
        if (Date.now() > until) throw new Error(`prometheus has not scraped ${missing.join(', ')} within ${timeoutMs / 1000} s`);
        await new Promise((r) => setTimeout(r, 500));
      }
    },
  };
}
