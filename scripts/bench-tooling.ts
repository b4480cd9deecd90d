/*
 * How long the tooling takes on this machine, through the real CLIs: `cdk synth` of a scenario
 * against an empty CDK app (the same cdk.json, the same `node --import tsx` runner), the same
 * synth with CDK's built-in validation (`-c validate=true`), and the plan command between two
 * phases. Runs alternate (empty, scenario, validated, plan, empty, ...) so that machine noise
 * hits all alike; prints medians and min-max. A measurement, not a test. With --npm-test, each
 * row also gives the CPU-seconds the run took and what they allow on this machine's cores: a run
 * whose wall time is at that floor goes faster only by doing less.
 *
 *   npm run bench:tooling -- --runs 5 --scenario test12 --from test11 --to test12
 *   npm run bench:tooling -- --npm-test --runs 3
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { ConfigError, resolveScenario } from '../config';
import { CommandFailure, EXIT_FAILED, runCommand } from '../lib/commands/shared/cli';
import { progress } from '../lib/commands/shared/progress';
import { markdownTable } from '../lib/commands/shared/markdown-table';
import { cacheDir } from '../harness/cache-dir';
import { CpuSampler } from '../harness/cpu-sampler';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const CDK = join(ROOT, 'node_modules/.bin/cdk');

const program = new Command('bench:tooling')
  .description(
    'cdk synth of a scenario against an empty CDK app, with and without validation, and plan between two phases: medians and min-max of alternating runs',
  )
  .option('--runs <n>', 'runs of each', '5')
  .option('--scenario <name>', 'the scenario to synthesize', 'test12')
  .option('--from <name>', 'plan: the deployed scenario', 'test11')
  .option('--to <name>', 'plan: the scenario to deploy', 'test12')
  .option(
    '--npm-test',
    "instead: the README's test command warm (nothing changed), after a source change (no synth cache) and cold (no synth cache, no lint results)",
  )
  .option(
    '--by-program',
    "with --npm-test: also each program's CPU-seconds in each case (medians), read from /proc every 0.2 s; the timings then include the sampler's own CPU, printed beside them",
  );

/**
 * CPU-seconds (user and system) of this process's children that have ended, from /proc/self/stat
 * (cutime and cstime, in Linux's fixed 100 ticks a second): a child counts its own children that
 * it waited for, so a command's whole tree is counted.
 */
function childrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Wall seconds of one command; its failure is the benchmark's failure, with the command's own words. */
async function timed(command: string, args: readonly string[]): Promise<number> {
  const start = process.hrtime.bigint();
  await run(command, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }).catch((e) => {
    const output = String(e.stderr || e.message).trim();
    // Jest names each failing test on a line of its own: those, or else the first line.
    const failing = [...new Set(output.split('\n').filter((l) => l.startsWith('  ● ')))].map((l) => l.slice(4));
    const why = failing.length ? failing.join('; ') : output.split('\n')[0];
    throw new CommandFailure(`${[command, ...args].join(' ')} failed: ${why}`, EXIT_FAILED);
  });
  return Number(process.hrtime.bigint() - start) / 1e9;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The project's own caches: the synth cache, tsc's build info and its last pass, prettier's, dependency-cruiser's and knip's. */
const PROJECT_CACHE = join(ROOT, 'node_modules/.cache/db-bench-infra');
const SYNTH_CACHE = join(PROJECT_CACHE, 'synth');
/** The record of tsc's last pass (harness/typecheck.ts): a changed source makes tsc run again. */
const TYPECHECK_PASS = join(PROJECT_CACHE, 'typecheck.pass');
/** Where the linters' results are kept (test/support/lint.ts), unless LINT_CACHE_DIR says elsewhere. */
const LINT_RESULTS = process.env.LINT_CACHE_DIR ?? join(cacheDir(), 'lint');

/**
 * `npm test` three ways, alternating, `runs` times each: warm (a second run, nothing changed),
 * after a source change (what a changed source makes stale: every template synthesized again,
 * and linted only if it changed; tsc run again, incremental) and cold (nothing cached, as on a
 * fresh clone: no project cache, no lint results, no Jest cache).
 */
/** The CPU of the command's tree that no sample of /proc saw (CpuSampler). */
const UNSEEN = 'not seen by a sample';

async function npmTest(runs: number, byProgram: boolean): Promise<void> {
  const status = progress();
  const cases = [
    { name: '`npm test` warm (nothing changed since the last run)', clear: [] as string[] },
    { name: '`npm test` after a source change (synth cache and tsc pass gone, lint results kept)', clear: [SYNTH_CACHE, TYPECHECK_PASS] },
    { name: '`npm test` cold (nothing cached: no project cache, lint results or Jest cache)', clear: [PROJECT_CACHE, LINT_RESULTS], jestCache: true },
  ];
  const seconds = cases.map(() => [] as number[]);
  const cpu = cases.map(() => [] as number[]);
  const programs = cases.map(() => [] as Map<string, number>[]);
  let sampler = 0;
  try {
    // A first run leaves the caches filled, so that the first "warm" run is one.
    status.update('a first run, to fill the caches');
    await timed('npm', ['test']);
    for (let r = 0; r < runs; r++)
      for (const [i, c] of cases.entries()) {
        status.update(`run ${r + 1}/${runs}: ${c.name}`);
        for (const dir of c.clear) rmSync(dir, { recursive: true, force: true });
        if (c.jestCache) await timed(process.execPath, [join(ROOT, 'node_modules/jest/bin/jest.js'), '--clearCache']);
        const before = childrenCpuSeconds();
        const sampling = byProgram ? new CpuSampler().start() : undefined;
        seconds[i].push(await timed('npm', ['test']));
        cpu[i].push(childrenCpuSeconds() - before);
        if (sampling) {
          const sampled = sampling.stop();
          sampler += sampled.sampler;
          const seen = [...sampled.byProgram.values()].reduce((a, b) => a + b, 0);
          programs[i].push(new Map([...sampled.byProgram, [UNSEEN, cpu[i].at(-1)! - seen]]));
        }
      }
  } finally {
    status.done();
  }
  const cores = cpus().length;
  const rows = cases.map((c, i) => [
    c.name,
    `${median(seconds[i]).toFixed(1)} s`,
    `${Math.min(...seconds[i]).toFixed(1)}–${Math.max(...seconds[i]).toFixed(1)} s`,
    `${median(cpu[i]).toFixed(0)} s`,
    `${(median(cpu[i]) / cores).toFixed(1)} s`,
  ]);
  process.stdout.write(
    `${markdownTable(['What', 'Median', 'Min–max', 'CPU (median)', `CPU ÷ ${cores} cores`], rows)}\n\n${runs} alternating runs of each on ${cores} cores.\n`,
  );
  if (!byProgram) return;
  const of = (i: number, name: string) => median(programs[i].map((m) => m.get(name) ?? 0));
  const cell = (i: number, name: string) => of(i, name).toFixed(1);
  // Largest first, cold; what no sample saw last.
  const names = [...new Set(programs.flatMap((runsOf) => runsOf.flatMap((m) => [...m.keys()])))]
    .filter((n) => n !== UNSEEN)
    .sort((a, b) => of(cases.length - 1, b) - of(cases.length - 1, a))
    .concat(UNSEEN);
  process.stdout.write(
    `\nCPU-seconds by program (medians):\n\n${markdownTable(
      ['Program', 'Warm', 'After a source change', 'Cold'],
      names.map((name) => [name, ...cases.map((_, i) => cell(i, name))]),
    )}\n\nThe sampler took ${sampler.toFixed(1)} CPU-seconds of its own over the ${runs * cases.length} runs.\n`,
  );
}

runCommand(async () => {
  const o = program.parse().opts();
  const runs = Number(o.runs);
  if (!Number.isInteger(runs) || runs < 1 || runs > 50) throw new ConfigError(`--runs "${o.runs}" is not valid (valid: a whole number from 1 to 50)`);
  if (o.byProgram && !o.npmTest) throw new ConfigError('--by-program is not valid without --npm-test (valid: --npm-test --by-program)');
  if (o.npmTest) return npmTest(runs, Boolean(o.byProgram));
  for (const name of [o.scenario, o.from, o.to]) resolveScenario({ scenario: name });
  const out = mkdtempSync(join(tmpdir(), 'bench-tooling-'));
  const status = progress();
  const cases = [
    { name: 'empty CDK app: `cdk synth`', command: CDK, args: ['synth', '-q', '--app', 'node --import tsx scripts/empty-app.ts', '-o', join(out, 'empty')] },
    { name: `\`cdk synth -c scenario=${o.scenario}\``, command: CDK, args: ['synth', '-q', '-c', `scenario=${o.scenario}`, '-o', join(out, 'app')] },
    {
      name: `\`cdk synth -c scenario=${o.scenario} -c validate=true\``,
      command: CDK,
      args: ['synth', '-q', '-c', `scenario=${o.scenario}`, '-c', 'validate=true', '-o', join(out, 'validated')],
    },
    {
      name: `\`npm run plan -- --from ${o.from} --to ${o.to}\``,
      command: process.execPath,
      args: ['--import', 'tsx', 'bin/plan.ts', '--from', o.from, '--to', o.to],
    },
  ];
  const seconds = cases.map(() => [] as number[]);
  try {
    for (let r = 0; r < runs; r++)
      for (const [i, c] of cases.entries()) {
        status.update(`run ${r + 1}/${runs}: ${c.name}`);
        seconds[i].push(await timed(c.command, c.args));
      }
  } finally {
    status.done();
    rmSync(out, { recursive: true, force: true });
  }
  const empty = median(seconds[0]);
  const rows = cases.map((c, i) => [
    c.name,
    `${median(seconds[i]).toFixed(2)} s`,
    `${Math.min(...seconds[i]).toFixed(2)}–${Math.max(...seconds[i]).toFixed(2)} s`,
    `${(median(seconds[i]) / empty).toFixed(2)}×`,
  ]);
  process.stdout.write(
    `${markdownTable(['What', 'Median', 'Min–max', 'Against the empty app'], rows)}\n\n${runs} alternating runs of each on ${cpus().length} cores.\n`,
  );
});
