import { z } from './zod';
import { durationSeconds, goDuration } from './fields';

/*
 * How a Temporal server stops (environment.deployment.shutdown): each role's drain after SIGTERM,
 * rendered as dynamic config into every preset and held to ECS's stopTimeout and the DNS TTL.
 */

export const shutdownSchema = z.strictObject({
  frontend: z.strictObject({ failHealthCheck: goDuration, drain: goDuration }),
  history: z.strictObject({ drain: goDuration }),
  matching: z.strictObject({ drain: goDuration }),
});
type Shutdown = z.output<typeof shutdownSchema>;

/** What a server does after SIGTERM beyond its drain: the gRPC server's own 2 s grace, and slack. */
const SHUTDOWN_SLACK_SECONDS = 5;

/** deployment.shutdown as the dynamic-config keys it renders into every preset. */
export const SHUTDOWN_KEYS: Readonly<Record<string, (s: Shutdown) => string>> = {
  'frontend.shutdownFailHealthCheckDuration': (s) => s.frontend.failHealthCheck,
  'frontend.shutdownDrainDuration': (s) => s.frontend.drain,
  'history.shutdownDrainDuration': (s) => s.history.drain,
  'matching.shutdownDrainDuration': (s) => s.matching.drain,
};

export function shutdownDynamicConfig(s: Shutdown): Record<string, string> {
  return Object.fromEntries(Object.entries(SHUTDOWN_KEYS).map(([key, value]) => [key, value(s)]));
}

/**
 * A stop that outlasts stopTimeout is a SIGKILL: history loses its shards unannounced,
 * frontend its in-flight calls. Each role's drain must end that much before it, and a
 * frontend must fail its health check for as long as its address stays in DNS answers.
 */
export function shutdownProblems(d: { stopTimeout: string; dnsTtl: string; shutdown: Shutdown }): string[] {
  const stop = durationSeconds(d.stopTimeout);
  const s = d.shutdown;
  const problems: string[] = [];
  const spans: [string, number][] = [
    ['frontend failHealthCheck + drain', durationSeconds(s.frontend.failHealthCheck) + durationSeconds(s.frontend.drain)],
    ['history drain', durationSeconds(s.history.drain)],
    ['matching drain', durationSeconds(s.matching.drain)],
  ];
  for (const [what, seconds] of spans)
    if (seconds + SHUTDOWN_SLACK_SECONDS > stop)
      problems.push(
        `deployment.shutdown: ${what} is ${seconds} s, which with ${SHUTDOWN_SLACK_SECONDS} s of slack outlasts stopTimeout ${d.stopTimeout} (valid: a drain that ends ${SHUTDOWN_SLACK_SECONDS} s before ECS sends SIGKILL)`,
      );
  if (durationSeconds(s.frontend.failHealthCheck) < durationSeconds(d.dnsTtl))
    problems.push(
      `deployment.shutdown.frontend.failHealthCheck ${s.frontend.failHealthCheck} is shorter than dnsTtl ${d.dnsTtl} (valid: at least the TTL: clients still resolve a stopping frontend that long)`,
    );
  return problems;
}
