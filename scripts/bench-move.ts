/*
 * How fast the schema mover copies, against FOLIO's own schema-migration runbook, on this
 * machine: FOLIO-shaped data (harness/folio-data.ts, SRS with its list-partitioned
 * marc_indexers) in a source PostgreSQL, then
 *   - the mover's own script moving mod-inventory-storage and mod-source-record-storage the
 *     way `npm run move` does (one run per module, MOVE_JOBS schemas at once, fenced, verified by
 *     content, analysed) into a second server, and
 *   - the runbook, `pg_dump --format=directory --jobs=N --no-owner --no-tablespaces` of the same
 *     schemas and `pg_restore --jobs=N` into a third (its roles and extensions made beforehand,
 *     as the runbook does), nothing verified,
 * with N the mover task's vCPUs from config, each --runs times, alternating, into emptied targets;
 * medians reported. Sizes are pg_total_relation_size of every table, materialized view and
 * sequence (indexes and TOAST with their table, each counted once). A measurement, not a test:
 * nothing here asserts.
 *
 *   npm run bench:move -- --tenants 3 --rows 50000 --partitions 1000 --runs 3
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { ConfigError, type FolioScenario, resolveScenario } from '../config';
import { runCommand } from '../lib/commands/shared/cli';
import { numberOption } from '../lib/commands/shared/option-values';
import { markdownTable } from '../lib/commands/shared/markdown-table';
import { moverEnvironment, planPhaseSwitch, waves } from '../lib/folio/commands/move/move-plan';
import { parseMoverLine } from '../lib/folio/contract/mover';
import { moverJobs } from '../lib/folio/constructs/schema-mover';
import { editedCatalog } from '../harness/catalog';
import { folioSeedSql } from '../harness/folio-data';
import { moverEnv, runMover } from '../harness/mover-script';
import { type Postgres, startPostgres } from '../harness/postgres';

const run = promisify(execFile);
const DB = 'folio';

const program = new Command('bench:move')
  .description("The schema mover's speed on this machine against FOLIO's pg_dump/pg_restore runbook, and what a GB would take and cost on its Fargate task")
  .option('--tenants <n>', 'tenants to seed', '3')
  .option('--rows <n>', 'instances (and SRS records) per tenant; items are twice that, marc_indexers rows five times', '50000')
  .option('--partitions <n>', 'marc_indexers partitions per tenant (FOLIO has about 1,000)', '1000')
  .option('--major <n>', 'PostgreSQL major of the servers: 15 (the distribution) or 16 (Aurora)', '16')
  .option('--jobs <n>', "schemas at once, and the runbook's -j (default: the mover task's vCPUs from config)")
  .option('--runs <n>', 'runs of each, alternating; the medians are reported', '3');

const whole = (flag: string, raw: string, max: number): number => numberOption(flag, raw, { min: 1, max, integer: true })!;

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = async (work: () => Promise<unknown>): Promise<number> => {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e9;
};

/** The data moving, as the report states it: bytes and tables of the schemas, in the source. */
async function measure(source: Postgres, schemas: readonly string[]): Promise<{ bytes: number; tables: number }> {
  const list = schemas.map((s) => `'${s}'`).join(',');
  const bytes = Number(
    await source.psql(
      `SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN (${list}) AND c.relkind IN ('r', 'm', 'S')`,
      DB,
    ),
  );
  const tables = Number(
    await source.psql(`SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN (${list}) AND c.relkind = 'r'`, DB),
  );
  return { bytes, tables };
}

const clientEnv = (pg: Postgres) => ({
  ...process.env,
  PATH: `${pg.bin}:${process.env.PATH}`,
  PGHOST: '127.0.0.1',
  PGUSER: pg.user,
  PGPASSWORD: pg.password,
  PGDATABASE: DB,
});

/** What one copy needs: the three servers, the moves, the schemas, the parallelism and the mover's settings. */
interface Bench {
  readonly source: Postgres;
  readonly moved: Postgres;
  readonly runbook: Postgres;
  readonly plan: { title: string; moves: ReturnType<typeof planPhaseSwitch>['moves']; restart: [] };
  readonly schemas: readonly string[];
  readonly jobs: number;
  readonly lockTimeout: string;
  readonly dir: string;
}

/** The mover's script, one run per wave as the task runs it (under its posture), into an emptied target; the rows it verified. */
async function moverRun(b: Bench): Promise<{ seconds: number; verifiedRows: number }> {
  await b.moved.psql(`DROP SCHEMA IF EXISTS folio_mover, ${b.schemas.join(', ')} CASCADE`, DB);
  let verifiedRows = 0;
  const took = await seconds(async () => {
    for (const wave of waves(b.plan)) {
      const r = await runMover({
        ...clientEnv(b.source),
        ...moverEnv(b.source, b.moved, DB),
        MOVE_JOBS: String(b.jobs),
        MOVE_LOCK_TIMEOUT: b.lockTimeout,
        ...moverEnvironment(wave),
      } as Record<string, string>);
      if (r.status !== 0) throw new Error(`the mover failed: ${r.out.trim().split('\n').at(-1)}`);
      for (const line of r.out.split('\n').map(parseMoverLine)) if (line?.kind === 'copied') verifiedRows += Number(line.slots.rows);
    }
  });
  return { seconds: took, verifiedRows };
}

/** The runbook: pg_dump -Fd of the schemas, pg_restore into a fresh database with its extensions made beforehand. */
async function runbookRun(b: Bench): Promise<{ dump: number; restore: number }> {
  await b.runbook.psql(`DROP DATABASE IF EXISTS ${DB}`);
  await b.runbook.psql(`CREATE DATABASE ${DB}`);
  await b.runbook.psql('CREATE EXTENSION pg_trgm; CREATE EXTENSION unaccent', DB);
  const out = join(b.dir, 'dump');
  rmSync(out, { recursive: true, force: true });
  const dumpArgs = [
    '-p',
    String(b.source.port),
    '--format=directory',
    `--jobs=${b.jobs}`,
    '--no-owner',
    '--no-tablespaces',
    ...b.schemas.flatMap((s) => ['-n', s]),
    '-f',
    out,
  ];
  const dump = await seconds(() => run(join(b.source.bin, 'pg_dump'), dumpArgs, { env: clientEnv(b.source) }));
  const restore = await seconds(() =>
    run(join(b.runbook.bin, 'pg_restore'), ['-p', String(b.runbook.port), `--jobs=${b.jobs}`, '--no-owner', '--exit-on-error', '-d', DB, out], {
      env: clientEnv(b.runbook),
    }),
  );
  return { dump, restore };
}

/** Made beforehand, as the runbook says: the tenants' roles (the database's extensions come with each run). */
async function copyRoles(source: Postgres, runbook: Postgres): Promise<void> {
  const roles = await run(join(source.bin, 'pg_dumpall'), ['-p', String(source.port), '--roles-only'], { env: clientEnv(source), maxBuffer: 64 * 1024 * 1024 });
  await runbook.psql(
    roles.stdout
      .split('\n')
      .filter((l) => !/^(CREATE|ALTER) ROLE postgres\b/.test(l) && !l.startsWith('\\'))
      .join('\n'),
  );
}

interface Outcome {
  readonly moverTimes: readonly number[];
  readonly runbookTimes: readonly { dump: number; restore: number }[];
  readonly verifiedRows: number;
}

/** The report: both copies' medians and rates, and what a GB takes and costs on the stack's mover task. */
function render(
  b: Bench,
  o: Outcome,
  data: { bytes: number; tables: number; tenants: number; partitions: number; fromConfig: boolean },
  mover: { vcpu: number; memoryGiB: number },
): string {
  const moverSeconds = median(o.moverTimes);
  const runbookSeconds = median(o.runbookTimes.map((r) => r.dump + r.restore));
  const { dump: dumpSeconds, restore: restoreSeconds } = o.runbookTimes.find((r) => r.dump + r.restore === runbookSeconds)!;
  const mib = data.bytes / 1024 ** 2;
  const fmt = (n: number, d = 1) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const prices = JSON.parse(readFileSync(join(__dirname, '../config/prices/us-east-1.json'), 'utf8')).prices;
  const perHour = mover.vcpu * prices['fargate:arm-vcpu'].usd + mover.memoryGiB * prices['fargate:arm-gb'].usd;
  const table = markdownTable(
    ['Copy', 'Seconds (median)', 'MiB/s', 'Runs (s)', 'Verified'],
    [
      [
        `the mover (${b.jobs} schemas at once, no compression)`,
        fmt(moverSeconds, 2),
        fmt(mib / moverSeconds, 1),
        o.moverTimes.map((t) => fmt(t, 2)).join(', '),
        `every table by content, sequences, catalog; ${o.verifiedRows.toLocaleString('en-US')} rows`,
      ],
      [
        `pg_dump -Fd -j ${b.jobs} (${fmt(dumpSeconds, 2)} s) + pg_restore -j ${b.jobs} (${fmt(restoreSeconds, 2)} s)`,
        fmt(runbookSeconds, 2),
        fmt(mib / runbookSeconds, 1),
        o.runbookTimes.map((r) => fmt(r.dump + r.restore, 2)).join(', '),
        'nothing',
      ],
    ],
  );
  return (
    `# Schema mover on this machine\n\n` +
    `${b.plan.moves.map((m) => m.module).join(' and ')} in ${data.tenants} tenant(s): ${b.schemas.length} schemas, ${data.tables.toLocaleString('en-US')} tables ` +
    `(${data.partitions} marc_indexers partitions per tenant), ${fmt(mib, 1)} MiB (pg_total_relation_size, each relation once); ` +
    `PostgreSQL ${b.source.major} servers on loopback, ${b.jobs} ${data.fromConfig ? "= the mover task's vCPUs (config)" : 'from --jobs'}.\n\n${table}\n\n` +
    `The mover ran at ${fmt(moverSeconds > 0 ? runbookSeconds / moverSeconds : 0, 2)}× the runbook's rate. ` +
    `$ per GB on the stack's mover task (${mover.vcpu} vCPU, ${mover.memoryGiB} GiB, Arm, $${perHour.toFixed(4)}/hour) at the mover's rate here: ` +
    `$${(perHour * (1024 / (mib / moverSeconds) / 3600)).toFixed(4)}; between two Aurora clusters the network and the clusters' I/O set the pace instead.\n`
  );
}

runCommand(async () => {
  const o = program.parse().opts();
  const tenants = Array.from({ length: whole('--tenants', o.tenants, 240) }, (_, i) => `fs${String(9000000 + i).padStart(8, '0')}`);
  const rows = whole('--rows', o.rows, 5_000_000);
  const partitions = whole('--partitions', o.partitions, 1000);
  if (!['15', '16'].includes(o.major)) throw new ConfigError(`--major "${o.major}" is not valid (valid: 15, 16)`);
  const major = Number(o.major) as 15 | 16;
  const catalog = editedCatalog((c) => (c.folio.environment.tenants = tenants));
  const phase = (name: string) => resolveScenario({ scenario: name }, catalog) as FolioScenario;
  const moves = planPhaseSwitch(phase('baseline'), phase('test5')).moves.filter((m) =>
    ['mod-source-record-storage', 'mod-inventory-storage'].includes(m.module),
  );
  const mover = phase('baseline').environment.mover;
  const jobs = o.jobs === undefined ? moverJobs(mover.vcpu) : whole('--jobs', o.jobs, 32);
  const runs = whole('--runs', o.runs, 9);

  // The fence and pg_dump each lock every partition of the schemas moving at once.
  const settings = ['max_locks_per_transaction = 512'];
  const [source, moved, runbook] = await Promise.all([0, 1, 2].map(() => startPostgres({ major, settings })));
  const dir = mkdtempSync(join(tmpdir(), 'bench-move-'));
  const b: Bench = {
    source,
    moved,
    runbook,
    plan: { title: 'bench', moves, restart: [] },
    schemas: moves.flatMap((m) => m.schemas),
    jobs,
    lockTimeout: mover.lockTimeout,
    dir,
  };
  try {
    for (const pg of [source, moved, runbook]) await pg.psql(`CREATE DATABASE ${DB}`);
    process.stderr.write(`seeding ${tenants.length} tenant(s) × ${rows.toLocaleString('en-US')} instances, ${partitions} marc_indexers partitions each ...\n`);
    for (const t of tenants) await source.psql(folioSeedSql([t], rows, { partitions }), DB);
    await source.psql('VACUUM ANALYZE', DB);
    const measured = await measure(source, b.schemas);
    process.stderr.write(
      `the mover: ${moves.length} modules in ${waves(b.plan).length} task run(s), ${jobs} schema(s) at once; the runbook: -j ${jobs}; ${runs} run(s) each ...\n`,
    );
    await copyRoles(source, runbook);
    const moverTimes: number[] = [];
    const runbookTimes: { dump: number; restore: number }[] = [];
    let verifiedRows = 0;
    for (let i = 0; i < runs; i++) {
      const m = await moverRun(b);
      moverTimes.push(m.seconds);
      verifiedRows = m.verifiedRows;
      runbookTimes.push(await runbookRun(b));
    }
    process.stdout.write(
      render(b, { moverTimes, runbookTimes, verifiedRows }, { ...measured, tenants: tenants.length, partitions, fromConfig: o.jobs === undefined }, mover),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await Promise.all([source.stop(), moved.stop(), runbook.stop()]);
  }
});
