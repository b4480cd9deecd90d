import type { Scenario } from '../../../config';
import type { AwsClients, AwsTarget } from '../aws/clients';
import type { CommandIO } from '../shared/cli';
import type { Waiting } from '../shared/waiting';

export type EnvironmentCommand = 'hibernate' | 'wake' | 'status';

export interface EnvironmentRun<S> {
  readonly command: EnvironmentCommand;
  readonly scenario: S;
  readonly aws: AwsClients;
  readonly target: AwsTarget;
  readonly waiting: Waiting;
  readonly io: CommandIO;
  /** hibernate: even while a load generator runs. */
  readonly force?: boolean;
}

/** What `hibernate`, `wake` or `environment status` prints; status also as data, for `--json`. */
export interface EnvironmentOutput {
  readonly lines: readonly string[];
  readonly status?: object;
}

/** `hibernate`, `wake`, `environment status` (and what bench, capacity and report say of a hibernated environment): what they ask of a family. */
export interface FamilyEnvironment<S extends Scenario> {
  /** A sentence saying the environment is hibernated now, or undefined (awake, or not deployed). */
  hibernatedNow(aws: AwsClients, target: AwsTarget, scenario: S): Promise<string | undefined>;
  /** `hibernate`: the options only this family takes (`--force`, where there is a load generator to stop). */
  readonly environmentOptions: readonly string[];
  /** What to print. */
  environment(run: EnvironmentRun<S>): Promise<EnvironmentOutput>;
}
