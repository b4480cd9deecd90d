import type { TemporalScenario } from '../config';
import { durationSeconds } from '../config/fields';
import type { LadderConfig } from '../config/observability-schema';
import { climbLadder } from '../lib/temporal/commands/bench/ladder';
import type { Ladder } from '../lib/commands/shared/run-record';
import { runGenerator } from './benchmark';
import { freePort } from './ports';

/*
 * `bench ladder` on this machine: the same climb and the same judgement (lib/temporal/commands/bench/ladder.ts),
 * each step the benchmark's generator as a local process against a local cluster instead of a
 * task on ECS. bench:local and the integration suite climb with it.
 */

export interface LocalLadderOptions {
  readonly rates: readonly number[];
  readonly step: string;
  readonly held: LadderConfig['held'];
  readonly workflow?: string;
  /** Where each step's generator serves its metrics (a fixed port, for a Prometheus that scrapes it); a free one otherwise. */
  readonly metricsPort?: number;
  /** How long a step's generator waits for what is still open once it stops offering. */
  readonly completionTimeout?: string;
  readonly onStep?: (ladder: Ladder) => void;
}

export function localLadder(scenario: TemporalScenario, frontendAddress: string, o: LocalLadderOptions): Promise<Ladder> {
  const completionTimeout = o.completionTimeout ?? '30s';
  return climbLadder(
    o.rates,
    { step: o.step, held: o.held },
    async (rate) => {
      const start = new Date();
      const run = await runGenerator(
        scenario.preset,
        frontendAddress,
        o.metricsPort ?? (await freePort()),
        {
          BENCHMARK_TARGET_RATE: String(rate),
          BENCHMARK_DURATION: o.step,
          BENCHMARK_RAMP_UP: '0s',
          BENCHMARK_COMPLETION_TIMEOUT: completionTimeout,
          ...(o.workflow && { BENCHMARK_WORKFLOW_TYPE: o.workflow }),
        },
        (durationSeconds(o.step) + durationSeconds(completionTimeout) + 60) * 1000,
      );
      return { start: start.toISOString(), end: new Date().toISOString(), exitCode: run.exitCode, result: run.result };
    },
    o.onStep,
  );
}
