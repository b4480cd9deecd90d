/*
 * The fault suite as a measurement: a local cluster started from the stack's rendering, the
 * benchmark at a steady rate, and each fault of test/integration/temporal-faults.test.ts
 * injected mid-run. Prints the table in docs/local-cluster.md: workflows lost and done twice (counted in the
 * store), start errors, time back to the rate, and the P99 during the fault against the
 * steady one. A measurement, not a test: nothing here asserts.
 *
 *   npm run setup:integration && npm run bench:faults -- --rate 10
 *   npm run bench:faults -- --fault "rolling deploy: history" --dynamic-config history.shutdownDrainDuration=0s
 *   KEEP_TEMPORAL_LOGS=1 npm run bench:faults -- --fault "rolling deploy: matching" --repeat 20   (a rare outcome, with the servers' logs kept)
 */
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { ConfigError, resolveScenarioOf } from '../config';
import { durationSeconds } from '../config/fields';
import { DYNAMIC_CONFIG_KEYS } from '../config/temporal-dynamic-config-keys';
import { runCommand } from '../lib/commands/shared/cli';
import { markdownTable } from '../lib/commands/shared/markdown-table';
import { startWorker, warmUp } from '../harness/benchmark';
import {
  type Fault,
  type FaultOutcome,
  FAULT_SUITE_LOAD,
  type LoadSettings,
  LOAD_AFTER_PLANNED_SECONDS,
  describeOutcome,
  faultLoad,
  faultSuite,
  runFault,
} from '../harness/faults';
import { startCluster } from '../harness/temporal-cluster';
import { freePort } from '../harness/ports';
import { startPostgres } from '../harness/postgres';

const program = new Command('bench:faults')
  .description('Fault suite against a local Temporal cluster started from the rendered config: what each fault costs')
  .option('--scenario <name>', 'Temporal preset whose rendering is started', 'temporal-150wps')
  .option('--rate <n>', 'workflow starts offered per second throughout', String(FAULT_SUITE_LOAD.rate))
  .option(
    '--duration <duration>',
    `how long each fault run offers load (Go duration); by default the integration suite's: ${LOAD_AFTER_PLANNED_SECONDS} s past the end the fault plans`,
  )
  .option('--fault-at <duration>', 'when, into each run, the fault starts', `${FAULT_SUITE_LOAD.faultAtSeconds}s`)
  .option('--fault <text>', 'run only the faults whose name contains this (e.g. "rolling deploy")')
  .option('--repeat <n>', 'run each fault this many times on the same cluster, one row each', '1')
  .option('--dynamic-config <key=value...>', 'set these dynamic-config keys over the rendered ones (what a setting buys)')
  .option('--out <file>', 'also write the table to this markdown file');

/** key=value pairs of registered dynamic-config keys; numbers and booleans as such. */
function dynamicConfigOverrides(pairs: readonly string[]): Record<string, string | number | boolean> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const [key, value] = pair.split('=', 2);
      if (!value || !(key in DYNAMIC_CONFIG_KEYS))
        throw new ConfigError(`--dynamic-config "${pair}" is not valid (valid: <registered key>=<value>, e.g. history.shutdownDrainDuration=0s)`);
      return [key, value === 'true' || value === 'false' ? value === 'true' : Number.isFinite(Number(value)) ? Number(value) : value];
    }),
  );
}

interface Measured {
  readonly o: FaultOutcome;
  readonly load: LoadSettings;
}

const fmt = (n: number | null) => (n === null ? 'not back' : n.toLocaleString('en-US', { maximumFractionDigits: 1 }));

function row({ o, load }: Measured): string[] {
  const l = o.ledger;
  const errors = Object.entries(o.startErrors).map(([cause, n]) => `${n} ${cause}`);
  const stops = o.notes.stops.map((s) => `${(s.drainMs / 1000).toFixed(1)} s${s.killed ? ' (SIGKILL)' : ''}`);
  return [
    o.fault,
    `${load.rate}/s for ${load.duration}, ${l.offered.toLocaleString('en-US')} offered`,
    String(l.missing.length + l.notCompleted.length + (l.decidable ? 0 : 1)),
    String(l.duplicates.length),
    errors.length ? errors.join(', ') : '0',
    String(o.openAtDeadline),
    o.recoverySeconds === null ? 'not back' : `${fmt(o.recoverySeconds)} s`,
    `${Math.round(o.faultP99Ms)} (steady ${Math.round(o.steadyP99Ms)})`,
    stops.length ? stops.join(', ') : '-',
    o.membershipSettledSeconds === null ? 'not settled' : `${o.membershipSettledSeconds} s after`,
    `${o.lastCloseSeconds} s (${fmt(o.closeBySeconds)} s)`,
  ];
}

runCommand(async () => {
  program.parse();
  const o = program.opts();
  const rate = Number(o.rate);
  if (!(rate > 0)) throw new ConfigError(`--rate "${o.rate}" is not valid (valid: a number of workflows per second above 0)`);
  for (const [flag, value] of [['--fault-at', o.faultAt], ...(o.duration === undefined ? [] : [['--duration', o.duration]])])
    if (!(durationSeconds(value) > 0)) throw new ConfigError(`${flag} "${value}" is not valid (valid: a Go duration with a unit, e.g. 45s)`);
  if (o.duration !== undefined && durationSeconds(o.faultAt) >= durationSeconds(o.duration))
    throw new ConfigError(`--fault-at ${o.faultAt} is not inside the run (valid: less than --duration ${o.duration})`);
  const repeat = Number(o.repeat);
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > 100)
    throw new ConfigError(`--repeat "${o.repeat}" is not valid (valid: a whole number from 1 to 100)`);
  const overrides = o.dynamicConfig === undefined ? undefined : dynamicConfigOverrides(o.dynamicConfig);
  const scenario = resolveScenarioOf('temporal', { scenario: o.scenario }, { option: '--scenario', command: 'bench:faults' });
  const stopTimeoutMs = durationSeconds(scenario.environment.deployment.stopTimeout) * 1000;
  const faultAtSeconds = durationSeconds(o.faultAt);
  const loadFor = (fault: Fault) => {
    const load = faultLoad(fault, scenario.environment, { rate, faultAtSeconds });
    return o.duration === undefined ? load : { ...load, duration: o.duration };
  };

  const faults = faultSuite().filter((f) => o.fault === undefined || f.name.includes(o.fault));
  if (!faults.length)
    throw new ConfigError(
      `--fault "${o.fault}" names no fault (valid: part of ${faultSuite()
        .map((f) => `"${f.name}"`)
        .join(', ')})`,
    );

  const pg = await startPostgres({ maxConnections: 800 });
  const outcomes: Measured[] = [];
  try {
    const cluster = await startCluster({ postgres: pg, scenario: scenario.name, databasePrefix: 'faults', dynamicConfigOverrides: overrides });
    const worker = await startWorker(scenario.preset, cluster.frontendAddress, await freePort());
    try {
      await warmUp(scenario.preset, cluster.frontendAddress);
      for (const fault of faults.flatMap((f) => Array<typeof f>(repeat).fill(f))) {
        process.stderr.write(`${fault.name} ...\n`);
        const load = loadFor(fault);
        const outcome = await runFault({ cluster, postgres: pg, stopTimeoutMs }, fault, load);
        process.stderr.write(`${describeOutcome(outcome)}\n`);
        outcomes.push({ o: outcome, load });
      }
    } finally {
      await worker.stop();
      await cluster.stop();
    }
  } finally {
    await pg.stop();
  }

  const drains = overrides ? `rendered, with ${o.dynamicConfig.join(', ')}` : 'as rendered';
  const table = markdownTable(
    [
      'Fault',
      'Rate held',
      'Workflows lost',
      'Done twice',
      'Start errors',
      'Open at deadline',
      'Time to recover',
      'P99 during (ms)',
      'Stopped task drained in',
      'Membership settled',
      'Last closed (bound)',
    ],
    outcomes.map(row),
  );
  const report = [
    `# Faults on the local cluster (${scenario.name}, dynamic config ${drains})`,
    '',
    `${rate} simple workflows/s, the fault ${o.faultAt} in, ${o.duration === undefined ? `each load until ${LOAD_AFTER_PLANNED_SECONDS} s past the end its fault plans (the integration suite's)` : `for ${o.duration} per fault`}; ${scenario.environment.deployment.stopTimeout} stopTimeout; PostgreSQL ${pg.major} on loopback; this machine only.`,
    '',
    table,
    '',
  ].join('\n');
  process.stdout.write(report);
  if (o.out) writeFileSync(o.out, report);
});
