import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CLI_CONTEXT } from '../../lib/app/scenario-app';

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

/** Runs a bin/ command as a user would (through tsx), with test credentials. */
export function runCli(script: string, args: readonly string[]): Promise<CliResult> {
  return runScript(script, args, { ...process.env, AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' });
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
 * cloud assembly written to CDK_OUTDIR (a new temporary directory, returned).
 */
export async function runApp(context: Record<string, unknown>): Promise<CliResult & { outdir: string }> {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-out-'));
  const env = hermeticEnv({ CDK_CONTEXT_JSON: JSON.stringify({ ...CLI_CONTEXT, ...context }), CDK_OUTDIR: outdir });
  return { ...(await runScript('app.ts', [], env)), outdir };
}
