/*
 * The benchmark ladder on this machine: the project's benchmark against a local Temporal
 * cluster started from the stack's rendering (test/integration/support), climbing the same
 * ladder `bench ladder` climbs on AWS (harness/local-ladder.ts: each step judged by config's
 * observability.ladder.held, the ladder stopping at the first that does not hold); then the
 * same ladder against Temporal's stock development config on the same PostgreSQL. Prints
 * seed 001's table for each, and the ratio of their best rows. A measurement, not a test:
 * nothing here asserts.
 *
 *   npm run setup:integration && npm run bench:local -- --rates 10,20,40,80,160 --step 30s
 */
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { ConfigError, type TemporalScenario, resolveScenarioOf } from '../config';
import { durationSeconds } from '../config/fields';
import { ladderRates } from '../config/bench-load';
import { runCommand } from '../lib/commands/shared/cli';
import { markdownTable } from '../lib/commands/shared/markdown-table';
import type { Ladder, LadderStep } from '../lib/commands/shared/run-record';
import { runGenerator, startWorker } from '../harness/benchmark';
import { localLadder } from '../harness/local-ladder';
import { startStockServer } from '../harness/stock-server';
import { startCluster } from '../harness/temporal-cluster';
import { freePort } from '../harness/ports';
import { startPostgres } from '../harness/postgres';

const program = new Command('bench:local')
  .description('Benchmark ladder against a local Temporal cluster: the rendered config and the stock development config')
  .option('--scenario <name>', 'Temporal preset whose rendering is started', 'temporal-150wps')
  .option(
    '--rates <list>',
    'offered workflow starts per second, rising (the ladder stops at the first step that does not hold)',
    '10,20,30,40,50,60,80,100,120,160,200',
  )
  .option('--step <duration>', 'how long each rate is offered (Go duration)', '30s')
  .option('--p99-limit <ms>', "a step's P99 bound (default: config's observability.ladder.held.p99MaxMs)")
  .option('--shards <n>', 'history shards for both clusters (the rendered 4,096 scaled down)', '16')
  .option('--workflow <type>', 'workflow type', 'simple')
  .option('--out <file>', 'also write the tables to this markdown file');

function positiveNumbers(flag: string, raw: string): number[] {
  const values = raw.split(',').map((v) => Number(v.trim()));
  if (!values.length || values.some((v) => !(v > 0)))
    throw new ConfigError(`${flag} "${raw}" is not valid (valid: positive numbers separated by commas, e.g. 10,20,40)`);
  return values;
}

function fmt(n: number | null | undefined): string {
  return n === undefined || n === null ? '-' : n.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

async function ladder(
  label: string,
  frontendAddress: string,
  scenario: TemporalScenario,
  o: { rates: number[]; step: string; held: Ladder['held']; workflow: string },
): Promise<Ladder> {
  const worker = await startWorker(scenario.preset, frontendAddress, await freePort(), { BENCHMARK_WORKFLOW_TYPE: o.workflow });
  try {
    // Unreported, as the fault suite does: the namespace registered, every shard owned and the
    // task queues loaded before the first measured step (a cold four-process cluster took
    // about 1.5 s over its first starts, which set the 10/s step's P99).
    await runGenerator(
      scenario.preset,
      frontendAddress,
      await freePort(),
      { BENCHMARK_TARGET_RATE: '5', BENCHMARK_DURATION: '5s', BENCHMARK_RAMP_UP: '0s', BENCHMARK_WORKFLOW_TYPE: o.workflow },
      120_000,
    );
    process.stderr.write(`${label}: ${o.rates.join(', ')} workflows/s, ${o.step} each ...\n`);
    return await localLadder(scenario, frontendAddress, {
      ...o,
      onStep: (l) => {
        const s = l.steps.at(-1)!;
        process.stderr.write(`${label}: ${s.rate}/s ${verdict(s)}\n`);
      },
    });
  } finally {
    await worker.stop();
  }
}

const verdict = (s: LadderStep) => (s.held ? 'held' : `did not hold: ${s.failed.join('; ')}`);

function table(l: Ladder): string {
  const rows = l.steps.map((s) => {
    const x = s.result?.results;
    const lat = x?.latency;
    return [
      String(s.rate),
      fmt(lat?.avg),
      fmt(lat?.p50),
      fmt(lat?.p90),
      fmt(lat?.p95),
      fmt(lat?.p99),
      fmt(lat?.max),
      fmt(s.result?.window?.durationSeconds === undefined ? undefined : s.result.window.durationSeconds * 1000),
      fmt(s.figures.completedPerSecond),
      verdict(s),
    ];
  });
  return markdownTable(
    ['target/s', 'average latency (ms)', 'p50 (ms)', 'p90 (ms)', 'p95 (ms)', 'p99 (ms)', 'max latency (ms)', 'total duration (ms)', 'workflows/s', 'step'],
    rows,
  );
}

/** The step at the highest rate held, or undefined. */
const best = (l: Ladder) => l.steps.find((s) => s.rate === l.highestHeld);

/** Each ladder's highest rate held, and the latencies at the highest rate both held. */
function ratios(rendered: Ladder, stock: Ladder): string {
  const a = best(rendered);
  const b = best(stock);
  if (!a || !b) return 'No comparison: one of the ladders held no step.';
  const rows = [
    [
      'highest rate held: completed (workflows/s)',
      fmt(a.figures.completedPerSecond),
      fmt(b.figures.completedPerSecond),
      fmt(a.figures.completedPerSecond! / b.figures.completedPerSecond!),
    ],
  ];
  const shared = rendered.steps.filter((s) => s.held && stock.steps.some((t) => t.rate === s.rate && t.held)).at(-1);
  if (shared) {
    const x = shared.result!.results.latency;
    const y = stock.steps.find((t) => t.rate === shared.rate)!.result!.results.latency;
    for (const p of ['p50', 'p95', 'p99'] as const)
      rows.push([`${p} at ${shared.rate}/s, the highest rate both held (ms)`, fmt(x[p]), fmt(y[p]), fmt(x[p] / y[p])]);
  }
  return markdownTable(['', 'rendered', 'stock', 'rendered ÷ stock'], rows);
}

const outcome = (l: Ladder) =>
  l.firstFailed === null
    ? `Every step held, up to ${l.highestHeld}/s.`
    : `Highest rate held: ${l.highestHeld ?? 'none'}/s; the first that did not: ${l.firstFailed}/s.`;

runCommand(async () => {
  program.parse();
  const o = program.opts();
  const scenario = resolveScenarioOf('temporal', { scenario: o.scenario }, { option: '--scenario', command: 'bench:local' });
  const config = scenario.environment.observability.ladder;
  // Rising, as bench ladder takes them; a local ladder climbs from lower rates, so up to the 20 steps config allows at most.
  const rates = ladderRates({ rates: positiveNumbers('--rates', o.rates), maxSteps: 20 });
  if (!(durationSeconds(o.step) >= 10)) throw new ConfigError(`--step "${o.step}" is not valid (valid: a Go duration of at least 10s, e.g. 30s)`);
  const held = { ...config.held, ...(o.p99Limit !== undefined && { p99MaxMs: positiveNumbers('--p99-limit', o.p99Limit)[0] }) };
  const [shards] = positiveNumbers('--shards', o.shards);
  const settings = { rates, step: o.step, held, workflow: o.workflow };

  const pg = await startPostgres({ maxConnections: 600 });
  let rendered: Ladder | undefined;
  let stock: Ladder | undefined;
  try {
    const cluster = await startCluster({ postgres: pg, scenario: scenario.name, numHistoryShards: shards, databasePrefix: 'rendered' });
    try {
      rendered = await ladder('rendered', cluster.frontendAddress, scenario, settings);
    } finally {
      await cluster.stop();
    }
    const server = await startStockServer({ postgres: pg, numHistoryShards: shards, databasePrefix: 'stock' });
    try {
      stock = await ladder('stock', server.frontendAddress, scenario, settings);
    } finally {
      await server.stop();
    }
  } finally {
    await pg.stop();
  }

  const report = [
    `# Local benchmark ladder (${scenario.name} rendering vs stock development config)`,
    '',
    `${o.workflow} workflows, each rate offered open-loop for ${o.step}; ${shards} history shards; PostgreSQL ${pg.bin.split('/').at(-2)} on loopback; this machine only.`,
    `A step held when at least ${held.completedShareMin * 100}% of what it offered completed, its P99 stayed at or under ${held.p99MaxMs} ms, and the open workflows grew by at most ${held.openGrowthShareMax * 100}% of its second half's starts (observability.ladder, as bench ladder judges).`,
    '',
    `## Rendered config (four processes, ${scenario.name}'s static and dynamic config)`,
    '',
    table(rendered),
    '',
    outcome(rendered),
    '',
    '## Stock development config (one process, development-postgres12.yaml)',
    '',
    table(stock),
    '',
    outcome(stock),
    '',
    '## Rendered against stock',
    '',
    ratios(rendered, stock),
    '',
  ].join('\n');
  process.stdout.write(report);
  if (o.out) writeFileSync(o.out, report);
});
