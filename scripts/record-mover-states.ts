/*
 * Records what the mover's decisions (lib/folio/constructs/schema-mover/decide.sh) are fed, read
 * by the mover's own readers from real servers, into test/fixtures/schema-mover/, where their
 * unit tests (test/lib/folio/constructs/schema-mover/decide.test.ts) read them:
 *   - copied/    a fenced copy on PostgreSQL 16 (Aurora's major): each side's content and catalog listing;
 *   - tampered/  the target's listings after one change each (a row edited, a row gone, a
 *                sequence moved on, a table added, a column added, a grant revoked);
 *   - drop/      the content recorded at verification, and the source's now and after a write;
 *   - copy/      a schema's recorded state: after a copy killed before its verification, after
 *                a finished copy, and never moved;
 *   - online/    an online move's first copy as polled while it ran, and each schema's record
 *                after a run killed at each stage.
 * Run again when a reader's query or a listing's format changes:
 *
 *   npm run record:mover-states
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../lib/commands/shared/cli';
import { schemaName } from '../lib/folio/commands/move/move-plan';
import { MOVER_PARTS } from '../lib/folio/constructs/schema-mover/mover-bundle';
import { folioSeedSql } from '../harness/folio-data';
import { Routes, moverEnv, runMover } from '../harness/mover-script';
import { type Postgres, startPostgres } from '../harness/postgres';
import type { PostureProcess } from '../harness/task-posture';

const DB = 'folio';
const TENANT = 'fs09000000';
const OUT = join(__dirname, '../test/fixtures/schema-mover');
const MOVER_DIR = join(__dirname, '../lib/folio/constructs/schema-mover');
/** The script's functions and settings, without its run (main.sh): what a probe calls. */
const FUNCTIONS = MOVER_PARTS.filter((p) => p !== 'main.sh')
  .map((p) => readFileSync(join(MOVER_DIR, p), 'utf8'))
  .join('');

const [INV, SRS, SRM, USERS] = ['mod-inventory-storage', 'mod-source-record-storage', 'mod-source-record-manager', 'mod-users'].map((m) =>
  schemaName(TENANT, m),
);

/** The two servers and what every recording does with them: run the mover, probe its functions, write a fixture. */
class Recorder {
  constructor(
    readonly primary: Postgres,
    readonly offload: Postgres,
    readonly dir: string,
  ) {}

  env(schemas: string, extra: Record<string, string> = {}) {
    return moverEnv(this.primary, this.offload, DB, { MOVE_FROM: 'primary', MOVE_TO: 'offload', MOVE_SCHEMAS: schemas, ...extra });
  }

  /** Runs the mover's own functions after its settings are checked, and returns what `command` prints. */
  probe(schemas: string, command: string, extra: Record<string, string> = {}): string {
    return execFileSync('sh', ['-c', `${FUNCTIONS}\n${command}`], { env: this.env(schemas, extra) }).toString();
  }

  write(file: string, text: string): void {
    mkdirSync(join(OUT, file, '..'), { recursive: true });
    writeFileSync(join(OUT, file), text);
  }

  /** A listing by the mover's own content() or shape(), as a step reads it. */
  listing(what: 'content' | 'shape', side: 'src' | 'tgt', schema: string): string {
    return this.probe(
      schema,
      `S=${schema} SNAP=''; ${what} ${side} "$work/out"; [ ! -e "$work/out.failed" ] || { cat "$work/out.failed"; exit 1; }; cat "$work/out"`,
    );
  }

  /** A move to its end, or killed at the first line `killAt` matches. */
  async move(schemas: string, extra: Record<string, string> = {}, killAt?: RegExp) {
    const r = await runMover(
      this.env(schemas, extra),
      (line: string, child: PostureProcess) => {
        if (killAt?.test(line)) process.kill(-child.pid, 'SIGKILL');
      },
      [this.dir],
    );
    if (killAt ? r.status === 0 : r.status !== 0) throw new Error(`the mover ${killAt ? 'was not killed' : 'failed'}:\n${r.out}`);
    return r;
  }
}

/** A fenced copy and both sides' listings; then the target's listings after one change each, undone after. */
async function recordCopied(r: Recorder): Promise<void> {
  await r.move(INV);
  for (const [side, name] of [
    ['src', 'source'],
    ['tgt', 'target'],
  ] as const)
    for (const what of ['content', 'shape'] as const) r.write(`copied/${name}.${what}`, r.listing(what, side, INV));

  const tampered = async (file: string, what: 'content' | 'shape', change: string, undo: string) => {
    await r.offload.psql(change, DB);
    r.write(`tampered/${file}.${what}`, r.listing(what, 'tgt', INV));
    await r.offload.psql(undo, DB);
  };
  // A row kept aside on the target, changed or deleted, then put back.
  const kept = `CREATE TABLE public.kept AS SELECT * FROM ${INV}.item ORDER BY id LIMIT 1`;
  const putBack = `DELETE FROM ${INV}.item WHERE id = (SELECT id FROM public.kept); INSERT INTO ${INV}.item SELECT * FROM public.kept; DROP TABLE public.kept`;
  await tampered('edited', 'content', `${kept}; UPDATE ${INV}.item SET jsonb = jsonb || '{"barcode": "X"}' WHERE id = (SELECT id FROM public.kept)`, putBack);
  await tampered('short', 'content', `${kept}; DELETE FROM ${INV}.item WHERE id = (SELECT id FROM public.kept)`, putBack);
  const seq = (await r.offload.psql(`SELECT last_value || ', ' || is_called FROM ${INV}.hrid_instances_seq`, DB)).trim();
  await tampered('sequence', 'content', `SELECT setval('${INV}.hrid_instances_seq', 5000)`, `SELECT setval('${INV}.hrid_instances_seq', ${seq})`);
  await tampered('added', 'content', `CREATE TABLE ${INV}.tampered (id int); INSERT INTO ${INV}.tampered VALUES (1)`, `DROP TABLE ${INV}.tampered`);
  await tampered('altered', 'shape', `ALTER TABLE ${INV}.item ADD COLUMN note text`, `ALTER TABLE ${INV}.item DROP COLUMN note`);
  const oai = schemaName(TENANT, 'mod-oai-pmh');
  await tampered('revoked', 'shape', `REVOKE SELECT ON ${INV}.instance FROM ${oai}`, `GRANT SELECT ON ${INV}.instance TO ${oai}`);
}

/** What a drop compares: the content recorded at verification, sorted as drop_source sorts it, and the source's before and after a write. */
async function recordDrop(r: Recorder): Promise<void> {
  r.write('drop/recorded.content', r.probe(INV, `q tgt 'reading' -c "SELECT content FROM folio_mover.moves WHERE schema_name = '${INV}'" | LC_ALL=C sort`));
  r.write('drop/source.content', r.listing('content', 'src', INV));
  await r.primary.psql(
    `UPDATE ${INV}.holdings_record SET jsonb = jsonb || '{"callNumber": "moved"}' WHERE id = (SELECT id FROM ${INV}.holdings_record ORDER BY id LIMIT 1)`,
    DB,
  );
  r.write('drop/source-written.content', r.listing('content', 'src', INV));
}

/** A fenced copy's recorded state: killed while verifying, finished, and never moved. */
async function recordCopyStates(r: Recorder): Promise<void> {
  const state = (schema: string) => r.probe(schema, `S=${schema}; recorded_state`);
  await r.move(SRS, {}, /: restored on the target, verifying$/);
  r.write('copy/killed-verifying.state', state(SRS));
  await r.move(SRS);
  r.write('copy/finished.state', state(SRS));
  r.write('copy/never-moved.state', state(SRM));
}

/** An online move: the first copy polled while it runs, then the records after a kill at each stage. */
async function recordOnline(r: Recorder): Promise<void> {
  const online = `${SRM} ${USERS}`;
  const polls: string[] = [];
  const poller = (async () => {
    for (const until = Date.now() + 60_000; Date.now() < until;) {
      const line = r.probe(online, 'online_names; echo "$(first_copy_left) $(apply_errors)"', { MOVE_MODE: 'online' }).trim();
      if (polls.at(-1) !== line) polls.push(line);
      const [left, total] = line.split(' ');
      if (left === '0' && total !== '0') return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`the first copy was not seen to finish: ${polls.join('; ')}`);
  })();
  await r.move(online, { MOVE_MODE: 'online' }, /^move: first copy done/);
  await poller;
  r.write('online/first-copy.polls', `${polls.join('\n')}\n`);
  const records = () => r.probe(online, 'online_records', { MOVE_MODE: 'online' });
  r.write('online/killed-replicating.records', records());
  await r.move(online, { MOVE_MODE: 'online' });
  r.write('online/finished.records', records());
  r.write('online/wider-wave.records', r.probe(`${online} ${schemaName(TENANT, 'mod-data-export')}`, 'online_records', { MOVE_MODE: 'online' }));
  // A wave switched through routes that never lead to the target, killed at "switch: ready".
  const orders = schemaName(TENANT, 'mod-orders-storage');
  await r.primary.psql(`CREATE SCHEMA ${orders}; CREATE TABLE ${orders}.purchase_order (id bigint PRIMARY KEY, note text)`, DB);
  const routes = new Routes(r.dir, { primary: r.primary, offload: r.offload }, ['orders']);
  routes.point('primary');
  await r.move(orders, { MOVE_MODE: 'online', MOVE_ROUTE_TIMEOUT: '120s', ...routes.env }, /^move: switch: ready/);
  r.write('online/killed-switched.records', r.probe(orders, 'online_records', { MOVE_MODE: 'online' }));
  // A schema the target holds with no move of it recorded.
  const notes = schemaName(TENANT, 'mod-notes');
  await r.offload.psql(`CREATE SCHEMA ${notes}`, DB);
  r.write('online/unrecorded.records', r.probe(`${notes} ${SRM}`, 'online_records', { MOVE_MODE: 'online' }));
}

runCommand(async () => {
  const logical = ['wal_level = logical', 'max_replication_slots = 10', 'max_wal_senders = 10', 'max_locks_per_transaction = 256'];
  const [primary, offload] = await Promise.all([startPostgres({ major: 16, settings: logical }), startPostgres({ major: 16, settings: logical })]);
  const dir = mkdtempSync(join(tmpdir(), 'record-mover-'));
  try {
    for (const pg of [primary, offload]) await pg.psql(`CREATE DATABASE ${DB}`);
    await primary.psql(folioSeedSql([TENANT], 20, { largeValues: 0, partitions: 4 }), DB);
    // Enough rows that the subscription's first copy is seen under way.
    await primary.psql(
      `INSERT INTO ${USERS}.users SELECT md5('bulk' || g)::uuid, jsonb_build_object('username', 'bulk' || g) FROM generate_series(1, 300000) g`,
      DB,
    );
    rmSync(OUT, { recursive: true, force: true });
    const r = new Recorder(primary, offload, dir);
    await recordCopied(r);
    await recordDrop(r);
    await recordCopyStates(r);
    await recordOnline(r);
    process.stdout.write(`recorded into ${OUT}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await Promise.all([primary.stop(), offload.stop()]);
  }
});
