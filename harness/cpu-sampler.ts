import { readdirSync, readFileSync } from 'node:fs';

/*
 * Where a command's CPU-seconds go, by program: /proc read every interval, each process of this
 * process's tree credited, at its last sighting, with the user and system time it had taken, to
 * the program its command line names. What no sighting saw (a process shorter than an interval,
 * what one took after its last sighting, one that left the tree by being orphaned) is the rest
 * of the tree's time, which the caller reads from its own children's (`unseen`).
 */

/** The programs `npm test` starts, by what their command lines hold; the first that matches names it. */
const PROGRAMS: readonly (readonly [name: string, pattern: RegExp])[] = [
  ['cfn-lint, schema pass', /cfn-lint-pass\.py schema\b/],
  ['cfn-lint, template pass', /cfn-lint-pass\.py template\b/],
  ['cfn-lint, plain', /\/bin\/cfn-lint\b/],
  ['checkov', /\/bin\/checkov\b/],
  ['cfn-guard', /\/cfn-guard validate\b/],
  ['synth cache', /synth-worker\.ts\b/],
  ['Jest workers', /jest-worker\/build\/.*processChild/],
  ['Jest', /jest\/bin\/jest\.js\b/],
  // TypeScript 7's tsc: a Node.js wrapper that execs the native compiler of its platform's package.
  ['tsc', /@typescript\/typescript-[\w-]+\/lib\/tsc\b|typescript-7\/bin\/tsc\b|scripts\/typecheck\.ts\b/],
  ['prettier', /\bprettier\b/],
  ['dependency-cruiser', /\bdepcruise\b/],
  ['knip', /\bknip\b/],
];

export const programOf = (commandLine: string): string => PROGRAMS.find(([, p]) => p.test(commandLine))?.[0] ?? 'other';

/** Linux counts a process's CPU time in ticks of 1/100 s (USER_HZ) in /proc/<pid>/stat. */
const TICKS = 100;

interface Sighting {
  readonly program: string;
  readonly seconds: number;
}

export class CpuSampler {
  /** By pid and start time (a pid can be reused within a run). */
  private readonly seen = new Map<string, Sighting>();
  private timer?: NodeJS.Timeout;
  private readonly began = process.cpuUsage();

  constructor(
    private readonly root = process.pid,
    private readonly intervalMs = 200,
  ) {}

  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    return this;
  }

  /** CPU-seconds by program, largest first; `sampler`: what sampling took of this process's own CPU. */
  stop(): { byProgram: Map<string, number>; sampler: number } {
    clearInterval(this.timer);
    this.sample();
    const byProgram = new Map<string, number>();
    for (const { program, seconds } of this.seen.values()) byProgram.set(program, (byProgram.get(program) ?? 0) + seconds);
    const used = process.cpuUsage(this.began);
    return { byProgram: new Map([...byProgram].sort((a, b) => b[1] - a[1])), sampler: (used.user + used.system) / 1e6 };
  }

  /** Every process whose parents lead to `root`: its program and CPU time so far. */
  private sample(): void {
    const stats = new Map<number, { parent: number; key: string; seconds: number }>();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        // After the command's name, which may hold spaces and parentheses: state, ppid, ... utime (12th), stime, ... starttime (20th).
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        stats.set(Number(name), { parent: Number(f[1]), key: `${name}:${f[19]}`, seconds: (Number(f[11]) + Number(f[12])) / TICKS });
      } catch {
        // Gone between the listing and the read.
      }
    }
    const inTree = (pid: number): boolean => {
      for (let p = pid, hops = 0; p > 1 && hops < 64; p = stats.get(p)?.parent ?? 0, hops++) if (p === this.root) return true;
      return false;
    };
    for (const [pid, s] of stats) {
      if (pid === this.root || !inTree(pid)) continue;
      // Read again at each sighting: a child forked to run another program holds its parent's
      // command line until it execs. One that has exited and waits to be reaped has none: it keeps its last.
      const program = this.programOfPid(pid) ?? this.seen.get(s.key)?.program;
      if (program !== undefined) this.seen.set(s.key, { program, seconds: s.seconds });
    }
  }

  /** The program a process runs; undefined when it has no command line (exited, or gone). */
  private programOfPid(pid: number): string | undefined {
    try {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      return commandLine ? programOf(commandLine) : undefined;
    } catch {
      return undefined;
    }
  }
}
