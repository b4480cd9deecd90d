import { Command, InvalidArgumentError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, familyScenarioNames, loadCatalog, type Scenario, scenarioNames } from '../../../config';
import { forDisplay, noScenario } from '../../../config/errors';
import type { AwsClients } from '../aws/clients';
import { abandonAwsCalls, AwsNoAnswer } from '../aws/deadline';
import { clearProgress, progress } from './progress';

/*
 * What every companion command shares: one line and exit code 1 for a mistake in what the
 * user passed or configured, one line and exit code 2 for an AWS error (credentials,
 * permissions, a missing resource), one line and the failure's own code when the command ran
 * but its outcome is a no, and the stack trace only for a bug.
 */

export const EXIT_USAGE = 1;
/** AWS said no, or did not answer. */
export const EXIT_AWS = 2;
/** `plan`: a stateful resource would be replaced or destroyed. */
export const EXIT_UNSAFE = 3;
/** `bench`: a wait ran past its --timeout. */
export const EXIT_TIMEOUT = 4;
/** `bench`: AWS did what was asked, and the outcome is a failure (a task stopped with an error, a cluster not ACTIVE). */
export const EXIT_FAILED = 5;
/** `report`: not one datapoint in the window (the report, written anyway, says so). */
export const EXIT_NO_DATA = 6;

/** A command's outcome that is a no, with the exit code that says which. */
export class CommandFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: typeof EXIT_AWS | typeof EXIT_UNSAFE | typeof EXIT_TIMEOUT | typeof EXIT_FAILED | typeof EXIT_NO_DATA,
  ) {
    super(message);
    this.name = 'CommandFailure';
  }
}

/**
 * A command line program whose own parse errors (an unknown option, a missing value) are shown
 * as the command's are (one line, user text escaped), and which refuses a value option given
 * twice, with or without a default: commander would keep the last one silently. Subcommands
 * are the same kind.
 */
class CliCommand extends Command {
  override createCommand(name?: string): Command {
    return new CliCommand(name);
  }

  override parse(argv?: readonly string[], options?: { from: 'node' | 'electron' | 'user' }): this {
    refuseRepeats(this, new Map());
    return super.parse(argv, options);
  }
}

/** What an option given an empty value says: the scenarios, for an option that names one; else the value it takes. */
function emptyValue(o: Option): string {
  const takes = o.flags.slice(o.flags.indexOf(o.long!) + o.long!.length).trim();
  if (o.long !== '--scenario' && takes !== '<scenario>') return `${o.long} is empty (valid: ${takes})`;
  const { family } = o as Option & { family?: Scenario['family'] };
  return noScenario(o.long, family ? familyScenarioNames(family) : scenarioNames(loadCatalog()));
}

/** The parsers refuseRepeats installed: a second parse replaces them, with a fresh record of what was given. */
const refusing = new WeakSet<(value: string, previous: unknown) => unknown>();

/** Every value option without a parser of its own refuses an empty value and a second one; `given` holds each one's first value in this parse. */
function refuseRepeats(c: Command, given: Map<Option, string>): void {
  for (const o of c.options) {
    if (!(o.required || o.optional) || o.variadic || !o.long || (o.parseArg && !refusing.has(o.parseArg))) continue;
    const parser = (value: string): string => {
      // An empty value would read as the option not given (--report "" as no report).
      if (value.trim() === '') throw new ConfigError(emptyValue(o));
      const first = given.get(o);
      if (first !== undefined) throw new InvalidArgumentError(`${o.long} is given twice ("${first}", then "${value}"); valid: one ${o.long}`);
      given.set(o, value);
      return value;
    };
    refusing.add(parser);
    o.argParser(parser);
  }
  for (const sub of c.commands) refuseRepeats(sub, given);
}

const PACKAGE_VERSION: string = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')).version;

/** The codes a command exits with beyond 0 and 1, each with what it means for that command. */
export interface ExitCodes {
  /** Whether it calls AWS, so that 2 (AWS said no) can end it. */
  readonly aws: boolean;
  readonly [EXIT_UNSAFE]?: string;
  readonly [EXIT_TIMEOUT]?: string;
  readonly [EXIT_FAILED]?: string;
  readonly [EXIT_NO_DATA]?: string;
}

/**
 * A companion command: its parse errors shown as its own are, `--version`, and its exit codes at
 * the end of its help, in one form for every command (docs/commands.md has the table).
 */
export function newCommand(name: string, exits: ExitCodes): Command {
  const codes: [number, string][] = [
    [0, 'done'],
    [EXIT_USAGE, 'bad input: a scenario, an option or a file, named with what is valid'],
    ...(exits.aws
      ? [
          [EXIT_AWS, 'AWS said no or did not answer: credentials, permissions, throttling past the retries, a connection, a call past its deadline'] as [
            number,
            string,
          ],
        ]
      : []),
    ...[EXIT_UNSAFE, EXIT_TIMEOUT, EXIT_FAILED, EXIT_NO_DATA].flatMap((c) =>
      exits[c as keyof ExitCodes] ? [[c, String(exits[c as keyof ExitCodes])] as [number, string]] : [],
    ),
  ];
  return new CliCommand(name)
    .version(PACKAGE_VERSION, '--version', 'print the version of db-bench-infra')
    .configureOutput({
      // commander puts its suggestion on a line of its own: one line, as every message here is.
      outputError: (text, write) => write(`${forDisplay(text.trimEnd().replace(/\n+\(Did you mean (.*)\?\)$/, ' (did you mean $1?)'))}\n`),
    })
    .addHelpText('afterAll', `\nExit codes:\n${codes.map(([c, what]) => `  ${c}  ${what}`).join('\n')}`);
}

/**
 * The options most commands share, declared here once: which deployed environment a command is
 * about, where its AWS calls go, and JSON output.
 */
export const sharedOption = {
  /** `family`: the one family the command takes, whose scenarios an empty value lists. */
  scenario: (what: string, family?: Scenario['family']) => Object.assign(new Option('-s, --scenario <name>', what), { family }),
  envName: () => new Option('--env-name <name>', 'the envName the stacks are deployed with, if any'),
  endpointUrl: (what = 'an AWS-API-compatible endpoint instead of AWS (a local emulator)') => new Option('--endpoint-url <url>', what).argParser(endpointUrl),
  json: (what = 'print it as JSON') => new Option('--json', what),
};

/**
 * What a command's run function returns: what it prints, and how it ends when that is not a
 * plain success. The entry point (bin/<command>.ts) writes it; a test reads it.
 */
export interface CommandOutput {
  readonly stdout: string;
  /** A non-zero exit with no error line (plan: a stateful resource would be replaced). */
  readonly exitCode?: number;
  /** An outcome that is a no, printed as an error line after stdout (report: no data; bench run: the run failed). */
  readonly failure?: CommandFailure;
}

/** How a run function talks to its user while it works; a test passes one that records (test/support/command-io.ts). */
export interface CommandIO {
  /** A line on stderr: a note, or what a long run has started. */
  note(line: string): void;
  /** The one-line status of a wait. */
  readonly status: { update(text: string): void; done(): void };
  /** What to say on Ctrl-C while something started in AWS goes on without the command. */
  onInterrupt(running: () => string | undefined): void;
  /** Output that must show before a long wait (move prints its plan, then runs it). */
  early(text: string): void;
}

/** What a run function takes besides its options, each injected so that a test gives its own. */
export interface CommandDeps {
  /** The AWS clients, made when first needed (default: the real ones, aws/load-clients.ts). */
  readonly aws?: () => AwsClients;
  /** The user's terminal (default: the process's own streams and signals). */
  readonly io?: CommandIO;
}

/** The process's own streams and signals. */
export function processIO(): CommandIO {
  const status = progress();
  return {
    note: (line) => {
      status.done();
      process.stderr.write(`${line}\n`);
    },
    status,
    onInterrupt,
    early: (text) => {
      status.done();
      process.stdout.write(shown(text));
    },
  };
}

/** What a command prints, as its reader sees it: markdown, but on a terminal its tables drawn to fit (terminal-tables.ts). */
function shown(text: string): string {
  if (!process.stdout.isTTY) return text;
  const { forTerminal }: typeof import('./terminal-tables') = require('./terminal-tables');
  return forTerminal(text, process.stdout.columns || 100);
}

/** Today's date, as the files a command rewrites record it. */
export const today = (): string => new Date().toISOString().slice(0, 10);

export function runCommand(main: () => Promise<number | void | CommandOutput>): Promise<void> {
  const run = settle(main);
  runs.push(run);
  return run;
}

let lastEntryPoint: (() => unknown) | undefined;

/**
 * Runs an entry point's body (bin/<command>.ts: commander parses process.argv, then the command
 * runs), and keeps it: a caller that loaded the entry point in process (the tests) runs it again
 * with other arguments through rerunEntryPoint, without loading its modules again. Commander
 * parses afresh each time.
 */
export function entryPoint(body: () => unknown): void {
  lastEntryPoint = () => {
    try {
      body();
    } catch (e) {
      // A value refused while commander parsed for a subcommand, before any run function: one line, as there.
      if (!(e instanceof ConfigError)) throw e;
      process.stderr.write(`error: ${forDisplay(e.message)}\n`);
      process.exitCode = EXIT_USAGE;
    }
  };
  lastEntryPoint();
}

/** @public loaded lazily with require(), which knip does not follow */
export const rerunEntryPoint = (): unknown => lastEntryPoint?.();

/** The commands this process started and no caller has waited for yet. */
const runs: Promise<void>[] = [];
/**
 * The commands started since the last call: what a caller that loads a command in process waits
 * for (the tests), each run's outcome its own (an earlier run's exit must not answer for a later one).
 * @public loaded lazily with require(), which knip does not follow
 */
export const commandRuns = (): Promise<void[]> => Promise.all(runs.splice(0));

async function settle(main: () => Promise<number | void | CommandOutput>): Promise<void> {
  // Ctrl-C before a command has started anything in AWS (its own handler says what goes on once it has).
  const quiet = (signal: NodeJS.Signals) => {
    if (interruptHandlers.length) return;
    clearProgress();
    process.stderr.write(`interrupted (${signal}): nothing had been started in AWS\n`);
    process.exit(EXIT_INTERRUPTED);
  };
  process.on('SIGINT', quiet);
  process.on('SIGTERM', quiet);
  try {
    await decide(main);
  } finally {
    abandonAwsCalls();
    process.off('SIGINT', quiet);
    process.off('SIGTERM', quiet);
    for (const stop of interruptHandlers.splice(0)) {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
  }
}

/** A run function's output written, and its exit code; its failure thrown, to be decided like any other. */
function printed(result: number | void | CommandOutput): number {
  if (typeof result !== 'object') return result ?? 0;
  clearProgress();
  process.stdout.write(shown(result.stdout));
  if (result.failure) throw result.failure;
  return result.exitCode ?? 0;
}

async function decide(main: () => Promise<number | void | CommandOutput>): Promise<void> {
  try {
    process.exitCode = printed(await main());
  } catch (e) {
    clearProgress();
    if (e instanceof ConfigError || e instanceof CommandFailure) {
      process.stderr.write(`error: ${forDisplay(e.message)}\n`);
      process.exitCode = e instanceof CommandFailure ? e.exitCode : EXIT_USAGE;
    } else if (isAwsError(e)) {
      process.stderr.write(`error: ${forDisplay(awsErrorLine(e))}\n`);
      process.exitCode = EXIT_AWS;
    } else {
      throw e;
    }
  }
}

/** An AWS error in one line: what the SDK said, and where that says too little, what it was. */
export function awsErrorLine(e: Error): string {
  if (e.name === AwsNoAnswer.name) return e.message;
  if (e.name === 'CredentialsProviderError') {
    const profile = process.env.AWS_PROFILE;
    // The SDK's own message names the profile it could not load; without one it names no variable.
    return profile
      ? `AWS_PROFILE=${profile} gave no credentials: the profile is not in ~/.aws/config or ~/.aws/credentials, or its session has expired ` +
          `(valid: a profile \`aws configure list-profiles\` lists; for an SSO profile, \`aws sso login --profile ${profile}\` first)`
      : NO_CREDENTIALS;
  }
  const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const said = e.message.split('\n')[0];
  // An endpoint that is not AWS's (a wrong --endpoint-url, a proxy) answers with no error the SDK knows: say what it did answer.
  if (said === 'Unknown' || said === 'UnknownError' || said === '')
    return `AWS ${e.name}: the endpoint answered HTTP ${status ?? 'with no status'} and no AWS error (is --endpoint-url an AWS API or its emulator?)`;
  return `AWS ${e.name}: ${said}`;
}

/** What to do when the SDK finds no credentials (its own message names no variable). */
export const NO_CREDENTIALS =
  'no AWS credentials found: set AWS_PROFILE (a profile from `aws configure` or `aws configure sso`), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; ' +
  'a local emulator such as moto (--endpoint-url <url>) takes any keys but still needs some: AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing';

/**
 * --endpoint-url, as commander parses it: an http(s) URL with a host. Anything else is commander's
 * one-line refusal of the argument (exit 1), wherever the command calls parse.
 */
function endpointUrl(raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname)
    throw new InvalidArgumentError("Not an http or https URL (valid: the emulator's address, such as http://127.0.0.1:5000)");
  return raw;
}

/** Errors the SDK raises for what the account, network or credentials did, not for a bug. */
export function isAwsError(e: unknown): e is Error {
  if (!(e instanceof Error)) return false;
  if ('$metadata' in e || e.name === AwsNoAnswer.name || e.name === 'CredentialsProviderError' || e.name === 'TimeoutError') return true;
  const code = (e as { code?: unknown }).code;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND';
}

/** Exit code of a command stopped by Ctrl-C (128 + SIGINT), as a shell reports it. */
export const EXIT_INTERRUPTED = 130;

/**
 * While a command has started something in AWS that goes on without it, Ctrl-C (or SIGTERM)
 * says in one line what is still running and how to stop it, then exits 130. `running`
 * returns that line's substance, or undefined while nothing has been started.
 */
export function onInterrupt(running: () => string | undefined): void {
  const stop = (signal: NodeJS.Signals) => {
    clearProgress();
    const what = running();
    process.stderr.write(`interrupted (${signal}): ${what ?? 'nothing had been started in AWS'}\n`);
    process.exit(EXIT_INTERRUPTED);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  interruptHandlers.push(stop);
}

/** The handlers onInterrupt added: removed when the command settles, so that nothing outlives it. */
const interruptHandlers: ((signal: NodeJS.Signals) => void)[] = [];
