import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitOnConfigError, resolveScenario } from '../config';
import type { CatalogInput } from '../config/catalog-schema';
import { CLI_CONTEXT } from '../lib/assembly/scenario-app';
import { runCommand } from '../lib/commands/shared/cli';
import { resolveScenario as resolveAppScenario } from '../lib/families';
import { reportWindow, type WindowOptions } from '../lib/commands/report/window';
import { judgeStep } from '../lib/commands/shared/ladder-judgement';
import { generatorResult } from './support/generator-result';
import { type CliResult, inProcess, runApp, runCli, runCliInProcess } from './support/cli';
import { editedCatalog, FOLIO_PHASE_NAMES } from '../harness/catalog';
import { CAMPAIGNS } from '../config/campaigns';

/*
 * Every kind of bad input, in one table: config (scenarios, ACU, instance classes, modules,
 * routing acknowledgements, service sizes, dynamic config, shard count, fleet, alarms), the
 * `-c` context of `cdk synth`, and the companion commands' arguments. Each must end the
 * program with a non-zero exit and one line that names the bad value and what is valid,
 * never a stack trace.
 *
 * Config rows run in process through exitOnConfigError, the path bin/app.ts takes; report
 * window rows through runCommand, the path every command takes; command rows in process
 * through the command's own entry point (test/support/cli.ts, runCliInProcess); synth rows in
 * process with the CLI's context, as bin/app.ts resolves it. One synth row and one command row
 * are processes of their own, as a user runs them, so that each wrapper, its exit code and its
 * stderr are proven end to end (each spawn costs seconds of CPU: the integration suite runs
 * more commands as processes).
 */

interface BadInput {
  readonly name: string;
  readonly run: () => Promise<Pick<CliResult, 'status' | 'stderr'>>;
  readonly expected: readonly RegExp[];
  /** Run as a process of its own (synth, spawned): free to run beside the others. */
  readonly separate?: true;
}

const work = mkdtempSync(join(tmpdir(), 'bad-input-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const file = (name: string, content: string) => {
  const path = join(work, name);
  writeFileSync(path, content);
  return path;
};
/** A directory under the work dir holding one file, for an option that names a directory. */
const dirWith = (dir: string, name: string, content: string) => {
  mkdirSync(join(work, dir), { recursive: true });
  writeFileSync(join(work, dir, name), content);
  return join(work, dir);
};

const phaseIndex = (c: any, name: string) => c.folio.phases.findIndex((p: any) => p.name === name);
const phase = (name: string, edit: (p: any) => void) => editedCatalog((c) => edit(c.folio.phases[phaseIndex(c, name)]));
const preset = (name: string, edit: (p: any) => void) =>
  editedCatalog((c) => {
    // Presets share data objects (the seed's dynamic config); edit a copy of this one only.
    const i = c.temporal.scenarios.findIndex((s: any) => s.name === name);
    c.temporal.scenarios[i] = structuredClone(c.temporal.scenarios[i]);
    edit(c.temporal.scenarios[i]);
  });

/** A valid reservoir (the fork's defaults), for rows that break something beside it. */
const RESERVOIR = { baseLifetime: '11m', lifetimeJitter: '2m', guardWindow: '45s', initialFillTimeout: '30s', inflightLimit: 8 };
const config = (name: string, context: Record<string, unknown>, catalog: CatalogInput | undefined, expected: RegExp[]): BadInput => ({
  name,
  run: () => inProcess(() => exitOnConfigError(() => resolveScenario(context, catalog))),
  expected,
});
const NOW = new Date('2026-11-20T12:00:00Z');
/** The first campaign's name with its last two letters swapped: counted from config, never written here. */
const CAMPAIGN_TYPO = CAMPAIGNS[0].name.replace(/(.)(.)$/, '$2$1');
const reportWindowRow = (name: string, options: WindowOptions, expected: RegExp[]): BadInput => ({
  name,
  run: () => inProcess(() => runCommand(async () => void reportWindow(options, 'test10', NOW))),
  expected,
});
/** A one-step ladder record whose own rules were loosened so its step holds: the report judges by config's. */
const loosenedLadder = () => {
  const [start, end] = ['2026-11-20T10:00:00Z', '2026-11-20T10:06:00Z'];
  const result = generatorResult(150, 300, { start: '2026-11-20T10:00:10Z', p99: 5000 });
  const held = { completedShareMin: 0, p99MaxMs: 1e9, openGrowthShareMax: 0.99 };
  const step = { rate: 150, start, end, exitCode: 0, result, ...judgeStep(150, 300, result, held) };
  return { scenario: 'temporal-150wps', start, end, ladder: { step: '5m', held, rates: [150], steps: [step], highestHeld: 150, firstFailed: null } };
};
/** A run record as bench run writes it, its P50 made negative. */
const negativeRun = () => {
  const result = generatorResult(150, 300, { start: '2026-11-20T10:00:10Z' });
  return {
    scenario: 'temporal-150wps',
    start: '2026-11-20T10:00:00Z',
    end: '2026-11-20T10:06:00Z',
    result: { ...result, results: { ...result.results, latency: { ...result.results.latency, p50: -100 } } },
  };
};
/** The test10 example's report with its proposal edited. */
const proposalWith = (edit: (p: any) => void) => {
  const report = JSON.parse(readFileSync(join(__dirname, '../docs/report-example/test10/report.json'), 'utf8'));
  edit(report.proposal);
  return JSON.stringify(report);
};
/**
 * `cdk synth -c …`: in process as bin/app.ts resolves it (the CLI's context, cdk.json's flags,
 * beside the row's), or, for `spawn`, bin/app.ts itself in its own process.
 */
const synth = (name: string, context: Record<string, unknown>, expected: RegExp[], how: 'spawn' | 'in process' = 'in process'): BadInput =>
  how === 'spawn'
    ? { name, run: () => runApp(context), expected, separate: true }
    : { name, run: () => inProcess(() => exitOnConfigError(() => resolveAppScenario({ ...CLI_CONTEXT, ...context }))), expected };
/** A command row, run in process through the command's own entry point. */
const command = (name: string, script: string, args: string[], expected: RegExp[]): BadInput => ({ name, run: () => runCliInProcess(script, args), expected });
/** A command row run as a separate process, as a user runs it: the shell wrapper, exit code and stderr end to end. */
const spawned = (name: string, script: string, args: string[], expected: RegExp[]): BadInput => ({
  name,
  run: () => runCli(script, args),
  expected,
  separate: true,
});

/** What no message may say: zod's own words, a value that is NaN or undefined, a newline escaped into one line. */
const UNSAID = /Invalid input|expected \w+, received|\ba (array|object|int)\b|\bNaN\b|\bundefined\b|\\n/;

const BAD_INPUTS: readonly BadInput[] = [
  // Config, as `cdk synth -c scenario=…` resolves it.
  config('no scenario', {}, undefined, [/no scenario given/, /-c scenario=<name>/, /valid: baseline, test1, .*test13/]),
  config('empty scenario', { scenario: '' }, undefined, [/no scenario given/, /valid: baseline/]),
  config('misspelled scenario', { scenario: 'tset12' }, undefined, [/unknown scenario "tset12"/, /did you mean "test12"/, /valid: baseline/]),
  config('unknown scenario, nothing close', { scenario: 'production' }, undefined, [/unknown scenario "production"; valid: baseline/]),
  config(
    'a list where config takes an object or a list of another kind',
    { scenario: 'test1' },
    editedCatalog((c) => (c.folio.modules = 'mod-users' as never)),
    [/^error: config error in folio.modules: "mod-users" is not valid \(valid: a list \(\[\.\.\.\]\)\)/],
  ),
  config(
    'an empty list where one entry is needed',
    { scenario: 'test1' },
    editedCatalog((c) => (c.folio.environment.tenants = [])),
    [/folio.environment.tenants: needs at least 1 entry \(got 0\)/],
  ),
  config('a context value of the wrong type (cdk.json can hold any JSON)', { scenario: 'test1', envName: 5 }, undefined, [
    /^error: envName "5" is not valid \(valid: 1-16 of a-z/,
  ]),
  config('misspelled context key', { scenario: 'test12', envname: 'b' }, undefined, [
    /unknown context key "envname"/,
    /did you mean "envName"/,
    /valid: scenario, envName, unprotect/,
  ]),
  config('bad envName', { scenario: 'test12', envName: 'Perf_2' }, undefined, [/envName "Perf_2" is not valid/, /a-z, 0-9/]),
  config('envName ending in a hyphen (RDS and DNS refuse it)', { scenario: 'test12', envName: 'perf-' }, undefined, [
    /envName "perf-" is not valid \(valid: 1-16 of a-z, 0-9 and single inner hyphens, starting with a letter\)/,
  ]),
  config('envName with two hyphens in a row', { scenario: 'test12', envName: 'perf--2' }, undefined, [
    /envName "perf--2" is not valid/,
    /single inner hyphens/,
  ]),
  config('bad unprotect', { scenario: 'test12', unprotect: 'yes' }, undefined, [/unprotect "yes"/, /valid: true, false/]),
  config(
    'ACU off the 0.5 grid',
    { scenario: 'test7' },
    phase('test7', (p) => (p.offload.serverless.max = 32.3)),
    [/scenario "test7" \(offload.serverless.max\)/, /32.3 ACU is off the 0.5 grid/, /0 to 256 in steps of 0.5/],
  ),
  config(
    'ACU above 256',
    { scenario: 'test6' },
    phase('test6', (p) => (p.offload.serverless.max = 512)),
    [/scenario "test6"/, /512 ACU is outside 0-256/],
  ),
  config(
    'negative ACU',
    { scenario: 'test3' },
    phase('test3', (p) => (p.offload.serverless.min = -0.5)),
    [/-0.5 ACU is outside 0-256/],
  ),
  config(
    'max ACU below 1',
    { scenario: 'baseline' },
    phase('baseline', (p) => (p.offload.serverless.max = 0.5)),
    [/max 0.5 ACU is below 1/],
  ),
  config(
    '0 ACU without saying when to pause',
    { scenario: 'test10' },
    phase('test10', (p) => (p.offload.serverless = { min: 0, max: 32 })),
    [
      /scenario "test10" \(offload.serverless\)/,
      /min 0 ACU pauses the cluster when it is idle: say after how long with autoPause \(valid: 5m to 24h, e.g. "10m"\)/,
    ],
  ),
  config(
    'a pause for a cluster that cannot pause',
    { scenario: 'test10' },
    phase('test10', (p) => (p.offload.serverless = { min: 0.5, max: 32, autoPause: '10m' })),
    [/autoPause 10m applies only to a cluster whose min is 0 ACU, and this one's is 0.5 \(valid: min 0, or no autoPause\)/],
  ),
  config(
    'a pause shorter than Aurora takes',
    { scenario: 'test10' },
    phase('test10', (p) => (p.offload.serverless = { min: 0, max: 32, autoPause: '1m' })),
    [/autoPause 1m is outside what Aurora accepts \(valid: 5m to 24h\)/],
  ),
  config(
    '0 ACU on an engine version that cannot pause',
    { scenario: 'test10' },
    editedCatalog((c) => {
      c.folio.environment.database.engineVersion = '16.2';
      c.folio.phases.find((p: any) => p.name === 'test10').offload.serverless = { min: 0, max: 32, autoPause: '10m' };
    }),
    [
      /scenario "test10" \(offload.serverless.min\): test10's Serverless v2 cluster has min 0 ACU, which Aurora PostgreSQL 16.2 cannot pause to: its Serverless v2 starts at 0.5 ACU \(valid: min 0.5 or more, or a version from 13.15, 14.12, 15.7, 16.3, 17.4 on; config\/engine-versions\/us-east-1.json, as of \d{4}-\d\d-\d\d\)/,
    ],
  ),
  config(
    'an engine version the region does not offer',
    { scenario: 'test10' },
    editedCatalog((c) => (c.folio.environment.database.engineVersion = '16.7')),
    [
      /environment.database.engineVersion/,
      /Aurora PostgreSQL 16.7 is not offered in us-east-1/,
      /valid: 16.x: 16.1, 16.2, 16.3, 16.4, 16.6, 16.8, 16.9; config\/engine-versions\/us-east-1.json/,
    ],
  ),
  config(
    'a Serverless v2 max above what the engine version allows',
    { scenario: 'test10' },
    editedCatalog((c) => {
      c.folio.environment.database.engineVersion = '15.4';
      c.folio.environment.mover.image = { ecr: { repository: 'folio-mover', tag: '15.4-alpine' } };
      c.folio.phases.find((p: any) => p.name === 'test10').offload.serverless = { min: 0.5, max: 192 };
    }),
    [
      /scenario "test10" \(offload.serverless.max\): test10's Serverless v2 cluster has max 192 ACU, above the 128 ACU Aurora PostgreSQL 15.4 allows \(valid: max 128 or less, or a version from 13.13, 14.10, 15.5, 16.1, 17.4 on/,
    ],
  ),
  config(
    'an instance class the engine version cannot be ordered in',
    { scenario: 'part3' },
    editedCatalog((c) => {
      c.folio.environment.database.engineVersion = '16.2';
      c.folio.environment.mover.image = { ecr: { repository: 'folio-mover', tag: '16.2-alpine' } };
    }),
    [
      /scenario "part3" \(offload.provisioned.instanceClass\)/,
      /db.r8g.2xlarge cannot be ordered with Aurora PostgreSQL 16.2 in us-east-1 \(part3's offload cluster; valid: db.r8g.2xlarge from 13.16, 14.13, 15.8, 16.4, 17.4;/,
    ],
  ),
  config(
    'a Temporal Serverless writer at 0 ACU on an engine version that cannot pause',
    { scenario: 'temporal-aurora-150wps' },
    editedCatalog((c) => {
      c.temporal.environment.auroraPostgresql.engineVersion = '15.4';
      c.temporal.scenarios.find((s: any) => s.name === 'temporal-aurora-150wps').store.writer = { serverlessAcu: { min: 0, max: 64, autoPause: '30m' } };
    }),
    [/temporal-aurora-150wps's Serverless v2 writer has min 0 ACU, which Aurora PostgreSQL 15.4 cannot pause to/],
  ),
  config(
    'an offload cluster of both kinds',
    { scenario: 'part3' },
    phase('part3', (p) => (p.offload.serverless = { min: 0.5, max: 32 })),
    [/scenario "part3" \(offload\)/, /offload names both serverless and provisioned \(valid: exactly one of/],
  ),
  config(
    'an offload cluster of neither kind',
    { scenario: 'part3' },
    phase('part3', (p) => (p.offload = {})),
    [/scenario "part3" \(offload\)/, /offload names neither kind/],
  ),
  config(
    'an offload class Aurora does not offer',
    { scenario: 'part3' },
    phase('part3', (p) => (p.offload.provisioned.instanceClass = 'db.r8g.3xlarge')),
    [/Aurora PostgreSQL does not offer "db.r8g.3xlarge"; valid in r8g: db.r8g.large/],
  ),
  config(
    'an unknown storage type',
    { scenario: 'part3' },
    phase('part3', (p) => (p.storage = { offload: 'io2' })),
    [/scenario "part3" \(storage.offload\)/, /storage type "io2" is not valid \(valid: aurora \(Standard\), aurora-iopt1 \(I\/O-Optimized\)\)/],
  ),
  config(
    'min above max',
    { scenario: 'test12' },
    phase('test12', (p) => (p.offload.serverless = { min: 64, max: 5 })),
    [/scenario "test12" \(offload.serverless\)/, /min 64 ACU is above max 5 ACU/],
  ),
  config(
    'instance size not offered',
    { scenario: 'test2' },
    phase('test2', (p) => (p.primaryInstanceClass = 'db.r7g.3xlarge')),
    [/does not offer "db.r7g.3xlarge"/, /valid in r7g: db.r7g.large, .*db.r7g.16xlarge/],
  ),
  config(
    'instance family not offered',
    { scenario: 'test2' },
    phase('test2', (p) => (p.primaryInstanceClass = 'db.m7g.2xlarge')),
    [/no "m7g" family/, /valid families: r6g, .*r7g/],
  ),
  config(
    'not an instance class',
    { scenario: 'test2' },
    phase('test2', (p) => (p.primaryInstanceClass = 'r7g.2xlarge')),
    [/"r7g.2xlarge" is not an instance class/, /db.<family>.<size>/],
  ),
  config(
    'unknown module routed',
    { scenario: 'test5' },
    phase('test5', (p) => (p.routedToOffload = ['mod-inventory-storge'])),
    [/scenario "test5"/, /unknown module "mod-inventory-storge"/, /did you mean "mod-inventory-storage"/, /valid: mod-agreements, /],
  ),
  config(
    'module that is not routable',
    { scenario: 'test2' },
    phase('test2', (p) => p.routedToOffload.push('mod-users')),
    [
      /"mod-users" is not routable \(routable: false in config\/folio-modules.ts\) \(valid: a routable module: mod-source-record-manager, .*; or make mod-users routable there, with readsSchemasOf naming every module whose schema it reads\)$/,
    ],
  ),
  config(
    'module routed twice',
    { scenario: 'test2' },
    phase('test2', (p) => p.routedToOffload.push('mod-source-record-storage')),
    [/module "mod-source-record-storage" is routed twice \(valid: each module once\)/],
  ),
  config(
    'cross-schema reads broken',
    { scenario: 'test9' },
    phase('test9', (p) => (p.crossSchemaAcks = p.crossSchemaAcks.filter((a: any) => a.module !== 'mod-data-export'))),
    [/scenario "test9"/, /mod-data-export \(on offload\) reads schemas that are on the other cluster: mod-users/, /crossSchemaAcks/],
  ),
  config(
    'cross-schema reads broken, many schemas',
    { scenario: 'test10' },
    phase('test10', (p) => (p.crossSchemaAcks = p.crossSchemaAcks.filter((a: any) => a.module !== 'mod-fqm-manager'))),
    [/mod-fqm-manager \(on offload\) reads schemas that are on the other cluster: mod-agreements, mod-circulation-storage, .*mod-users/],
  ),
  config(
    'acknowledgement of a read that is not split',
    { scenario: 'test1' },
    phase('test1', (p) => p.crossSchemaAcks.push({ module: 'mod-data-export', readsFrom: ['mod-users'], reason: 'a reason that is long enough' })),
    [/acknowledges that mod-data-export reads mod-users across clusters, but it does not/, /split reads here: mod-source-record-storage/],
  ),
  config(
    'acknowledgement without a reason',
    { scenario: 'test1' },
    phase('test1', (p) => (p.crossSchemaAcks[0].reason = 'ok')),
    [/needs a reason/],
  ),
  config(
    'misspelled phase field',
    { scenario: 'test9' },
    phase('test9', (p) => (p.offloadd = p.offload)),
    [/scenario "test9"/, /unknown field "offloadd"/, /did you mean "offload"/, /valid: name, title, source, primaryInstanceClass/],
  ),
  config(
    'wrong type in the environment',
    { scenario: 'test12' },
    editedCatalog((c) => (c.folio.environment.database.port = '5432')),
    [/folio.environment.database.port: "5432" is not valid \(valid: a number\) \(shared by every FOLIO phase, test12 among them\)/],
  ),
  config(
    'databases opened to the internet',
    { scenario: 'test12' },
    editedCatalog((c) => c.folio.environment.clientCidrs.push('0.0.0.0/0')),
    [/must not open the databases to the internet \(\/0\) \(valid: the clients' own ranges/],
  ),
  config(
    'one availability zone',
    { scenario: 'test12' },
    editedCatalog((c) => (c.folio.environment.availabilityZones = ['us-east-1a'])),
    [/at least 2 availability zones/],
  ),
  config(
    'scenario defined twice',
    { scenario: 'test12' },
    editedCatalog((c) => c.folio.phases.push({ ...c.folio.phases[0] })),
    [/scenario "baseline" is defined twice \(valid: each name once\)/],
  ),
  config('misspelled Temporal scenario', { scenario: 'temporal-150-wps' }, undefined, [
    /unknown scenario "temporal-150-wps"/,
    /did you mean "temporal-150wps"/,
    /valid: .*temporal-25wps, .*temporal-150wps/,
  ]),
  config(
    'unregistered dynamic-config key',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.dynamicConfig['matching.numTaskQueueWritePartition'] = 32)),
    [
      /scenario "temporal-150wps" \(dynamicConfig.matching.numTaskQueueWritePartition\)/,
      /not a registered dynamic-config key/,
      /did you mean "matching.numTaskqueueWritePartitions"/,
      /valid: frontend.rps, /,
    ],
  ),
  config(
    'shard count as dynamic config',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.dynamicConfig['history.numHistoryShards'] = 8192)),
    [/"history.numHistoryShards" is not dynamic config/, /static/, /can never change after the first deploy/],
  ),
  config(
    'shutdown drain as preset dynamic config',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.dynamicConfig['history.shutdownDrainDuration'] = '30s')),
    [/"history.shutdownDrainDuration" is set for every preset from environment.deployment.shutdown/, /checked against the ECS stopTimeout/],
  ),
  config(
    'a drain that outlasts stopTimeout',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.environment.deployment.shutdown.history.drain = '58s')),
    [/deployment.shutdown: history drain is 58 s, which with 5 s of slack outlasts stopTimeout 60s/, /valid: a drain that ends 5 s before ECS sends SIGKILL/],
  ),
  config(
    'a frontend that leaves DNS after it stops serving',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.environment.deployment.shutdown.frontend.failHealthCheck = '5s')),
    [/failHealthCheck 5s is shorter than dnsTtl 10s/, /clients still resolve a stopping frontend that long/],
  ),
  config(
    "a key newer than the DSQL fork's server",
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.dynamicConfig['history.connectionCloseDelay'] = '30s')),
    [
      /"history.connectionCloseDelay" is registered from Temporal 1.31.2/,
      /the DSQL fork iw\/temporal@e74d6b69 \(upstream main of 2026-01-26: past 1.30.0, before 1.31.0\), which would ignore it/,
    ],
  ),
  config(
    'an Aurora server image tagged other than the release',
    { scenario: 'temporal-aurora-150wps' },
    editedCatalog((c) => (c.temporal.environment.auroraPostgresql.images.server = { registry: 'docker.io/temporalio/server:1.30.1', user: '1000:1000' })),
    [/auroraPostgresql.images.server is tagged 1.30.1, but servers.upstream.release is 1.32.2/],
  ),
  config(
    'a DSQL image that does not name the fork commit',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.environment.images.server = { ecr: { repository: 'temporal-dsql', tag: '1.29.0-dsql' }, user: '1000:1000' })),
    [/images.server is tagged 1.29.0-dsql, which does not name the fork commit servers.dsqlFork.commit e74d6b69/, /e.g. 1.30.0-dsql-e74d6b69/],
  ),
  config(
    'a task image run as root',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.environment.images.benchmark = { ...c.temporal.environment.images.benchmark, user: '0:0' })),
    [/images.benchmark/, /user "0:0" is root/, /valid: the image's non-root user, e.g. 1000:1000/],
  ),
  config(
    'a task image without its user',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.environment.images.collector = { registry: 'public.ecr.aws/aws-observability/aws-otel-collector:v0.43.3' } as never)),
    [/images.collector/, /user: "<uid>:<gid>" \(not root\)/],
  ),
  config(
    'a release that is not major.minor.patch',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.environment.servers.upstream.release = '1.32')),
    [/"1.32" is not a release \(valid: major.minor.patch, e.g. 1.32.2\)/],
  ),
  config(
    'dynamic-config value of the wrong kind',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.dynamicConfig['frontend.rps'] = '8000')),
    [/frontend.rps = "8000" is not valid/, /valid: a whole number/],
  ),
  config(
    'dynamic-config value below its minimum',
    { scenario: 'temporal-100wps' },
    preset('temporal-100wps', (p) => (p.dynamicConfig['matching.numTaskqueueReadPartitions'] = 0)),
    [/matching.numTaskqueueReadPartitions = 0 is below 1/],
  ),
  config(
    'replicas that cannot fit the ASG',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.services.history.replicas = 12)),
    [
      /scenario "temporal-150wps" \(capacity.main\)/,
      /(history|frontend): \d+ task\(s\) of \d vCPU \/ \d+ MiB do not fit during a rolling deploy of history/,
      /10 × m7g.2xlarge/,
      /short of (CPU|awsvpc task slots)/,
      /smallest main pool that fits is \d+ instances/,
    ],
  ),
  config(
    'a task larger than any instance',
    { scenario: 'temporal-25wps' },
    preset('temporal-25wps', (p) => (p.services.history.vcpu = 16)),
    [
      /history: 2 task\(s\) of 16 vCPU/,
      /short of CPU/,
      /no number of these instances fits \(valid: tasks of at most 8 vCPU and 31365 MiB, or a larger instance type\)/,
    ],
  ),
  config(
    'benchmark fleet too big for its ASG',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.benchmark.workers.replicas = 12)),
    [/\(capacity.benchmark\)/, /benchmark-worker: /, /4 × m7g.2xlarge/],
  ),
  config(
    'unknown EC2 instance type',
    { scenario: 'temporal-50wps' },
    preset('temporal-50wps', (p) => (p.capacity.main.instanceType = 'm7g.2xlarg')),
    [/unknown instance type "m7g.2xlarg"/, /did you mean "m7g.2xlarge"/, /valid: m7g.large/],
  ),
  config(
    'vCPU off the ECS grid',
    { scenario: 'temporal-75wps' },
    preset('temporal-75wps', (p) => (p.services.matching.vcpu = 0.3)),
    [/services.matching.vcpu/, /0.3 vCPU is not valid/, /steps of 0.125/],
  ),
  config(
    'OpenSearch nodes uneven over zones',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.visibility.instances = 4)),
    [/4 OpenSearch nodes cannot spread evenly over 3 availability zones/, /multiple of 3/],
  ),
  config(
    'unknown fleet state in config',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.benchmark.fleet = 'off')),
    [/benchmark.fleet/, /valid fleet states: running, parked, external/],
  ),
  config('unknown fleet state on the command line', { scenario: 'temporal-150wps', fleet: 'zero' }, undefined, [
    /fleet "zero" is not valid/,
    /valid: running, parked, external/,
  ]),
  config('fleet given for a FOLIO phase', { scenario: 'test12', fleet: 'parked' }, undefined, [
    /fleet applies to Temporal presets only; "test12" is a FOLIO phase \(valid: no fleet, or a Temporal preset: temporal-/,
  ]),
  config(
    'ramp-up as long as the run',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.benchmark.rampUp = '5m')),
    [/ramp-up 5m is not shorter than the run \(5m\) \(valid: a ramp-up shorter than the run\)/],
  ),
  config(
    'DSQL connection rate above the service limit',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.store.connections.limiter.perSecond = 150)),
    [/store.connections.limiter.perSecond/, /at most 100 new connections\/s/, /valid: 1-100/],
  ),
  config(
    "a token bucket larger than DSQL's burst",
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.store.connections.limiter = { kind: 'token-bucket', perSecond: 100, burst: 2000, maxWait: '30s' })),
    [/burst is 1,000 new connections \(valid: 1-1000\)/],
  ),
  config(
    'an unknown limiter kind',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.store.connections.limiter = { kind: 'bucket' })),
    [/unknown limiter kind \(valid: per-task, counter, token-bucket\)/],
  ),
  config(
    'a lease without the reservoir',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.store.connections.lease = { blockSize: 100, blockCount: 100, ttl: '3m', renewInterval: '1m' })),
    [/connections.lease needs connections.reservoir: the plugin sets the lease up in reservoir mode only and would ignore it/],
  ),
  config(
    'a lease renewed no sooner than it expires',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) =>
      Object.assign(p.store.connections, { reservoir: RESERVOIR, lease: { blockSize: 100, blockCount: 100, ttl: '1m', renewInterval: '1m' } }),
    ),
    [/renewInterval 1m is not shorter than its ttl 1m/],
  ),
  config(
    'reservoir connections that outlive a DSQL session',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.store.connections.reservoir = { ...RESERVOIR, baseLifetime: '55m', lifetimeJitter: '10m' })),
    [/baseLifetime 55m \+ lifetimeJitter 10m reaches Aurora DSQL's 60-minute session limit/],
  ),
  config(
    'a reservoir guard as long as the lifetime',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.store.connections.reservoir = { ...RESERVOIR, guardWindow: '11m' })),
    [/connections.reservoir.guardWindow 11m is not shorter than baseLifetime 11m: every connection would be discarded on checkout/],
  ),
  config(
    'an upgrade test that starts from the release itself',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.environment.servers.upstream.upgradeTestedFrom = '1.32.2')),
    [/servers.upstream.upgradeTestedFrom 1.32.2 is not older than the release 1.32.2 \(valid: an older release, the one the upgrade test starts from\)/],
  ),
  config(
    'a reservoir with pools that close idle connections',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) =>
      Object.assign(p, {
        store: { engine: 'dsql', connections: { limiter: { kind: 'counter', perSecond: 100, maxWait: '30s' }, reservoir: RESERVOIR } },
        pools: { ...p.pools, history: { maxConns: 50, maxIdleConns: 10 } },
      }),
    ),
    [/with the reservoir on, pools.history.maxIdleConns \(10\) must equal maxConns \(50\)/],
  ),
  config(
    "per-task connection rates over DSQL's 100/s",
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.store.connections.limiter = { kind: 'per-task' })),
    [
      /with the per-task limiter, temporal-150wps's tasks may open 120 connections\/s together \(history 8 × 8, matching 6 × 6, frontend 4 × 4, worker 2 × 2\), over Aurora DSQL's 100\/s per cluster/,
    ],
  ),
  config(
    'a database user the DSQL plugin would ignore',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.environment.persistence.user = 'temporal')),
    [/persistence.user/, /always connects as the built-in admin role \(valid: "admin"\)/],
  ),
  config(
    'an unknown path to Aurora DSQL',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.environment.persistence.network = 'vpn')),
    [/persistence.network "vpn" is not valid \(valid: privatelink, public\)/],
  ),
  config(
    'a preset over the vCPU quota less its headroom',
    { scenario: 'temporal-800wps' },
    editedCatalog((c) => (c.temporal.environment.limits.ec2VcpuQuota = 128)),
    [
      /^error: config error in scenario "temporal-800wps": temporal-800wps needs 320 vCPUs at its pools' maximum \(160 main \+ 160 benchmark\), over 115: the account's 128 vCPU quota \(limits.ec2VcpuQuota\) less the 10% headroom/,
    ],
  ),
  config(
    'a preset whose rolling deploy would take DSQL past its connections',
    { scenario: 'temporal-800wps' },
    editedCatalog((c) => (c.temporal.scenarios.find((s: any) => s.name === 'temporal-800wps').deployment.maximumPercent = 150)),
    [
      /temporal-800wps may hold 10,650 DSQL connections \(8,250 steady \+ 2,400 while history rolls; pools\), over 9,000: the cluster's 10,000 less the 10% headroom \(valid: smaller pools or fewer replicas, or a lower deployment.maximumPercent\)/,
    ],
  ),
  config(
    'a pool that keeps more idle connections than it opens',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.scenarios.find((s: any) => s.name === 'temporal-150wps').pools.matching.maxIdleConns = 80)),
    [/scenario "temporal-150wps" \(pools.matching\): maxIdleConns 80 is above maxConns 50 \(valid: at most maxConns/],
  ),
  config(
    'an unknown history store',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.scenarios.find((s: any) => s.name === 'temporal-150wps').store = { engine: 'cockroach' })),
    [/scenario "temporal-150wps" \(store.engine\): unknown store engine \(valid: dsql, aurora-postgresql\) \(got "cockroach"\)/],
  ),
  config(
    'an Aurora store with both a writer class and an ACU range',
    { scenario: 'temporal-aurora-150wps' },
    editedCatalog((c) => (c.temporal.scenarios.find((s: any) => s.name === 'temporal-aurora-150wps').store.writer.serverlessAcu = { min: 2, max: 64 })),
    [/scenario "temporal-aurora-150wps" \(store.writer\): writer takes one of instanceClass \(provisioned, e.g. "db.r7g.2xlarge"\) or serverlessAcu/],
  ),
  config(
    'an Aurora writer class Aurora does not offer',
    { scenario: 'temporal-aurora-150wps' },
    editedCatalog((c) => (c.temporal.scenarios.find((s: any) => s.name === 'temporal-aurora-150wps').store.writer = { instanceClass: 'db.r7g.3xlarge' })),
    [/\(store.writer.instanceClass\): Aurora PostgreSQL does not offer "db.r7g.3xlarge"; valid in r7g: db.r7g.large, /],
  ),
  config(
    'a reserved Aurora master user',
    { scenario: 'temporal-aurora-150wps' },
    editedCatalog((c) => (c.temporal.environment.auroraPostgresql.user = 'rdsadmin')),
    [/auroraPostgresql.user: "rdsadmin" is reserved by Aurora PostgreSQL \(valid: any other name, e.g. temporal\)/],
  ),
  config(
    "the Aurora servers' user as the master user",
    { scenario: 'temporal-aurora-150wps' },
    editedCatalog((c) => (c.temporal.environment.auroraPostgresql.serverUser = 'temporal')),
    [/auroraPostgresql.serverUser "temporal" is the master user \(valid: a name of its own, e.g. temporal_server/],
  ),
  config(
    "a reserved name for the Aurora servers' user",
    { scenario: 'temporal-aurora-150wps' },
    editedCatalog((c) => (c.temporal.environment.auroraPostgresql.serverUser = 'rds_iam')),
    [/auroraPostgresql.serverUser: "rds_iam" is reserved by Aurora PostgreSQL \(valid: any other name, e.g. temporal_server\)/],
  ),
  config(
    'a workflow type the benchmark does not register',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.benchmark.workflowType = 'ExecuteActivity')),
    [/benchmark.workflowType/, /valid workflow types: simple, multi-activity/],
  ),
  config(
    'a module zone that is not a DNS name',
    { scenario: 'test5' },
    editedCatalog((c) => (c.folio.environment.names.moduleZone = 'folio_db')),
    [/names.moduleZone/, /"folio_db" is not a valid DNS name \(AWS: labels of 1-63 lowercase letters/],
  ),
  config('an envName that makes the routing parameter start with "aws"', { scenario: 'test5', envName: 'awsperf' }, undefined, [
    /^error: with envName "awsperf", "\/awsperf\/folio\/db\/routing" is not a valid SSM parameter name/,
    /not beginning with "aws" or "ssm"/,
  ]),
  config(
    'a cluster identifier whose writer AWS would refuse',
    { scenario: 'test5' },
    editedCatalog((c) => (c.folio.environment.names.offloadCluster = `folio-${'x'.repeat(53)}`)),
    [/"folio-x+-writer" is not a valid Aurora DB instance identifier \(AWS: 1-63 lowercase letters/],
  ),
  config(
    'an envName that makes a cluster identifier too long',
    { scenario: 'test5', envName: 'perf-team-twelve' },
    editedCatalog((c) => (c.folio.environment.names.primaryCluster = `folio-${'p'.repeat(40)}`)),
    [
      /envName "perf-team-twelve" makes the Aurora DB instance identifier "perf-team-twelve-folio-p+-writer" longer than 63 characters/,
      /valid: an envName of at most 9 characters/,
    ],
  ),
  config(
    'a route TTL of 0',
    { scenario: 'test5' },
    editedCatalog((c) => (c.folio.environment.routing.ttlSeconds = 0)),
    [/routing.ttlSeconds/],
  ),
  config(
    'a source grace as long as the switch timeout',
    { scenario: 'test5' },
    editedCatalog((c) => (c.folio.environment.routing.sourceGrace = '300s')),
    [/routing.sourceGrace/, /sourceGrace 300s is not shorter than switchTimeout 300s \(valid: a grace shorter than the timeout/],
  ),
  config(
    'a switch timeout in minutes',
    { scenario: 'test5' },
    editedCatalog((c) => (c.folio.environment.routing.switchTimeout = '5m')),
    [/routing.switchTimeout/, /whole seconds, such as 300s/],
  ),
  config(
    'a tenant listed twice',
    { scenario: 'test5' },
    editedCatalog((c) => (c.folio.environment.tenants = ['fs09000000', 'fs09000000'])),
    [/tenant "fs09000000" is listed twice \(valid: each tenant once\)/],
  ),
  config(
    'a tenant id FOLIO would not accept',
    { scenario: 'test5' },
    editedCatalog((c) => (c.folio.environment.tenants = ['FS-09'])),
    [/tenants\.0/, /FOLIO tenant id/],
  ),
  config(
    'a mover lock timeout that is not a PostgreSQL duration',
    { scenario: 'test5' },
    editedCatalog((c) => (c.folio.environment.mover.lockTimeout = '30 seconds')),
    [/lockTimeout.*valid: a PostgreSQL duration such as 500ms, 30s or 2min/],
  ),
  config(
    'a mover image of another PostgreSQL major than the engine',
    { scenario: 'test5' },
    editedCatalog((c) => (c.folio.environment.mover.image = { ecr: { repository: 'folio-mover', tag: '15.8-alpine' } })),
    [/mover image tag "15.8-alpine" is PostgreSQL 15, the engine is 16 \(valid: a 16\.x client\)/],
  ),
  config('envName too long for the OpenSearch domain', { scenario: 'temporal-150wps', envName: 'perf-team-twelve' }, undefined, [
    /envName "perf-team-twelve"/,
    /longer than 28 characters/,
    /at most 8 characters/,
  ]),
  config(
    'two roles on one port',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.environment.ports.matching.grpc = 7234)),
    [/port 7234 is used twice/],
  ),
  config(
    'CPU alarm threshold above 100%',
    { scenario: 'test10' },
    editedCatalog((c) => (c.folio.environment.observability.alarms.cpuHigh.percent = 150)),
    [/folio.environment.observability.alarms.cpuHigh.percent: 150% is not valid \(valid: above 0, at most 100\)/],
  ),
  config(
    'alarm period of zero minutes',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.environment.observability.alarms.tasksBelowDesired.minutes = 0)),
    [/tasksBelowDesired.minutes: 0 minutes is not valid \(valid: 1-1440\)/],
  ),
  config(
    'an idle rule shorter than ten minutes',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.environment.spending.idle = { action: 'park-fleet', minutes: 5, workerCpuBelowPercent: 5 })),
    [/spending.idle.minutes: 5 minutes is not valid \(valid: 10-1440; shorter would park between two runs of one session\)/],
  ),
  config(
    "an idle action of the other family's",
    { scenario: 'test10' },
    editedCatalog((c) => ((c.folio.environment.spending as any).idle = { action: 'park-fleet', minutes: 60 })),
    [/idle action "park-fleet" is not valid \(valid: stop-clusters, off\)/],
  ),
  config(
    'a budget of nothing',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.environment.spending.budget.dailyUsd = 0)),
    [/spending.budget.dailyUsd: 0 USD a day is not a budget \(valid: above 0\)/],
  ),
  config(
    'a proposal rule on a figure the report does not compute',
    { scenario: 'test10' },
    editedCatalog((c) => (c.folio.environment.observability.proposals.rules[0].when[0].figure = 'acuPeak')),
    [/"acuPeak" is not a figure the report computes \(valid: primaryCpuPeakPercent, offloadCpuPeakPercent, /],
  ),
  config(
    'a proposal that raises the ceiling by a factor of 1',
    { scenario: 'test10' },
    editedCatalog((c) => (c.folio.environment.observability.proposals.rules.find((r: any) => r.id === 'ceiling-flat').propose.factor = 1)),
    [/factor 1 is not a raise \(valid: above 1\)/],
  ),
  config(
    'a Temporal remedy of an unknown kind',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => ((c.temporal.environment.observability.proposals.remedies as any).history = { kind: 'bigger', factor: 2 })),
    [/remedy kind "bigger" is not valid \(valid: replicas, dynamic-config, pools, generator\)/],
  ),
  config(
    'a ladder step too short to judge',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.environment.observability.ladder.step = '5s')),
    [/observability.ladder.step/, /"5s" is too short a step \(valid: at least 10s, e\.g\. 5m\)/],
  ),
  config(
    'alarm address that is not an email',
    { scenario: 'test10' },
    editedCatalog((c) => (c.folio.environment.observability.alarmEmails = ['perf-team'])),
    [/"perf-team" is not an email address \(valid: name@domain\)/],
  ),
  config(
    'misspelled alarm setting',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.environment.observability.alarms.occConflicts = { perMinut: 100, minutes: 3 })),
    [/unknown field "perMinut" \(did you mean "perMinute"\?\); valid: perMinute, minutes/],
  ),
  config(
    'alarm setting left out',
    { scenario: 'test10' },
    editedCatalog((c) => delete c.folio.environment.observability.alarms.cpuHigh.minutes),
    [/observability.alarms.cpuHigh.minutes: missing field "minutes" \(valid: a number\)/],
  ),
  config(
    'duration that Go cannot parse',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => (p.benchmark.duration = '5 minutes')),
    [/"5 minutes" is not a duration/, /e.g. 30s, 55m/],
  ),
  // `cdk synth` itself: bin/app.ts in its own process, context as the CDK CLI passes it.
  synth('synth: no scenario', {}, [/^error: no scenario given: pass -c scenario=<name>; valid: baseline, /]),
  synth('synth: a misspelled scenario', { scenario: 'test-12' }, [/^error: unknown scenario "test-12" \(did you mean "test12"\?\); valid: /]),
  synth(
    'synth: a misspelled context key',
    { scenario: 'test1', envNmae: 'x' },
    [/^error: unknown context key "envNmae" \(did you mean "envName"\?\)/, /valid: scenario, envName/],
    'spawn',
  ),
  synth('synth: a bad fleet state', { scenario: 'temporal-150wps', fleet: 'stopped' }, [
    /^error: fleet "stopped" is not valid \(valid: running, parked, external\)$/m,
  ]),
  synth('synth: a bad validate switch', { scenario: 'test1', validate: 'yes' }, [/^error: validate "yes" is not valid \(valid: true, false\)$/m]),
  // The report command's time window.
  reportWindowRow('report: no window', {}, [/^error: no time window given; valid: --start <time> --end <time>, --last <duration> or --run <file>$/]),
  reportWindowRow('report: two ways at once', { last: '1h', start: '2026-11-20T10:00:00Z' }, [/^error: --start\/--end and --last cannot be combined; valid: /]),
  reportWindowRow('report: start without end', { start: '2026-11-20T10:00:00Z' }, [/^error: --start and --end go together/]),
  reportWindowRow('report: time without a zone', { start: '2026-11-20T10:00:00', end: '2026-11-20T11:00:00Z' }, [
    /^error: --start "2026-11-20T10:00:00" is not a time \(valid: ISO 8601 with a zone/,
  ]),
  reportWindowRow('report: end before start', { start: '2026-11-20T11:00:00Z', end: '2026-11-20T10:00:00Z' }, [
    /^error: the window ends \(2026-11-20T10:00:00Z\) before it starts \(2026-11-20T11:00:00Z\); valid: an end after the start$/,
  ]),
  reportWindowRow('report: an empty window, one end written with an offset', { start: '2026-11-20T10:00:00Z', end: '2026-11-20T11:00:00+01:00' }, [
    /^error: the window is empty: it ends when it starts \(2026-11-20T11:00:00\+01:00 \(2026-11-20T10:00:00Z\)\); valid: an end after the start$/,
  ]),
  reportWindowRow('report: offsets written +0100 are read as ISO 8601 allows', { start: '2026-11-20T12:00:00+0100', end: '2026-11-20T11:30:00+01:00' }, [
    /^error: the window ends \(2026-11-20T11:30:00\+01:00 \(2026-11-20T10:30:00Z\)\) before it starts \(2026-11-20T12:00:00\+0100 \(2026-11-20T11:00:00Z\)\)/,
  ]),
  reportWindowRow('report: end in the future', { start: '2026-11-20T11:00:00Z', end: '2026-11-21T10:00:00Z' }, [
    /^error: --end 2026-11-21T10:00:00Z is in the future; valid: a time up to now$/,
  ]),
  reportWindowRow('report: bad duration', { last: '5 minutes' }, [
    /^error: --last "5 minutes" is not a duration \(valid: a whole number above 0 with s, m or h/,
  ]),
  reportWindowRow('report: zero duration', { last: '0m' }, [/^error: --last "0m" is not a duration/]),
  reportWindowRow('report: period not whole minutes', { last: '1h', period: '90s' }, [
    /^error: --period "90s" is not valid \(valid: a duration with a unit, a whole number of minutes: 60s, 5m, 1h\)$/,
  ]),
  reportWindowRow('report: period without a unit', { last: '1h', period: '300' }, [/^error: --period "300" is not valid \(valid: a duration with a unit/]),
  reportWindowRow('report: duration without a unit', { last: '30' }, [/^error: --last "30" is not a duration \(valid: a whole number above 0 with s, m or h/]),
  reportWindowRow('report: period finer than kept', { start: '2026-10-01T10:00:00Z', end: '2026-10-01T12:00:00Z', period: '1m' }, [
    /^error: --period 1m is finer than the 5-minute points CloudWatch keeps for a window 50 days old, so it would answer with nothing \(valid: 5m or a multiple of it\)$/,
  ]),
  reportWindowRow('report: window older than retention', { start: '2024-01-01T10:00:00Z', end: '2024-01-01T12:00:00Z' }, [
    /^error: the window starts \d+ days ago; CloudWatch keeps metrics for 455 days/,
  ]),
  reportWindowRow('report: workflows not a count', { last: '1h', workflows: '4.5e4' }, [
    /^error: --workflows "4.5e4" is not valid \(valid: a whole number above 0\)$/,
  ]),
  reportWindowRow('report: run file missing', { run: join(work, 'nope.json') }, [/^error: --run ".*nope.json": cannot read it \(no such file or directory\)$/]),
  reportWindowRow('report: run file is a directory', { run: work }, [/^error: --run ".*": cannot read it \(a directory, not a file\)$/]),
  command(
    "report: a ladder record judged by rules loosened in the record, not config's",
    'report.ts',
    ['--run', file('loosened-ladder.json', JSON.stringify(loosenedLadder()))],
    [
      /^error: --run ".*loosened-ladder.json": ladder\.held\.completedShareMin 0 is not config's 0\.99 \(observability\.ladder\.held\.completedShareMin\): a record is judged by config's rules \(valid: a ladder run under this config; run it again\)$/,
    ],
  ),
  command(
    'report: a run record with a negative latency',
    'report.ts',
    ['--run', file('negative-run.json', JSON.stringify(negativeRun()))],
    [/^error: --run ".*negative-run.json": result\.results\.latency\.p50 -100 is negative \(valid: a figure of 0 or more\)$/],
  ),
  reportWindowRow('report: run file not JSON', { run: file('bad.json', '{') }, [
    /^error: --run ".*bad.json": not JSON \(.*\) \(valid: the JSON file that bench run writes\)$/,
  ]),
  reportWindowRow('report: run file without an end', { run: file('noend.json', JSON.stringify({ scenario: 'test10', start: '2026-11-20T10:00:00Z' })) }, [
    /^error: --run .*noend.json: end: missing field "end" \(valid: a string\); a run file is what bench run writes: \{scenario, start, end, workflowsCompleted\?\}$/,
  ]),
  reportWindowRow(
    'report: run of another scenario',
    { run: file('other.json', JSON.stringify({ scenario: 'test11', start: '2026-11-20T10:00:00Z', end: '2026-11-20T11:00:00Z' })) },
    [/^error: --run .*other.json records scenario "test11", not "test10"/],
  ),
  // The companion commands' arguments.
  command(
    'report: misspelled scenario',
    'report.ts',
    ['--scenario', 'tset10', '--last', '1h'],
    [/^error: unknown scenario "tset10" \(did you mean "test10"\?\); valid: baseline, test1, /],
  ),
  command(
    'engine-versions: not a region',
    'engine-versions.ts',
    ['--region', 'europe'],
    [/^error: --region "europe" is not an AWS region \(valid: a region name such as eu-west-1\)$/],
  ),
  command(
    'engine-versions: a region with no file',
    'engine-versions.ts',
    ['--region', 'ap-south-1'],
    [
      /^error: no Aurora PostgreSQL versions for region ap-south-1: config\/engine-versions\/ap-south-1.json does not exist \(valid regions: eu-west-1, us-east-1; npm run engine-versions -- --refresh --region ap-south-1 reads them from AWS\)$/,
    ],
  ),
  command(
    'engine-versions: an endpoint without --refresh',
    'engine-versions.ts',
    ['--endpoint-url', 'http://127.0.0.1:5000'],
    [/^error: --endpoint-url applies to --refresh only/],
  ),
  command('preflight: no scenario', 'preflight.ts', [], [/^error: required option '-s, --scenario <name>' not specified$/]),
  command(
    'preflight: a misspelled scenario',
    'preflight.ts',
    ['--scenario', 'temporal-25-wps'],
    [/^error: unknown scenario "temporal-25-wps"/, /did you mean "temporal-25wps"/],
  ),
  command(
    'report: an endpoint that is not a URL',
    'report.ts',
    ['--scenario', 'test10', '--last', '1h', '--endpoint-url', 'localhost:5000'],
    [
      /^error: option '--endpoint-url <url>' argument 'localhost:5000' is invalid. Not an http or https URL \(valid: the emulator's address, such as http:\/\/127.0.0.1:5000\)$/,
    ],
  ),
  command(
    'bench: an endpoint of another scheme',
    'bench.ts',
    ['status', '--scenario', 'temporal-150wps', '--endpoint-url', 'ftp://127.0.0.1'],
    [/^error: option '--endpoint-url <url>' argument 'ftp:\/\/127.0.0.1' is invalid. Not an http or https URL/],
  ),
  command(
    'cost: --scenario with --refresh-prices',
    'cost.ts',
    ['--scenario', 'test10', '--refresh-prices'],
    [/^error: --scenario does not go with --refresh-prices, which only rewrites config\/prices \(valid with it: --region, --endpoint-url/],
  ),
  command(
    'cost: --observed-acu with --report',
    'cost.ts',
    ['--scenario', 'test10', '--observed-acu', '20', '--report', 'docs/report-example/test10/report.json'],
    [/^error: --observed-acu and --report both say what the load was \(valid: one of them\)$/],
  ),
  command(
    'cost: a report of another phase',
    'cost.ts',
    ['--scenario', 'test12', '--report', 'docs/report-example/test10/report.json'],
    [
      /^error: docs\/report-example\/test10\/report.json is a report of test10, not of test12: its load is another phase's \(valid: --scenario test10, or a report of test12\)$/,
    ],
  ),
  command(
    'cost: a number written in hex',
    'cost.ts',
    ['--scenario', 'temporal-150wps', '--load-hours', '0x10'],
    [/^error: --load-hours "0x10" is not valid \(valid: a number from 0 to 24\)$/],
  ),
  command('report: a duration in words', 'report.ts', ['--scenario', 'test10', '--last', '1 hour'], [/^error: --last "1 hour" is not a duration \(valid: /]),
  command(
    'report: one file to compare',
    'report.ts',
    ['--compare', 'only-one.json'],
    [/^error: --compare takes two report files, got 1; valid: --compare <a.json> <b.json>$/],
  ),
  command(
    'move: a Temporal preset as the target',
    'move.ts',
    ['--from', 'test4', '--to', 'temporal-150wps', '--dry-run'],
    [new RegExp(`^error: --to "temporal-150wps" is a Temporal preset; move takes a FOLIO phase \\(valid: ${FOLIO_PHASE_NAMES.join(', ')}\\)$`)],
  ),
  command(
    'hibernate: an unknown scenario',
    'environment.ts',
    ['hibernate', '--scenario', 'temporal-15Owps'],
    [/^error: unknown scenario "temporal-15Owps" \(did you mean "temporal-150wps"\?\); valid: /],
  ),
  command(
    'wake: a timeout without a unit',
    'environment.ts',
    ['wake', '--scenario', 'test12', '--timeout', '30'],
    [/^error: --timeout "30" is not valid \(valid: a duration in h, m and s/],
  ),
  command('wake: --force, which only hibernate takes', 'environment.ts', ['wake', '--scenario', 'test12', '--force'], [/^error: unknown option '--force'/]),
  command(
    'bench ladder: rates that do not rise',
    'bench.ts',
    ['ladder', '--scenario', 'temporal-150wps', '--rates', '150,300,300'],
    [/^error: --rates 150,300,300: 300 does not rise above 300 \(valid: rising rates, e\.g\. 100,200,400\)$/],
  ),
  command(
    'bench ladder: a rate that is not a number',
    'bench.ts',
    ['ladder', '--scenario', 'temporal-150wps', '--rates', '150,3e2'],
    [
      /^error: --rates "3e2" is not valid \(valid: rates separated by commas \(here "150,3e2"\), each a whole number of workflows per second from 1 to 100000\)$/,
    ],
  ),
  command(
    'bench ladder: --rates with --from',
    'bench.ts',
    ['ladder', '--scenario', 'temporal-150wps', '--rates', '150,300', '--from', '100'],
    [/^error: --rates cannot be combined with --from or --up-to \(valid: --rates <list>, or --from <wps> \[--up-to <wps>\]\)$/],
  ),
  command(
    'bench ladder: a cap below the first rate',
    'bench.ts',
    ['ladder', '--scenario', 'temporal-150wps', '--up-to', '100'],
    [/^error: --up-to 100 is below --from 150 \(valid: a cap at or above the first rate\)$/],
  ),
  command(
    'bench ladder: a step too short to judge',
    'bench.ts',
    ['ladder', '--scenario', 'temporal-150wps', '--step', '5s'],
    [/^error: --step "5s" is not valid \(valid: a duration in h, m and s, in that order, such as 90s, 30m, 2h or 1h30m, at least 10 s\)$/],
  ),
  command(
    'ui: a preset that runs no UI',
    'ui.ts',
    ['--scenario', 'temporal-100wps'],
    [/^error: temporal-100wps runs no Web UI \(ui: false in config\/temporal-scenarios.ts\) \(valid: a preset with ui: true, or set it and deploy\)$/],
  ),
  command(
    'ui: a privileged local port',
    'ui.ts',
    ['--scenario', 'temporal-150wps', '--local-port', '80'],
    [/^error: --local-port "80" is not valid \(valid: a port on this machine from 1024 to 65535\)$/],
  ),
  command(
    'ui --dashboards: a preset that runs no Grafana',
    'ui.ts',
    ['--scenario', 'temporal-100wps', '--dashboards'],
    [
      /^error: temporal-100wps runs no Grafana \(dashboards: false in config\/temporal-scenarios.ts\) \(valid: a preset with dashboards: true, or set it and deploy\)$/,
    ],
  ),
  config(
    'a preset with no word on the dashboards',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => delete p.dashboards),
    [/\(dashboards\): missing field "dashboards" \(valid: true or false\)/],
  ),
  config(
    'a dashboard refresh Grafana is not given',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.environment.dashboards.refresh = '1s')),
    [/temporal\.environment\.dashboards\.refresh: valid: 5s, 10s, 30s, 1m \(got "1s"\)/],
  ),
  config(
    'a data source plugin that is not a release',
    { scenario: 'temporal-150wps' },
    editedCatalog((c) => (c.temporal.environment.dashboards.pluginVersion = 'latest')),
    [/temporal\.environment\.dashboards\.pluginVersion: valid: a plugin release, e\.g\. 3\.2\.0 \(got "latest"\)/],
  ),
  config(
    'a preset with no word on the UI',
    { scenario: 'temporal-150wps' },
    preset('temporal-150wps', (p) => delete p.ui),
    [/\(ui\): missing field "ui" \(valid: true or false\)/],
  ),
  command(
    'bench: a FOLIO phase',
    'bench.ts',
    ['status', '--scenario', 'test4'],
    [/^error: --scenario "test4" is a FOLIO phase; bench takes a Temporal preset \(valid: temporal-25wps, [a-z0-9, -]+\)$/],
  ),
  command(
    'move: --online with --replace',
    'move.ts',
    ['--from', 'test4', '--to', 'test5', '--online', '--replace', '--dry-run'],
    [/^error: --online cannot be combined with --replace \(valid: --online on its own; it copies into an empty target while the module runs\)$/],
  ),
  command(
    'move: a module to an unknown cluster',
    'move.ts',
    ['--module', 'mod-lists', '--to', 'aurora', '--dry-run'],
    [/^error: --to "aurora" is not a cluster \(valid with --module: primary, offload\)$/],
  ),
  command(
    'move: a module that cannot leave the provisioned cluster',
    'move.ts',
    ['--module', 'mod-users', '--to', 'offload', '--scenario', 'test4', '--dry-run'],
    [/^error: --module "mod-users" stays on the primary cluster \(valid: mod-source-record-manager, /],
  ),
  command(
    'move: a module whose views would read across the split',
    'move.ts',
    ['--module', 'mod-data-export', '--to', 'offload', '--scenario', 'test4', '--dry-run'],
    [
      /^error: moving mod-data-export to offload is refused: mod-data-export \(on offload\) reads schemas that are on the other cluster: mod-inventory-storage, mod-users; route them together or add/,
    ],
  ),
  command(
    'move: --replace with --drop-source',
    'move.ts',
    ['--from', 'test4', '--to', 'test5', '--replace', '--drop-source'],
    [/^error: --replace and --drop-source cannot be combined/],
  ),
  command(
    'move: a timeout without a unit',
    'move.ts',
    ['--from', 'test4', '--to', 'test5', '--timeout', '90'],
    [/^error: --timeout "90" is not valid \(valid: a duration in h, m and s, in that order, such as 90s, 30m, 2h or 1h30m, at least 1 s\)$/],
  ),
  command('move: no source phase', 'move.ts', ['--to', 'test5'], [/^error: --from is required with --to <phase>/]),
  command(
    'report: workflows on a FOLIO phase',
    'report.ts',
    ['--scenario', 'test10', '--last', '1h', '--workflows', '41052'],
    [/^error: --workflows does not apply to test10 \(a FOLIO phase: --workflows is a Temporal preset's option\)$/],
  ),
  command(
    'report: a Prometheus URL that is not one',
    'report.ts',
    ['--scenario', 'temporal-150wps', '--last', '1h', '--prometheus-url', 'localhost:9090'],
    [/^error: --prometheus-url "localhost:9090" is not http or https \(valid: http\(s\):\/\/host/],
  ),
  command(
    'report: a Prometheus URL on a FOLIO phase',
    'report.ts',
    ['--scenario', 'test10', '--last', '1h', '--prometheus-url', 'http://127.0.0.1:9090'],
    [/^error: --prometheus-url does not apply to test10/],
  ),
  command(
    'report: a DSQL cluster id on a FOLIO phase',
    'report.ts',
    ['--scenario', 'test10', '--last', '1h', '--dsql-cluster-id', 'abc'],
    [/^error: --dsql-cluster-id does not apply to test10/],
  ),
  command(
    'report: an output directory under a file',
    'report.ts',
    ['--scenario', 'test10', '--last', '1h', '--out', join(file('plain.txt', 'x'), 'report')],
    [/^error: --out ".*plain.txt\/report": cannot write there \(a part of the path is a file\)$/],
  ),
  command(
    'report: a report to compare that is missing',
    'report.ts',
    ['--compare', join(work, 'a.json'), join(work, 'b.json')],
    [/^error: --compare ".*a.json": cannot read it \(no such file or directory\)$/],
  ),
  command(
    'cost: an observed ACU for a provisioned offload cluster',
    'cost.ts',
    ['--scenario', 'part3', '--observed-acu', '12'],
    [
      /^error: --observed-acu applies to a Serverless v2 offload cluster; part3's is provisioned db.r8g.2xlarge \(valid: a phase whose offload is serverless\)$/,
    ],
  ),
  command(
    "cost: an observed ACU outside the phase's range",
    'cost.ts',
    ['--scenario', 'test10', '--observed-acu', '40'],
    [/^error: --observed-acu 40 is outside test10's range \(valid: 0.5-32 ACU, the phase's Serverless v2 range\)$/],
  ),
  command(
    'bench: a timeout without a unit',
    'bench.ts',
    ['down', '--scenario', 'temporal-150wps', '--timeout', '90'],
    [/^error: --timeout "90" is not valid \(valid: a duration in h, m and s, in that order, such as 90s, 30m, 2h or 1h30m, at least 1 s\)$/],
  ),
  command(
    'bench: a run record under a file',
    'bench.ts',
    ['run', '--scenario', 'temporal-150wps', '--out', join(file('plain2.txt', 'x'), 'run.json')],
    [/^error: --out ".*plain2.txt": cannot write there \(a part of the path is a file\)$/],
  ),
  spawned(
    'scenarios: a file to check that is missing',
    'scenarios.ts',
    ['--check', join(work, 'NO-README.md')],
    [/^error: --check ".*NO-README.md": cannot read it \(no such file or directory\)$/],
  ),
  command(
    'plan: no target scenario',
    'plan.ts',
    ['--from', 'test11'],
    [/^error: no target: pass --to <scenario>, or --proposal <report.json> for the phase a report proposed$/],
  ),
  command(
    'plan: a proposal that is not a report',
    'plan.ts',
    ['--from', 'test10', '--proposal', 'package.json'],
    [/^error: --proposal "package.json" is not a report \(valid: a report.json written by the report command, schemaVersion 1\)$/],
  ),
  command(
    'plan: misspelled scenario',
    'plan.ts',
    ['--from', 'test11', '--to', 'tset12'],
    [/^error: unknown scenario "tset12" \(did you mean "test12"\?\); valid: baseline, /],
  ),
  command(
    'plan: two families',
    'plan.ts',
    ['--from', 'test11', '--to', 'temporal-150wps'],
    [
      /^error: "test11" is a FOLIO phase and "temporal-150wps" a Temporal preset: a plan compares two scenarios of one family \(valid: two FOLIO phases, or two Temporal presets\)$/,
    ],
  ),
  command(
    'plan: a switch of the history store (an existing environment keeps its store)',
    'plan.ts',
    ['--from', 'temporal-150wps', '--to', 'temporal-aurora-150wps'],
    [
      /^error: "temporal-150wps" keeps Temporal's history in dsql and "temporal-aurora-150wps" in aurora-postgresql: an environment keeps its store for life \(the switch would orphan the history, and its deploy is refused\); deploy "temporal-aurora-150wps" as a second environment: -c envName=<name>$/,
    ],
  ),
  command('cost: no scenario', 'cost.ts', [], [/^error: no scenario given: pass --scenario <name> \(or --refresh-prices\)$/]),
  command(
    'cost: a rate that is not a number',
    'cost.ts',
    ['--scenario', 'temporal-150wps', '--tx-rate', 'fast'],
    [/^error: --tx-rate "fast" is not valid \(valid: a number from 0 to 1000000\)$/],
  ),
  command(
    'cost: more than 24 hours a day',
    'cost.ts',
    ['--scenario', 'temporal-150wps', '--load-hours', '25'],
    [/^error: --load-hours "25" is not valid \(valid: a number from 0 to 24\)$/],
  ),
  command(
    'cost: a Temporal option for a FOLIO phase',
    'cost.ts',
    ['--scenario', 'test10', '--tx-rate', '5'],
    [/^error: --tx-rate does not apply to test10 \(a FOLIO phase; valid here: --observed-acu\)$/],
  ),
  command(
    'cost: a report that does not exist',
    'cost.ts',
    ['--scenario', 'test10', '--report', 'no-such.json'],
    [/^error: --report "no-such.json": cannot read it \(no such file or directory\)$/],
  ),
  command(
    'capacity: a FOLIO phase',
    'capacity.ts',
    ['--scenario', 'test3'],
    [/^error: --scenario "test3" is a FOLIO phase; capacity takes a Temporal preset \(valid: temporal-25wps, [a-z0-9, -]+\)$/],
  ),
  command(
    'bench: an empty scenario lists the Temporal presets only',
    'bench.ts',
    ['status', '--scenario', ''],
    [/^error: --scenario is empty; valid: (temporal-[a-z0-9-]+, )*temporal-[a-z0-9-]+$/],
  ),
  command(
    'bench: zero workers',
    'bench.ts',
    ['up', '--scenario', 'temporal-150wps', '--workers', '0'],
    [/^error: --workers "0" is not valid \(valid: a whole number of workers, .* from 1 to 11\)$/],
  ),
  command(
    'bench: more workers than the pool holds',
    'bench.ts',
    ['up', '--scenario', 'temporal-150wps', '--workers', '100'],
    [
      /^error: --workers "100" is not valid \(valid: a whole number of workers, as many as the benchmark pool \(4 × m7g.2xlarge at most\) holds beside the load generator, from 1 to 11\)$/,
    ],
  ),
  command(
    'bench: a wait shorter than the run',
    'bench.ts',
    ['run', '--scenario', 'temporal-150wps', '--duration', '10m', '--timeout', '5m'],
    [
      /^error: --timeout 5m is not longer than the run \(--duration 10m\); the wait would give up while the load still runs \(valid: more than 10m, or leave it out: the run plus 20m\)$/,
    ],
  ),
  command(
    'capacity: an endpoint without --quota-from-aws',
    'capacity.ts',
    ['--scenario', 'temporal-150wps', '--endpoint-url', 'http://127.0.0.1:5000'],
    [/^error: --endpoint-url applies to --quota-from-aws only: without it, capacity calls no AWS API/],
  ),
  command(
    'capacity: a rate that is not a number',
    'capacity.ts',
    ['--rate', 'fast'],
    [/^error: --rate "fast" is not valid \(valid: a whole number from 1 to 100000\)$/],
  ),
  command(
    'capacity: a store no preset can have',
    'capacity.ts',
    ['--rate', '500', '--store', 'mysql'],
    [/^error: --store mysql is not a history store a preset can have \(valid: dsql, aurora\)$/],
  ),
  command('capacity: --write without --rate', 'capacity.ts', ['--scenario', 'temporal-150wps', '--write', 'x'], [/^error: --write applies to --rate only/]),
  command(
    'capacity: --rate with --scenario',
    'capacity.ts',
    ['--rate', '500', '--scenario', 'temporal-150wps'],
    [/^error: --scenario does not go with --rate/],
  ),
  command(
    'capacity: --write over a shipped preset',
    'capacity.ts',
    ['--rate', '150', '--write', 'temporal-150wps'],
    [/^error: --write temporal-150wps: config already has a preset of that name \(valid: a name no preset has/],
  ),
  command(
    'capacity: a rate past every limit',
    'capacity.ts',
    ['--rate', '5000', '--store', 'aurora'],
    [/^error: no preset the sizing rule gives for 5000\/s on aurora passes config's limits: .*; the highest rate it gives one for is \d+\/s$/],
  ),
  command(
    'report: --compare with a scenario',
    'report.ts',
    ['--compare', 'a.json', 'b.json', '--scenario', 'test10'],
    [/^error: --compare cannot be combined with --scenario: it reads two finished reports \(valid: --compare <a.json> <b.json>, alone or with --json\)$/],
  ),
  command(
    'report: a scenario given twice',
    'report.ts',
    ['--scenario', 'test10', '--scenario', 'test11', '--last', '1h'],
    [/^error: option '-s, --scenario <name>' argument 'test11' is invalid\. --scenario is given twice \("test10", then "test11"\); valid: one --scenario$/],
  ),
  command(
    'move: an option with a default given twice',
    'move.ts',
    ['--from', 'test4', '--to', 'test5', '--dry-run', '--timeout', '1h', '--timeout', '3h'],
    [/^error: option '--timeout <duration>' argument '3h' is invalid\. --timeout is given twice \("1h", then "3h"\); valid: one --timeout$/],
  ),
  command(
    'operator-policy: a command that is not one',
    'operator-policy.ts',
    ['--command', 'hibernate'],
    [/^error: --command "hibernate" is not a command \(valid: bench, campaign, .*environment, .*, cdk-deploy\)$/],
  ),
  command(
    'operator-policy: --command and --json together',
    'operator-policy.ts',
    ['--command', 'bench', '--json'],
    [/^error: --command and --json cannot be combined \(valid: one of them, or none to print the page\)$/],
  ),
  command(
    'scenarios: --update and --check together',
    'scenarios.ts',
    ['--update', 'docs/folio.md', '--check', 'docs/folio.md'],
    [/^error: --update and --check cannot be combined \(valid: one of them, or neither to print the tables\)$/],
  ),
  command(
    'scenarios: a file with no generated section',
    'scenarios.ts',
    ['--check', file('plain.md', '# no markers\n')],
    [
      /^error: --check ".*plain.md" has no generated scenario section \(valid: a markdown file with one of the markers ".*", ".*", ".*" and its end, such as docs\/folio.md\)$/,
    ],
  ),
  command(
    'campaign: an unknown campaign',
    'campaign.ts',
    ['plan', CAMPAIGN_TYPO],
    [
      new RegExp(
        `^error: unknown campaign "${CAMPAIGN_TYPO}" \\(did you mean "${CAMPAIGNS[0].name}"\\?\\); valid: ${CAMPAIGNS.map((c) => c.name).join(', ')}$`,
      ),
    ],
  ),
  command('campaign: no subcommand', 'campaign.ts', ['ptf-hybrid'], [/^error: unknown command 'ptf-hybrid'/]),
  command(
    'campaign: an interval of nothing',
    'campaign.ts',
    ['run', 'ptf-hybrid', '--interval', '0s', '--out', join(work, 'c0')],
    [/^error: --interval "0s" /],
  ),
  command(
    'campaign: a Prometheus URL that is not one',
    'campaign.ts',
    ['run', 'temporal-scaling', '--prometheus-url', 'localhost:9090', '--out', join(work, 'c1')],
    [/^error: --prometheus-url "localhost:9090" is not http or https \(valid: http\(s\):\/\/host\[:port\]\[\/path\]\)$/],
  ),
  command(
    'campaign: a Prometheus URL for a campaign whose reports read none',
    'campaign.ts',
    ['run', 'ptf-hybrid', '--prometheus-url', 'http://127.0.0.1:9090', '--out', join(work, 'c2')],
    [/^error: --prometheus-url does not apply to campaign ptf-hybrid: its steps are folio scenarios, whose reports read CloudWatch only$/],
  ),
  command(
    'campaign: a report with no record',
    'campaign.ts',
    ['report', 'ptf-hybrid', '--out', join(work, 'no-campaign')],
    [/^error: no record at .*campaign\.json: campaign ptf-hybrid has not run there \(valid: npm run campaign -- run ptf-hybrid, or the --out it ran with\)$/],
  ),
  command(
    "campaign: another campaign's record",
    'campaign.ts',
    [
      'run',
      'ptf-hybrid',
      '--out',
      dirWith(
        'other-campaign',
        'campaign.json',
        JSON.stringify({ campaign: 'temporal-scaling', definition: 'x', started: '2026-11-27T00:00:00Z', status: 'running', steps: [] }),
      ),
    ],
    [/^error: .*campaign\.json: campaign temporal-scaling's record, not ptf-hybrid's \(valid: another --out for ptf-hybrid\)$/],
  ),
  command(
    'campaign: a record that is not one',
    'campaign.ts',
    ['plan', 'ptf-hybrid', '--out', dirWith('not-a-record', 'campaign.json', '{"hello": 1}')],
    [/^error: .*campaign\.json is not a campaign record \(valid: the campaign\.json a campaign run wrote, or another --out\)$/],
  ),
  command('plan: an empty scenario', 'plan.ts', ['--from', '', '--to', 'test12'], [/^error: --from is empty; valid: baseline, test1, /]),
  command(
    'plan: escape bytes and a huge value are shown escaped and shortened',
    'plan.ts',
    ['--from', `te\x1b[31mst\n${'x'.repeat(100_000)}`, '--to', 'test12'],
    [/^error: unknown scenario "te\\x1b\[31mst\\nx{90}\.\.\." \(100010 characters\); valid: baseline, /],
  ),
  reportWindowRow('report: a period longer than the window', { last: '30m', period: '2h' }, [
    /^error: --period 2h is longer than the window \(30m\); valid: a period the window holds a whole number of, e.g. 1m$/,
  ]),
  reportWindowRow('report: a window that is not a whole number of periods', { last: '90m', period: '1h' }, [
    /^error: the window \(1h30m\) is not a whole number of --period 1h: its last point would be part empty/,
  ]),
  reportWindowRow(
    "report: a workflow count that replaces the run's own",
    {
      run: file('counted.json', JSON.stringify({ scenario: 'test10', start: '2026-11-20T10:00:00Z', end: '2026-11-20T11:00:00Z', workflowsCompleted: 41052 })),
      workflows: '5',
    },
    [
      /^error: --workflows 5 cannot replace the 41052 workflows --run .*counted.json records \(valid: --run alone, or --workflows with --start\/--end or --last\)$/,
    ],
  ),
  reportWindowRow('report: a --start inside a minute', { start: '2026-11-20T10:00:30Z', end: '2026-11-20T10:30:00Z' }, [
    /^error: --start 2026-11-20T10:00:30Z does not start on a whole 1-minute point, where CloudWatch starts them: the first point would take in time before the window \(valid: a start of 2026-11-20T10:00:00Z or 2026-11-20T10:01:00Z\)$/,
  ]),
  reportWindowRow('report: an --end inside a minute', { start: '2026-11-20T10:00:00Z', end: '2026-11-20T10:00:30Z' }, [
    /^error: the window \(30s\) is not a whole number of 1-minute points: its last point would reach past --end \(valid: an --end of 2026-11-20T10:01:00Z\)$/,
  ]),
  reportWindowRow('report: --last that is not whole minutes', { last: '90s' }, [
    /^error: --last 90s is not a whole number of 1-minute points \(valid: a multiple of 1m, e\.g\. 1m or 2m\)$/,
  ]),
  reportWindowRow(
    'report: --period that leaves no whole point inside the run',
    { run: file('short-run.json', JSON.stringify({ scenario: 'test10', start: '2026-11-20T10:00:03Z', end: '2026-11-20T10:05:11Z' })), period: '5m' },
    [
      /^error: --run .*short-run.json: the run \(5m8s\) holds no whole one of its 5-minute points, so no average could be taken \(valid: a shorter --period, e.g. 1m, or a longer run\)$/,
    ],
  ),
  reportWindowRow(
    'report: --period CloudWatch cannot answer for an older window',
    { start: '2026-10-01T10:00:00Z', end: '2026-10-01T12:00:00Z', period: '7m' },
    [
      /^error: --period 7m is not a multiple of the 5-minute points CloudWatch keeps for a window 50 days old, so it would answer with nothing \(valid: 5m or a multiple of it\)$/,
    ],
  ),
  reportWindowRow('report: --last beyond what CloudWatch keeps', { last: '20000h' }, [
    /^error: --last "20000h" reaches back further than CloudWatch keeps metrics, 455 days \(valid: a --last of at most 455 days \(10920h\)\)$/,
  ]),
  command(
    'bench: a timeout in words',
    'bench.ts',
    ['down', '--scenario', 'temporal-150wps', '--timeout', 'soon'],
    [/^error: --timeout "soon" is not valid \(valid: a duration in h, m and s, in that order, such as 90s, 30m, 2h or 1h30m, at least 1 s\)$/],
  ),
  command(
    'bench: a rate of zero',
    'bench.ts',
    ['run', '--scenario', 'temporal-150wps', '--rate', '0'],
    [/^error: --rate "0" is not valid \(valid: a whole number of workflows per second from 1 to 100000\)$/],
  ),
  command(
    'bench: ramp-up longer than the run',
    'bench.ts',
    ['run', '--scenario', 'temporal-150wps', '--ramp-up', '10m'],
    [/^error: --ramp-up 10m is not shorter than the preset's benchmark.duration 5m \(valid: a ramp-up shorter than the run\)$/],
  ),
  command(
    'report: a run record nested absurdly deep',
    'report.ts',
    ['--run', file('deep.json', `${'['.repeat(10_000)}${']'.repeat(10_000)}`)],
    [/^error: --run ".*deep.json": nested more than 64 levels deep \(valid: the JSON file that bench run writes\)$/],
  ),
  command(
    'cost: a device given as a file (it would never end)',
    'cost.ts',
    ['--scenario', 'test10', '--report', '/dev/zero'],
    [/^error: --report "\/dev\/zero": cannot read it \(not a regular file \(a FIFO, socket or device\)\)$/],
  ),
  command(
    'cost: an empty report path (it would read as no report)',
    'cost.ts',
    ['--scenario', 'test10', '--report', ''],
    [/^error: --report is empty \(valid: <report.json>\)$/],
  ),
  command('report: an empty run path', 'report.ts', ['--run', ''], [/^error: --run is empty \(valid: <file>\)$/]),
  command(
    'cost: --endpoint-url without --refresh-prices (an estimate calls no API: it would be ignored)',
    'cost.ts',
    ['--scenario', 'test10', '--endpoint-url', 'http://127.0.0.1:5000'],
    [/^error: --endpoint-url applies to --refresh-prices only: an estimate reads config\/prices and calls no AWS API/],
  ),
  command(
    'hibernate --force on a FOLIO phase (it has no load generator to stop: it would be ignored)',
    'environment.ts',
    ['hibernate', '--scenario', 'test12', '--force', '--endpoint-url', 'http://127.0.0.1:9'],
    [/^error: --force does not apply to test12 \(a FOLIO phase: it has no load generator for --force to stop; valid: without --force\)$/],
  ),
  ...['--interval 1m', '--endpoint-url http://127.0.0.1:5000', '--prometheus-url http://127.0.0.1:9090'].map((given) =>
    command(
      `campaign plan: ${given.split(' ')[0]}, which only run reads`,
      'campaign.ts',
      ['plan', 'temporal-scaling', ...given.split(' ')],
      [new RegExp(`^error: ${given.split(' ')[0]} applies to campaign run only; plan calls no AWS API \\(valid: plan without it\\)$`)],
    ),
  ),
  command(
    'cost: a misspelled option, the suggestion on the same line',
    'cost.ts',
    ['--senario', 'test12'],
    [/^error: unknown option '--senario' \(did you mean --scenario\?\)$/],
  ),
  command(
    'report: --last beyond any date',
    'report.ts',
    ['--scenario', 'test10', '--last', '99999999999h'],
    [/^error: --last "99999999999h" reaches back further than CloudWatch keeps metrics, 455 days \(valid: a --last of at most 455 days \(10920h\)\)$/],
  ),
  command(
    'cost: a DSQL transaction rate for a preset whose history is in Aurora',
    'cost.ts',
    ['--scenario', 'temporal-aurora-150wps', '--tx-rate', '100'],
    [
      /^error: --tx-rate does not apply to temporal-aurora-150wps \(its history is in aurora-postgresql, whose writer bills by the hour whatever the load; valid: a DSQL preset\)$/,
    ],
  ),
  command(
    'cost: a report for a preset whose history is in Aurora (its transaction rate changes nothing)',
    'cost.ts',
    [
      '--scenario',
      'temporal-aurora-150wps',
      '--report',
      file('aurora-report.json', JSON.stringify({ schemaVersion: 1, family: 'temporal', scenario: 'temporal-aurora-150wps', metrics: {} })),
    ],
    [/^error: --report .*aurora-report.json: temporal-aurora-150wps's history is in aurora-postgresql, .* \(valid: a DSQL preset's report\)$/],
  ),
  command(
    'plan: a proposal whose status says it proposes nothing',
    'plan.ts',
    [
      '--from',
      'test10',
      '--proposal',
      file(
        'unchanged.json',
        proposalWith((p) => (p.status = 'unchanged')),
      ),
    ],
    [
      /^error: --proposal ".*unchanged.json" proposes no phase \(its proposal: unchanged\) \(valid: a report.json whose "What to try next" proposes a change\)$/,
    ],
  ),
  command(
    "plan: a proposed phase config refuses, named as the file's",
    'plan.ts',
    [
      '--from',
      'test10',
      '--proposal',
      file(
        'bad-name.json',
        proposalWith((p) => (p.next.phase.name = 'Bad Name!')),
      ),
    ],
    [/^error: --proposal ".*bad-name.json": the phase it proposes does not fit config: in scenario "Bad Name!" \(name\): /],
  ),
  command(
    'move: a phase to itself',
    'move.ts',
    ['--from', 'test5', '--to', 'test5', '--dry-run'],
    [/^error: --from and --to are both test5: a phase moves nothing to itself \(valid: two different phases\)$/],
  ),
  command(
    'bench: a paid generator run of 100,000 hours',
    'bench.ts',
    ['run', '--scenario', 'temporal-150wps', '--duration', '100000h'],
    [
      /^error: --duration "100000h" is longer than 24h \(valid: at most 24h: the generator and the fleet bill by the hour while it runs; run again for longer\)$/,
    ],
  ),
  command(
    "bench: a poll interval past Node's timers",
    'bench.ts',
    ['up', '--scenario', 'temporal-150wps', '--interval', '600h'],
    [/^error: --interval "600h" is longer than 1h \(valid: at most 1h: a poll at least hourly, so an outcome is seen within the hour\)$/],
  ),
  command(
    "bench: a run shorter than the preset's ramp-up, named as the preset's",
    'bench.ts',
    ['run', '--scenario', 'temporal-150wps', '--duration', '20s'],
    [/^error: the preset's benchmark.rampUp 30s is not shorter than --duration 20s \(valid: a ramp-up shorter than the run, e.g. --ramp-up 0s\)$/],
  ),
  reportWindowRow(
    'report: a run record that ends in the future, named as the run',
    { run: file('future.json', JSON.stringify({ scenario: 'test10', start: '2026-11-20T11:00:00Z', end: '2026-11-20T13:00:00Z' })) },
    [/^error: --run .*future.json: the run ends in the future \(2026-11-20T13:00:00Z\); valid: a record of a run that has ended$/],
  ),
];

/** What every row must end with: status 1 and one line, naming what it should, said as a person says it. */
async function refusedInOneLine(row: BadInput): Promise<void> {
  const { status, stderr } = await row.run();
  expect({ status, stderr }).toEqual({ status: 1, stderr: expect.stringMatching(/^error: [^\n]+\n$/) });
  expect(stderr).not.toMatch(/^\s+at /m);
  const line = stderr.slice(0, -1);
  for (const part of row.expected) expect(line).toMatch(part);
  // Said as a person says it: no zod wording, no NaN or undefined standing for a value, no escaped newline.
  // (A value the user gave is shown escaped, in quotes: only what stands outside them counts.)
  expect(line.replace(/"(?:[^"\\]|\\.)*"/g, '""')).not.toMatch(UNSAID);
}

describe('bad input: non-zero exit, one line naming the value and what is valid, no stack trace', () => {
  const rows = (separate: boolean) => BAD_INPUTS.filter((r) => Boolean(r.separate) === separate).map((row) => [row.name, row] as const);
  // Rows in this process load the command's modules as they run. Jest counts a concurrent test's
  // code that runs after another test ends as running between tests, and refuses its require():
  // these run one at a time (runCliInProcess serializes them anyway).
  test.each(rows(false))('%s', (_, row) => refusedInOneLine(row), 120_000);
  // Processes of their own, beside them. A hang's limit, not a speed test: five rows passed 30 s at a load of about 19.
  test.concurrent.each(rows(true))('%s', (_, row) => refusedInOneLine(row), 120_000);

  test('covers at least 20 distinct cases', () => {
    expect(new Set(BAD_INPUTS.map((r) => r.name)).size).toBe(BAD_INPUTS.length);
    expect(BAD_INPUTS.length).toBeGreaterThanOrEqual(20);
  });
});
