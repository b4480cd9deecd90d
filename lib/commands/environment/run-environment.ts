import { ConfigError } from '../../../config';
import { familyOf } from '../../families';
import type { EnvironmentCommand } from './family-environment';
import { loadAwsClients } from '../aws/load-clients';
import { type CommandDeps, type CommandOutput, processIO } from '../shared/cli';
import { resolveTarget, type TargetOptions } from '../shared/target';
import { commandWaiting, type Waiting, withinTimeout } from '../shared/waiting';

/*
 * `npm run hibernate`, `npm run wake` and `npm run environment -- status`: a whole environment
 * of either family down to what its data costs, and back. Every argument and the stack's state
 * are checked before the first change.
 */

export type { EnvironmentCommand };

export interface EnvironmentOptions extends Pick<TargetOptions, 'catalog'> {
  readonly scenario: string;
  readonly envName?: string;
  readonly endpointUrl?: string;
  readonly timeout: string;
  readonly interval: string;
  /** hibernate: even while a load generator runs. */
  readonly force?: boolean;
  /** status: print it as JSON. */
  readonly json?: boolean;
}

/** With a clock and a sleep: waits without real time passing (tests). */
export type EnvironmentDeps = CommandDeps & Pick<Waiting, 'sleep' | 'now'>;

export async function runEnvironment(command: EnvironmentCommand, o: EnvironmentOptions, deps: EnvironmentDeps = {}): Promise<CommandOutput> {
  const io = deps.io ?? processIO();
  const { scenario, aws: target } = resolveTarget(o);
  const waiting = commandWaiting(o.timeout, o.interval, io, deps);
  const aws = (deps.aws ?? loadAwsClients)();
  const family = familyOf(scenario);
  if (o.force && !family.environmentOptions.includes('--force'))
    throw new ConfigError(
      `--force does not apply to ${scenario.name} (a ${family.kind}: it has no load generator for --force to stop; valid: without --force)`,
    );
  const act = () => family.environment({ command, scenario, aws, target, waiting, io, force: o.force });
  // status waits for nothing but AWS's answers: its --timeout bounds those.
  const { lines, status } = await (command === 'status' ? withinTimeout(waiting.timeoutSeconds, `${scenario.name}'s environment`, act) : act());
  io.status.done();
  if (o.json && status) return { stdout: `${JSON.stringify(status, null, 2)}\n` };
  return { stdout: `${lines.join('\n')}\n` };
}
