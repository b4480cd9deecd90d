import { readFileSync } from 'node:fs';
import { ConfigError } from '../../config';

/*
 * The CDK CLI folds `-c key=a -c key=b` into one value (the last) before the app sees it, so a
 * repeated `-c scenario=` would deploy one scenario silently. The app reads the CLI's own
 * arguments from its process (Linux's /proc; elsewhere nothing is read and nothing refused).
 */

/** Each context key given more than once with different values, from the CDK CLI's arguments. */
export function repeatedContext(argv: readonly string[]): ConfigError | undefined {
  const values = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const pair = a === '-c' || a === '--context' ? argv[++i] : a.startsWith('--context=') ? a.slice('--context='.length) : undefined;
    const at = pair?.indexOf('=') ?? -1;
    if (!pair || at < 1) continue;
    const key = pair.slice(0, at);
    values.set(key, [...(values.get(key) ?? []), pair.slice(at + 1)]);
  }
  const repeated = [...values].filter(([, v]) => new Set(v).size > 1);
  if (!repeated.length) return undefined;
  const [key, given] = repeated[0];
  return new ConfigError(`-c ${key} is given ${given.length} times (${given.join(', ')}): give it once, with the one value meant`);
}

/** The arguments of the CDK CLI that started this app: the nearest ancestor process running `cdk`. */
export function cdkCliArgv(proc = '/proc'): string[] | undefined {
  let pid = process.ppid;
  for (let depth = 0; depth < 4 && pid > 1; depth++) {
    let argv: string[];
    let parent: number;
    try {
      argv = readFileSync(`${proc}/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      // The parent's pid is the second field after the command's name, which may hold spaces.
      parent = Number(readFileSync(`${proc}/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
    } catch {
      return undefined;
    }
    const cli = argv.findIndex((a) => /(^|\/)cdk(\.js)?$/.test(a));
    if (cli >= 0) return argv.slice(cli + 1);
    pid = parent;
  }
  return undefined;
}
