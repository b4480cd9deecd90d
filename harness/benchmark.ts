import type { TemporalPreset } from '../config';
import { type GeneratorResult, findResult } from '../lib/commands/shared/run-record';
import { type BenchmarkMode, benchmarkEnvironment } from '../lib/temporal/contract/temporal-config';
import { stopProcess } from './processes';
import { binaries } from './binaries';
import { freePort } from './ports';
import { type PostureProcess, spawnInPosture, taskPosture } from './task-posture';

/*
 * The project's benchmark program (benchmark/) run as the stack runs it: the environment
 * benchmarkEnvironment() renders for its task definitions, with the per-run overrides that
 * `bench run` passes to the generator, each under its task's posture.
 */

export interface Overrides {
  readonly BENCHMARK_TARGET_RATE?: string;
  readonly BENCHMARK_DURATION?: string;
  readonly BENCHMARK_RAMP_UP?: string;
  readonly BENCHMARK_WORKFLOW_TYPE?: string;
  readonly BENCHMARK_COMPLETION_TIMEOUT?: string;
  readonly BENCHMARK_WORKER_SLOTS?: string;
  readonly BENCHMARK_WORKER_POLLERS?: string;
  readonly BENCHMARK_ACTIVITY_DELAY?: string;
  readonly BENCHMARK_TIMER?: string;
}

function environment(preset: TemporalPreset, mode: BenchmarkMode, frontendAddress: string, metricsPort: number, overrides: Overrides = {}) {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', ...benchmarkEnvironment(preset, mode, { frontendAddress, metricsPort }), ...overrides };
}

export interface Worker {
  readonly process: PostureProcess;
  output(): string;
  stop(): Promise<void>;
}

export async function startWorker(preset: TemporalPreset, frontendAddress: string, metricsPort: number, overrides: Overrides = {}): Promise<Worker> {
  const child = await spawnInPosture(taskPosture('benchmark-worker'), {}, binaries().benchmark, [], {
    env: environment(preset, 'worker', frontendAddress, metricsPort, overrides),
  });
  let out = '';
  child.sandbox.stdout?.on('data', (d) => (out += d));
  child.sandbox.stderr?.on('data', (d) => (out += d));
  return {
    process: child,
    output: () => out,
    stop: () => stopProcess(child),
  };
}

export interface GeneratorRun {
  readonly exitCode: number | null;
  /** stdout and stderr lines, as awslogs would hold them. */
  readonly lines: string[];
  /** The result as `bench run` reads it from those lines. */
  readonly result: GeneratorResult | null;
  /** The whole result JSON the generator printed (more fields than bench run keeps). */
  readonly raw: Record<string, any> | null;
}

/** Runs the generator to its end (or kills it after timeoutMs, or SIGTERMs it when `signal` aborts: a task stopped) and reads its result. */
export async function runGenerator(
  preset: TemporalPreset,
  frontendAddress: string,
  metricsPort: number,
  overrides: Overrides,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<GeneratorRun> {
  const child = await spawnInPosture(taskPosture('benchmark-generator'), {}, binaries().benchmark, [], {
    env: environment(preset, 'generator', frontendAddress, metricsPort, overrides),
  });
  const stopped = () => child.kill('SIGTERM');
  if (signal?.aborted) stopped();
  signal?.addEventListener('abort', stopped);
  let stdout = '';
  let stderr = '';
  child.sandbox.stdout?.on('data', (d) => (stdout += d));
  child.sandbox.stderr?.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const exitCode = (await child.exited).code;
  clearTimeout(timer);
  signal?.removeEventListener('abort', stopped);
  const lines = `${stderr}${stdout}`.split('\n');
  const start = stdout.indexOf('{');
  let raw: Record<string, any> | null = null;
  try {
    raw = start >= 0 ? JSON.parse(stdout.slice(start)) : null;
  } catch {
    raw = null;
  }
  return { exitCode, lines, result: findResult(lines), raw };
}

/**
 * A short run before a measured one: the namespace registered, the task queues loaded, the
 * worker polling (5 workflows/s for 5 s).
 */
export async function warmUp(preset: TemporalPreset, frontendAddress: string): Promise<GeneratorRun> {
  return runGenerator(preset, frontendAddress, await freePort(), { BENCHMARK_TARGET_RATE: '5', BENCHMARK_DURATION: '5s', BENCHMARK_RAMP_UP: '0s' }, 120_000);
}
