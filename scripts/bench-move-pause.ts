/*
 * How long a module's writes pause when its schemas move, fenced against online, on this
 * machine: an orders-shaped schema (a table with a primary key fed by a sequence) in each of
 * --tenants tenants, --rows rows each, on a source PostgreSQL with wal_level logical, moved to a
 * second server by the mover's own script.
 *   - fenced: the module is stopped for the move (its writes wait from the stop until it starts
 *     on the target after the move);
 *   - online: a writer keeps writing through the move; at the mover's "switch: ready" its
 *     routes (MOVE_ROUTES: a libpq service file here, the stack's DNS records in AWS) are
 *     pointed at the target, as `npm run move --online` repoints the records.
 * Reported: the move's time, the longest write (retries included, the pause a module sees), the
 * writes acknowledged and how many of them the target lacks. A measurement, not a test.
 *
 *   npm run bench:move-pause -- --tenants 3 --rows 200000
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { ConfigError } from '../config';
import { runCommand } from '../lib/commands/shared/cli';
import { numberOption } from '../lib/commands/shared/option-values';
import { markdownTable } from '../lib/commands/shared/markdown-table';
import { schemaName } from '../lib/folio/commands/move/move-plan';
import { parseMoverLine } from '../lib/folio/contract/mover';
import { type Postgres, startPostgres } from '../harness/postgres';
import { Routes, moverEnv, runMover } from '../harness/mover-script';
import { startWriter } from '../harness/writer';

const DB = 'folio';

const program = new Command('bench:move-pause')
  .description("A module's write pause during a move, fenced against online, with the rows it lost")
  .option('--tenants <n>', 'tenants (one schema each)', '3')
  .option('--rows <n>', 'rows per schema', '200000')
  .option('--major <n>', 'PostgreSQL major: 15 or 16', '16');

const whole = (flag: string, raw: string, max: number) => numberOption(flag, raw, { min: 1, max, integer: true })!;

/** The two servers, the schemas moving and their routes: what both modes share. */
interface Pause {
  readonly primary: Postgres;
  readonly offload: Postgres;
  readonly schemas: readonly string[];
  readonly rows: number;
  readonly routes: Routes;
  readonly dir: string;
}

/** Orders-shaped schemas in the source, the target emptied. */
async function seed(b: Pause): Promise<void> {
  for (const s of b.schemas)
    await b.primary.psql(
      `DROP SCHEMA IF EXISTS ${s} CASCADE; CREATE SCHEMA ${s}; CREATE SEQUENCE ${s}.po_number; ` +
        `CREATE TABLE ${s}.purchase_order (id bigint PRIMARY KEY DEFAULT nextval('${s}.po_number'), note text NOT NULL, payload text NOT NULL); ` +
        `INSERT INTO ${s}.purchase_order (note, payload) SELECT 'po ' || g, repeat(md5(g::text), 6) FROM generate_series(1, ${b.rows}) g`,
      DB,
    );
  await b.primary.psql('VACUUM ANALYZE', DB);
  await b.offload.psql(`DROP SCHEMA IF EXISTS folio_mover, ${b.schemas.join(', ')} CASCADE`, DB);
}

const sizeMib = async (b: Pause) =>
  Number(
    await b.primary.psql(
      `SELECT round(sum(pg_total_relation_size(format('%I.purchase_order', s)::regclass)) / 1048576.0, 1) FROM unnest(ARRAY[${b.schemas.map((s) => `'${s}'`).join(',')}]) s`,
      DB,
    ),
  );

/** The mover's environment for these schemas, primary to offload, two at once. */
const moverEnvFor = (b: Pause, extra: Record<string, string>) =>
  ({
    ...process.env,
    ...moverEnv(b.primary, b.offload, DB, {
      MOVE_FROM: 'primary',
      MOVE_TO: 'offload',
      MOVE_SCHEMAS: b.schemas.join(' '),
      MOVE_SUFFIX: '_mod_orders_storage',
      MOVE_JOBS: '2',
      ...extra,
    }),
  }) as Record<string, string>;

const writerOn = (b: Pause, s: string) =>
  startWriter({
    servers: { primary: b.primary, offload: b.offload },
    database: DB,
    route: b.routes.writerRoute,
    sql: (n) => `INSERT INTO ${s}.purchase_order (note, payload) VALUES ('written ${n}', 'x') RETURNING id`,
  });

/** Acknowledged writes the target lacks. */
async function lost(b: Pause, s: string, acknowledged: readonly { n: number }[]): Promise<number> {
  const on = new Set((await b.offload.psql(`SELECT note FROM ${s}.purchase_order WHERE note LIKE 'written %'`, DB)).split('\n'));
  return acknowledged.filter((w) => !on.has(`written ${w.n}`)).length;
}

const settle = () => new Promise((r) => setTimeout(r, 1000));

/** Fenced: the module stops before the move and starts on the target after it. */
async function fencedRow(b: Pause): Promise<string[]> {
  b.routes.point('primary');
  let writer = writerOn(b, b.schemas[0]);
  await settle();
  const before = await writer.stop();
  const started = Date.now();
  const fenced = await runMover(moverEnvFor(b, { MOVE_MODE: 'fenced' }));
  if (fenced.status !== 0) throw new Error(`the fenced move failed: ${fenced.out.trim().split('\n').at(-1)}`);
  const fencedSeconds = (Date.now() - started) / 1000;
  b.routes.point('offload');
  writer = writerOn(b, b.schemas[0]);
  await settle();
  const after = await writer.stop();
  return [
    'fenced (module stopped for the move)',
    fencedSeconds.toFixed(2),
    `${Math.round(fencedSeconds * 1000).toLocaleString('en-US')} (the move)`,
    String(after.medianMs),
    String(before.acknowledged.length + after.acknowledged.length),
    String(await lost(b, b.schemas[0], after.acknowledged)),
  ];
}

/** Online: the writer keeps writing; at the switch its routes are pointed at the target. */
async function onlineRow(b: Pause): Promise<string[]> {
  b.routes.point('primary');
  const writer = writerOn(b, b.schemas[0]);
  const started = Date.now();
  const moved = await runMover(
    moverEnvFor(b, { MOVE_MODE: 'online', MOVE_ROUTE_GRACE: '1s', ...b.routes.env }),
    (line) => {
      if (parseMoverLine(line)?.kind === 'switchReady') b.routes.point('offload');
    },
    [b.dir],
  );
  if (moved.status !== 0) throw new Error(`the online move failed: ${moved.out.trim().split('\n').at(-1)}`);
  const onlineSeconds = (Date.now() - started) / 1000;
  await settle();
  const online = await writer.stop();
  const routed =
    moved.out
      .split('\n')
      .map(parseMoverLine)
      .find((l) => l?.kind === 'routesSwitched')?.slots.ms ?? '?';
  return [
    'online (the module writes throughout)',
    onlineSeconds.toFixed(2),
    `${online.longestMs.toLocaleString('en-US')} (routes at the target ${routed} ms after the fence)`,
    String(online.medianMs),
    String(online.acknowledged.length),
    String(await lost(b, b.schemas[0], online.acknowledged)),
  ];
}

runCommand(async () => {
  const o = program.parse().opts();
  const tenants = Array.from({ length: whole('--tenants', o.tenants, 120) }, (_, i) => `fs${String(9000000 + i).padStart(8, '0')}`);
  const rows = whole('--rows', o.rows, 10_000_000);
  if (!['15', '16'].includes(o.major)) throw new ConfigError(`--major "${o.major}" is not valid (valid: 15, 16)`);
  const schemas = tenants.map((t) => schemaName(t, 'mod-orders-storage'));
  const settings = ['wal_level = logical', 'max_replication_slots = 10', 'max_wal_senders = 10', 'max_locks_per_transaction = 256'];
  const servers: Postgres[] = await Promise.all([0, 1].map(() => startPostgres({ major: Number(o.major) as 15 | 16, settings })));
  const [primary, offload] = servers;
  const dir = mkdtempSync(join(tmpdir(), 'bench-pause-'));
  try {
    for (const pg of servers) await pg.psql(`CREATE DATABASE ${DB}`);
    process.stderr.write(`seeding ${schemas.length} schema(s) × ${rows.toLocaleString('en-US')} rows ...\n`);
    const b: Pause = { primary, offload, schemas, rows, routes: new Routes(dir, { primary, offload }, ['orders', 'orders-reader']), dir };
    await seed(b);
    const size = await sizeMib(b);
    const results = [await fencedRow(b)];
    await seed(b);
    results.push(await onlineRow(b));
    process.stdout.write(
      `# Write pause during a move, on this machine\n\n${schemas.length} orders-shaped schema(s) × ${rows.toLocaleString('en-US')} rows, ${size} MiB; PostgreSQL ${primary.major} servers on loopback, 2 schemas at once.\n\n` +
        markdownTable(['Mode', 'Move (s)', 'Longest write (ms)', 'Median write (ms)', 'Writes acknowledged', 'Lost'], results) +
        '\n\nThe median write is mostly the writer itself (one psql process per write); the longest write includes it once. ' +
        'The online move includes MOVE_ROUTE_GRACE 1s (the stack: 30 s), for which the source stays fenced after the routes lead to the target.\n',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await Promise.all(servers.map((pg) => pg.stop()));
  }
});
