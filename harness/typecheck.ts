import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/*
 * `npm run typecheck` (and so `npm test`): tsc over the project, skipped when nothing it reads
 * has changed since its last pass. tsc's own incremental mode skips the checking but still
 * parses every declaration the program loads (aws-cdk-lib's and the SDK's, 1.2 million lines)
 * before it finds nothing to do.
 */

/**
 * The type checker: TypeScript 7's native tsc (the `typescript-7` alias in package.json), less
 * than half of 5.9's CPU time on this project (docs/testing.md). typescript 5.9 stays for its JS API, which 7 has not
 * (knip, the operator-policy scanner).
 */
export const TSC = join(__dirname, '../node_modules/typescript-7/bin/tsc');

/** The project's TypeScript as tsconfig.json includes it: each `include` entry must be `<dir>/**\/*.ts`. */
function includedFiles(root: string): string[] {
  const { include } = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { include: string[] };
  return include.flatMap((pattern) => {
    const dir = /^([\w.-]+)\/\*\*\/\*\.ts$/.exec(pattern)?.[1];
    if (!dir) throw new Error(`tsconfig.json includes "${pattern}": harness/typecheck.ts reads only "<dir>/**/*.ts" entries`);
    if (!existsSync(join(root, dir))) return [];
    return (readdirSync(join(root, dir), { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && !f.split('/').includes('node_modules'))
      .map((f) => join(dir, f))
      .sort();
  });
}

/** A hash of everything tsc reads: tsconfig.json, the lock file (the declarations' versions), and each included file, by path and content. */
export function typecheckKey(root: string): string {
  const hash = createHash('sha256');
  for (const file of ['tsconfig.json', 'package-lock.json', ...includedFiles(root)])
    hash
      .update(file)
      .update('\0')
      .update(existsSync(join(root, file)) ? readFileSync(join(root, file)) : '(none)')
      .update('\0');
  return hash.digest('hex');
}

/**
 * Runs `command` (tsc) in `root` unless `stamp` records a pass on the same inputs; records a
 * pass (exit 0, the inputs unchanged meanwhile) in `stamp`. Returns the exit status: 0 when skipped.
 * `output`: where tsc's own lines go (a test that expects an error keeps it off the suite's output).
 */
export function typecheck(root: string, stamp: string, command: readonly string[], output: 'inherit' | 'ignore' = 'inherit'): number {
  const key = typecheckKey(root);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === key) return 0;
  const { status, error } = spawnSync(command[0], command.slice(1), { cwd: root, stdio: ['ignore', output, output] });
  if (error) throw error;
  // A file edited while tsc ran: which version it read is not known, so no pass is recorded.
  if (status === 0 && typecheckKey(root) === key) {
    mkdirSync(dirname(stamp), { recursive: true });
    writeFileSync(stamp, key);
  }
  return status ?? 1;
}
