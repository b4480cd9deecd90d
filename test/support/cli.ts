import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

export interface CliResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

const run = promisify(execFile);

/** Runs a bin/ command as a user would (through tsx), with test credentials. */
export async function runCli(script: string, args: readonly string[]): Promise<CliResult> {
  try {
    const r = await run(TSX, [join(ROOT, 'bin', script), ...args], {
      cwd: ROOT,
      env: { ...process.env, AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    return { status: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e: any) {
    if (typeof e.code !== 'number') throw e;
    return { status: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
