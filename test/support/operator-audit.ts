import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * The operator policies proven on the commands themselves: every command a test runs as a
 * process logs the IAM action of each AWS call it makes (DB_BENCH_AWS_CALL_LOG), and after the
 * test file each one must be in that command's policy (docs/operator-policy/<command>.json).
 * Against moto, that is every call the integration suite drives a command to make.
 */

const ROOT = join(__dirname, '../..');
const runs: { command: string; log: string }[] = [];
let dir: string | undefined;

/** A new call log for one run of bin/<script>, checked after the file's tests. */
export function callLogFor(script: string): string {
  // Its own directory, not tempDir's: that one is removed by a hook that may run before this file's check.
  dir ??= mkdtempSync(join(tmpdir(), 'aws-calls-'));
  const log = join(dir, `${runs.length}-${script.replace(/\.ts$/, '')}.log`);
  runs.push({ command: script.replace(/\.ts$/, ''), log });
  return log;
}

/** The actions a command's published policy grants (none when it has no policy). */
function granted(command: string): Set<string> {
  const file = join(ROOT, 'docs/operator-policy', `${command}.json`);
  if (!existsSync(file)) return new Set();
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { Statement: { Action: string[] }[] };
  return new Set(doc.Statement.flatMap((s) => s.Action));
}

/** Each logged action its command's policy does not grant, as `command: action`. */
export function actionsOutsidePolicy(command: string, actions: readonly string[]): string[] {
  const grants = granted(command);
  return [...new Set(actions)].filter((a) => !grants.has(a)).map((a) => `${command}: ${a}`);
}

/** Every action the file's runs logged, by command. */
function loggedActions(): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const r of runs) {
    const lines = existsSync(r.log) ? readFileSync(r.log, 'utf8').split('\n').filter(Boolean) : [];
    by.set(r.command, [...(by.get(r.command) ?? []), ...lines]);
  }
  return by;
}

afterAll(() => {
  try {
    const outside = [...loggedActions()].flatMap(([command, actions]) => actionsOutsidePolicy(command, actions));
    expect({ 'AWS calls outside the operator policy': outside }).toEqual({ 'AWS calls outside the operator policy': [] });
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
});
