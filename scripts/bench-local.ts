/*
 * The benchmark ladder on this machine: the project's benchmark against a local Temporal
 * cluster started from the stack's rendering (test/integration/support), at increasing rates
 * until P99 passes the limit or completions fall behind; then the same ladder against
 * Temporal's stock development config on the same PostgreSQL. Prints seed 001's table for
 * each, and the ratio of their best rows. A measurement, not a test: nothing here asserts.
 *
 *   npm run setup:integration && npm run bench:local -- --rates 10,20,40,80,160 --step 30s
 */
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { ConfigError, type TemporalScenario, resolveScenario } from '../config';
import { durationSeconds } from '../config/fields';
import { runCommand } from '../lib/commands/shared/cli';
import { markdownTable } from '../lib/commands/shared/markdown-table';
import { type GeneratorRun, runGenerator, startWorker } from '../harness/benchmark';
import { startCluster, startStockServer } from '../harness/temporal-cluster';
import { freePort } from '../harness/ports';
import { startPostgres } from '../harness/postgres';

interface Step {
  readonly rate: number;
  readonly run: GeneratorRun;
  readonly verdict: string;
}

const program = new Command('bench:local')
  .description('Benchmark ladder against a local Temporal cluster: the rendered config and the stock development config')
  .option('--scenario <name>', 'Temporal preset whose rendering is started', 'temporal-150wps')
  .option('--rates <list>', 'offered workflow starts per second, in order (the ladder stops at the first bad step)', '10,20,30,40,50,60,80,100,120,160,200')
  .option('--step <duration>', 'how long each rate is offered (Go duration)', '30s')
  .option('--p99-limit <ms>', 'stop the ladder once P99 latency passes this', '1000')
  .option('--shards <n>', 'history shards for both clusters (the rendered 4,096 scaled down)', '16')
  .option('--workflow <type>', 'workflow type', 'simple')
  .option('--out <file>', 'also write the tables to this markdown file');

function positiveNumbers(flag: string, raw: string): number[] {
  const values = raw.split(',').map((v) => Number(v.trim()));
  if (!values.length || values.some((v) => !(v > 0)))
    throw new ConfigError(`${flag} "${raw}" is not valid (valid: positive numbers separated by commas, e.g. 10,20,40)`);
  return values;
}

function fmt(n: number | undefined): string {
  return n === undefined ? '-' : n.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** A step is good while every offered start completed, at 90% of the rate, under the P99 limit. */
function judge(rate: number, run: GeneratorRun, p99Limit: number): string {
  const x = run.raw?.results;
  if (!x) return `no result (exit ${run.exitCode})`;
  const behind = x.workflowsStarted - x.workflowsCompleted;
  if (x.startErrors > 0 || behind > 0) return `${x.startErrors + behind} of ${x.workflowsOffered} did not complete`;
  const perSecond = x.workflowsCompleted / run.raw!.window.durationSeconds;
  if (perSecond < 0.9 * rate) return `completions fell behind (${fmt(perSecond)}/s)`;
  if (x.latency.p99 > p99Limit) return `P99 ${fmt(x.latency.p99)} ms > ${p99Limit} ms`;
  return 'ok';
}

async function ladder(
  label: string,
  frontendAddress: string,
  scenario: TemporalScenario,
  o: { rates: number[]; step: string; p99Limit: number; workflow: string },
): Promise<Step[]> {
  const worker = startWorker(scenario.preset, frontendAddress, await freePort(), { BENCHMARK_WORKFLOW_TYPE: o.workflow });
  const steps: Step[] = [];
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
    for (const rate of o.rates) {
      process.stderr.write(`${label}: ${rate} workflows/s for ${o.step} ...\n`);
      const run = await runGenerator(
        scenario.preset,
        frontendAddress,
        await freePort(),
        {
          BENCHMARK_TARGET_RATE: String(rate),
          BENCHMARK_DURATION: o.step,
          BENCHMARK_RAMP_UP: '0s',
          BENCHMARK_WORKFLOW_TYPE: o.workflow,
          BENCHMARK_COMPLETION_TIMEOUT: '30s',
        },
        (durationSeconds(o.step) + 90) * 1000,
      );
      const verdict = judge(rate, run, o.p99Limit);
      steps.push({ rate, run, verdict });
      process.stderr.write(`${label}: ${rate}/s ${verdict}\n`);
      if (verdict !== 'ok') break;
    }
  } finally {
    await worker.stop();
  }
  return steps;
}

function table(steps: readonly Step[]): string {
  const rows = steps.map(({ rate, run, verdict }) => {
    const x = run.raw?.results;
    const l = x?.latency;
    const seconds = run.raw?.window.durationSeconds;
    return [
      String(rate),
      fmt(l?.avg),
      fmt(l?.p50),
      fmt(l?.p90),
      fmt(l?.p95),
      fmt(l?.p99),
      fmt(l?.max),
      fmt(seconds === undefined ? undefined : seconds * 1000),
      fmt(x && seconds ? x.workflowsCompleted / seconds : undefined),
      verdict,
    ];
  });
  return markdownTable(
    ['target/s', 'average latency (ms)', 'p50 (ms)', 'p90 (ms)', 'p95 (ms)', 'p99 (ms)', 'max latency (ms)', 'total duration (ms)', 'workflows/s', 'step'],
    rows,
  );
}

/** The fastest step that stayed good, or undefined. */
function best(steps: readonly Step[]): Step | undefined {
  return steps.filter((s) => s.verdict === 'ok').at(-1);
}

const completedRate = (s: Step) => s.run.raw!.results.workflowsCompleted / s.run.raw!.window.durationSeconds;

/** Each ladder's best good rate, and the latencies at the highest rate both held. */
function ratios(rendered: readonly Step[], stock: readonly Step[]): string {
  const a = best(rendered);
  const b = best(stock);
  if (!a || !b) return 'No comparison: one of the ladders has no good step.';
  const rows = [['best good rate (workflows/s)', fmt(completedRate(a)), fmt(completedRate(b)), fmt(completedRate(a) / completedRate(b))]];
  const shared = rendered.filter((s) => s.verdict === 'ok' && stock.some((t) => t.rate === s.rate && t.verdict === 'ok')).at(-1);
  if (shared) {
    const x = shared.run.raw!.results.latency;
    const y = stock.find((t) => t.rate === shared.rate)!.run.raw!.results.latency;
    for (const p of ['p50', 'p95', 'p99'] as const)
      rows.push([`${p} at ${shared.rate}/s, the highest rate both held (ms)`, fmt(x[p]), fmt(y[p]), fmt(x[p] / y[p])]);
  }
  return markdownTable(['', 'rendered', 'stock', 'rendered ÷ stock'], rows);
}

runCommand(async () => {
  program.parse();
  const o = program.opts();
  const rates = positiveNumbers('--rates', o.rates);
  if (!(durationSeconds(o.step) > 0)) throw new ConfigError(`--step "${o.step}" is not valid (valid: a Go duration with a unit, e.g. 30s)`);
  const [p99Limit] = positiveNumbers('--p99-limit', o.p99Limit);
  const [shards] = positiveNumbers('--shards', o.shards);
  const scenario = resolveScenario({ scenario: o.scenario }) as TemporalScenario;
  if (scenario.family !== 'temporal') throw new ConfigError(`--scenario "${o.scenario}" is a FOLIO phase (valid: a Temporal preset)`);
  const settings = { rates, step: o.step, p99Limit, workflow: o.workflow };

  const pg = await startPostgres({ maxConnections: 600 });
  let rendered: Step[] = [];
  let stock: Step[] = [];
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
    '',
    `## Rendered config (four processes, ${scenario.name}'s static and dynamic config)`,
    '',
    table(rendered),
    '',
    '## Stock development config (one process, development-postgres12.yaml)',
    '',
    table(stock),
    '',
    '## Rendered against stock',
    '',
    ratios(rendered, stock),
    '',
  ].join('\n');
  process.stdout.write(report);
  if (o.out) writeFileSync(o.out, report);
});
