import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CLI_CONTEXT } from '../../lib/assembly/scenario-app';
import { CALL_LOG_VARIABLE } from '../../lib/commands/aws/iam-prefixes';
import { callLogFor } from './operator-audit';
import { tempDir } from './temp-dir';

const ROOT = join(__dirname, '../..');

export interface CliResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

const execNode = promisify(execFile);

/**
 * A bin/ script as package.json and cdk.json run it (`node --import tsx`), its exit status and
 * output (a non-zero exit is a result, not an error).
 */
async function runScript(script: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  try {
    const r = await execNode(process.execPath, ['--import', 'tsx', join(ROOT, 'bin', script), ...args], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });
    return { status: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e: any) {
    if (typeof e.code !== 'number') throw e;
    return { status: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Runs a bin/ command as a user would (through tsx), with test credentials; its AWS calls are held to its operator policy (operator-audit.ts). */
export function runCli(script: string, args: readonly string[]): Promise<CliResult> {
  return runScript(script, args, {
    ...process.env,
    [CALL_LOG_VARIABLE]: callLogFor(script),
    AWS_ACCESS_KEY_ID: 'testing',
    AWS_SECRET_ACCESS_KEY: 'testing',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  });
}

/** The environment `cdk synth` gives the app here: no AWS credentials, no instance metadata. */
export function hermeticEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    AWS_EC2_METADATA_DISABLED: 'true',
    ...extra,
  };
}

/**
 * bin/app.ts as the CDK CLI runs it: a separate process, context in CDK_CONTEXT_JSON, the
 * cloud assembly written to CDK_OUTDIR (a new temporary directory, returned, removed after the file's tests).
 */
export async function runApp(context: Record<string, unknown>): Promise<CliResult & { outdir: string }> {
  const outdir = tempDir('cdk-out-');
  const env = hermeticEnv({ CDK_CONTEXT_JSON: JSON.stringify({ ...CLI_CONTEXT, ...context }), CDK_OUTDIR: outdir });
  return { ...(await runScript('app.ts', [], env)), outdir };
}

/** process.exit, as a command calls it in process: it ends the command, not the test worker. */
class Exited extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** In-process runs share process.exit, argv, env and the output streams, so they run one at a time. */
let serial: Promise<unknown> = Promise.resolve();

/**
 * `body` with stdout and stderr captured and process.exit turned into Exited: the status is
 * the exit code, or process.exitCode once body is done. A thrown error that is not an exit
 * is a bug: its stack goes into stderr, where the caller's assertions show it.
 */
export function inProcess(body: () => unknown): Promise<CliResult> {
  const run = async () => {
    let stdout = '';
    let stderr = '';
    let status = 0;
    const capture = (stream: NodeJS.WriteStream, add: (s: string) => void) =>
      jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        add(String(chunk));
        return true;
      });
    const out = capture(process.stdout, (s) => (stdout += s));
    const err = capture(process.stderr, (s) => (stderr += s));
    const exit = jest.spyOn(process, 'exit').mockImplementation((code?: string | number | null) => {
      throw new Exited(Number(code ?? 0));
    });
    const before = process.exitCode;
    process.exitCode = undefined;
    try {
      await body();
      status = Number(process.exitCode ?? 0);
    } catch (e) {
      if (e instanceof Exited) status = e.code;
      else {
        status = -1;
        stderr += (e as Error).stack;
      }
    } finally {
      process.exitCode = before;
      out.mockRestore();
      err.mockRestore();
      exit.mockRestore();
    }
    return { status, stdout, stderr };
  };
  const result = serial.then(run, run);
  serial = result;
  return result;
}

/** Each bin/ script loaded in this test file, by name: its own module registry's runner (lib/commands/shared/cli.ts). */
const loaded = new Map<string, typeof import('../../lib/commands/shared/cli')>();

/**
 * A bin/ command run in this process through its own entry point (commander parsing argv,
 * runCommand deciding the exit code), with the environment runCli gives it: the same code a
 * user runs, without a process start. A script's modules are loaded once per test file, in a
 * registry of their own; later runs run its entry point again (rerunEntryPoint), and commander
 * parses the new arguments afresh.
 */
export function runCliInProcess(script: string, args: readonly string[]): Promise<CliResult> {
  return inProcess(async () => {
    const argv = process.argv;
    // Set on the real process.env (replacing the object would lose its string coercion for later runs), then put back.
    const credentials = { AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
    const before = Object.fromEntries(Object.keys(credentials).map((k) => [k, process.env[k]]));
    Object.assign(process.env, credentials);
    process.argv = [process.execPath, join(ROOT, 'bin', script), ...args];
    try {
      let cli = loaded.get(script);
      if (cli) cli.rerunEntryPoint();
      else {
        let thrown: unknown;
        jest.isolateModules(() => {
          cli = require('../../lib/commands/shared/cli');
          loaded.set(script, cli!);
          try {
            require(join(ROOT, 'bin', script));
          } catch (e) {
            thrown = e;
          }
        });
        if (thrown) throw thrown;
      }
      await cli!.commandRuns();
    } finally {
      process.argv = argv;
      for (const [k, v] of Object.entries(before)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
}
