import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schemaName } from '../../lib/folio/commands/move/move-plan';
import { folioSeedSql } from '../../harness/folio-data';
import { MOVER_SCRIPT_FILE, type MoverRun as Run, Routes, moverEnv, runMover as runScript } from '../../harness/mover-script';
import type { PostureProcess } from '../../harness/task-posture';
import { type Postgres, startPostgres } from '../../harness/postgres';
import { type Writer, type WriterResult, startWriter } from '../../harness/writer';

/*
 * The mover's online mode (MOVE_MODE=online) between two real PostgreSQL servers: a module's
 * schemas replicate while a writer keeps writing, and writes pause only for the switch. Every
 * check it makes (caught up, verified, switched) is fed a lagging, tampered or broken target;
 * every refusal leaves the source as it was and nothing of replication behind; a kill at each
 * step is followed by a run that finishes.
 */

const TENANTS = ['fs09000000', 'fs09000001', 'fs09000002'];
const DB = 'folio';
const SRM = TENANTS.map((t) => schemaName(t, 'mod-source-record-manager'));
const INV = TENANTS.map((t) => schemaName(t, 'mod-inventory-storage'));
const ORDERS = TENANTS.map((t) => schemaName(t, 'mod-orders-storage'));

const lastLine = (r: Run) => r.out.trim().split('\n').at(-1);

describe.each([15, 16] as const)('PostgreSQL %i', (major) => {
  let primary: Postgres;
  let offload: Postgres;
  let dir: string;

  const runMover = (env: Record<string, string>, onLine?: (line: string, child: PostureProcess) => void): Promise<Run> =>
    runScript(moverEnv(primary, offload, DB, { MOVE_LOCK_TIMEOUT: '5s', MOVE_MODE: 'online', MOVE_FROM: 'primary', MOVE_TO: 'offload', ...env }), onLine, [
      dir,
    ]);
  const module = (schemas: readonly string[], suffix: string, extra: Record<string, string> = {}) => ({
    MOVE_SCHEMAS: schemas.join(' '),
    MOVE_SUFFIX: suffix,
    ...extra,
  });
  const srm = (extra: Record<string, string> = {}) => module(SRM, '_mod_source_record_manager', extra);

  /** Each table's rows and each sequence, as text: what "untouched" means. */
  async function fingerprint(pg: Postgres, schemas: readonly string[]): Promise<string> {
    const list = schemas.map((s) => `'${s}'`).join(',');
    const q = await pg.psql(
      `SELECT string_agg(format('SELECT %L, count(*), md5(coalesce(string_agg(t::text, '','' ORDER BY t::text), '''')) FROM %I.%I t', n.nspname || '.' || c.relname, n.nspname, c.relname), ' UNION ALL ' ORDER BY 1)
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN (${list}) AND c.relkind = 'r'`,
      DB,
    );
    const seqs = await pg.psql(
      `SELECT coalesce(string_agg(schemaname || '.' || sequencename || ' ' || coalesce(last_value::text, '-'), ',' ORDER BY 1), '') FROM pg_sequences WHERE schemaname IN (${list})`,
      DB,
    );
    return `${await pg.psql(`${q} ORDER BY 1`, DB)}\n${seqs}`;
  }
  /** Publications, slots and subscriptions the mover made, on both sides: none may outlive a run. */
  const leftovers = async () =>
    [
      await primary.psql("SELECT string_agg(pubname, ',') FROM pg_publication WHERE pubname LIKE 'folio_mover_%'", DB),
      await primary.psql("SELECT string_agg(slot_name, ',') FROM pg_replication_slots WHERE slot_name LIKE 'folio_mover_%'", DB),
      await offload.psql("SELECT string_agg(subname, ',') FROM pg_subscription WHERE subname LIKE 'folio_mover_%'", DB),
    ].join('|');
  const dropTargets = (schemas: readonly string[]) =>
    offload.psql(
      `DROP SCHEMA IF EXISTS ${schemas.join(', ')} CASCADE; DO $$ BEGIN IF to_regclass('folio_mover.moves') IS NOT NULL THEN DELETE FROM folio_mover.moves WHERE schema_name IN (${schemas.map((x) => `'${x}'`).join(',')}); END IF; END $$`,
      DB,
    );

  beforeAll(async () => {
    const logical = ['wal_level = logical', 'max_replication_slots = 10', 'max_wal_senders = 10', 'max_locks_per_transaction = 256'];
    [primary, offload] = await Promise.all([startPostgres({ major, settings: logical }), startPostgres({ major, settings: logical })]);
    for (const pg of [primary, offload]) await pg.psql(`CREATE DATABASE ${DB}`);
    await primary.psql(folioSeedSql(TENANTS, 40, { largeValues: 0 }), DB);
    // Orders: a sequence the module draws from while it writes.
    for (const s of ORDERS)
      await primary.psql(
        `CREATE SCHEMA ${s}; CREATE SEQUENCE ${s}.po_number START 100; CREATE TABLE ${s}.purchase_order (id bigint PRIMARY KEY DEFAULT nextval('${s}.po_number'), note text NOT NULL); INSERT INTO ${s}.purchase_order (note) SELECT 'po ' || g FROM generate_series(1, 20) g`,
        DB,
      );
    dir = mkdtempSync(join(tmpdir(), 'online-move-'));
  }, 120_000);
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await Promise.all([primary?.stop(), offload?.stop()]);
  });

  test('a writer keeps writing through the move: nothing lost, the pause is the switch, the sequence carries on, nothing of replication left', async () => {
    const route = join(dir, 'route');
    writeFileSync(route, 'primary');
    const s = ORDERS[0];
    const writer: Writer = startWriter({
      servers: { primary, offload },
      database: DB,
      route,
      sql: (n) => `INSERT INTO ${s}.purchase_order (note) VALUES ('written ${n}') RETURNING id`,
    });
    const before = await fingerprint(primary, ORDERS.slice(1));
    const r = await runMover(module(ORDERS, '_mod_orders_storage', { MOVE_SWITCH_COMMAND: `echo offload > ${route}` }));
    const written = await writer.stop();
    expect({ status: r.status, last: lastLine(r) }).toEqual({ status: 0, last: 'move: done: 3 schema(s), moved online from primary to offload' });
    expect(r.out).toMatch(/move: checkpoint verified: every table of every schema matches by content/);
    expect(r.out).toMatch(/move: switched: writes to the module's schemas waited \d+ ms/);
    // Every acknowledged write is on the target, once; the writer wrote on both sides of the switch.
    expect(written.acknowledged.length).toBeGreaterThan(10);
    expect(written.acknowledged.filter((w) => w.on === 'offload').length).toBeGreaterThan(0);
    const onTarget = new Set((await offload.psql(`SELECT note FROM ${s}.purchase_order WHERE note LIKE 'written %'`, DB)).split('\n'));
    expect(written.acknowledged.filter((w) => !onTarget.has(`written ${w.n}`))).toEqual([]);
    expect(onTarget.size).toBe(written.acknowledged.length);
    // The sequence carried on from the source's last value: no id was reused.
    expect(new Set(written.acknowledged.map((w) => w.result)).size).toBe(written.acknowledged.length);
    // The schemas no writer touched are on the target exactly as on the source, which kept them.
    expect(await fingerprint(offload, ORDERS.slice(1))).toBe(before);
    expect(await fingerprint(primary, ORDERS.slice(1))).toBe(before);
    expect(await leftovers()).toBe('||');
    expect(await offload.psql(`SELECT string_agg(state, ',') FROM folio_mover.moves WHERE schema_name IN (${ORDERS.map((x) => `'${x}'`).join(',')})`, DB)).toBe(
      'verified,verified,verified',
    );
    // The pause a writer saw: the longest write, retries included, is seconds, not the copy.
    expect(written.longestMs).toBeLessThan(5_000);
    // The writer itself (a psql per write) costs little beside it: the bench's figures carry it.
    expect(written.medianMs).toBeLessThan(250);
  }, 120_000);

  test('with no switch command, the switch waits, fenced, until the module stops; its writes before the stop are all on the target', async () => {
    const route = join(dir, 'route-stop');
    writeFileSync(route, 'primary');
    const s = SRM[0];
    await dropTargets(SRM);
    const writer = startWriter({
      servers: { primary, offload },
      database: DB,
      route,
      sql: (n) => `INSERT INTO ${s}.job_execution VALUES (gen_random_uuid(), '{"n": ${n}}') RETURNING 1`,
    });
    let stopped: Promise<WriterResult> | undefined;
    const r = await runMover(srm(), (line) => {
      // The operator stops the module when the mover says it is ready.
      if (!stopped && /^move: switch: ready and verified; stop the module now/.test(line)) stopped = writer.kill();
    });
    const written = await (stopped ?? writer.stop());
    expect({ status: r.status, last: lastLine(r) }).toEqual({ status: 0, last: 'move: done: 3 schema(s), moved online from primary to offload' });
    expect(r.out).toMatch(
      /switch: ready and verified; stop the module now, its writes wait on the fence until it is \(sessions: fs09000000_mod_source_record_manager: pid \d+ \(postgres, module-writer\)\)/,
    );
    expect(written.acknowledged.length).toBeGreaterThan(5);
    const onTarget = new Set((await offload.psql(`SELECT jsonb ->> 'n' FROM ${s}.job_execution WHERE jsonb ? 'n'`, DB)).split('\n'));
    expect(written.acknowledged.filter((w) => !onTarget.has(String(w.n)))).toEqual([]);
    expect(await fingerprint(offload, SRM)).toBe(await fingerprint(primary, SRM));
    expect(await leftovers()).toBe('||');
  }, 120_000);

  describe('routes (MOVE_ROUTES): the mover says ready, the routes are pointed at the target, the switch is done when each leads there', () => {
    beforeEach(() => dropTargets(SRM));
    const READY = /^move: switch: ready: point the routes at the target \(offload\): service=srm service=srm-reader$/;

    test('the writer pauses only until the routes lead to the target; the source stays fenced until no session reaches it; nothing lost', async () => {
      const routes = new Routes(dir, { primary, offload }, ['srm', 'srm-reader']);
      routes.point('primary');
      const s = SRM[0];
      const writer = startWriter({
        servers: { primary, offload },
        database: DB,
        route: routes.writerRoute,
        sql: (n) => `INSERT INTO ${s}.job_execution VALUES (gen_random_uuid(), '{"n": ${n}}') RETURNING 1`,
      });
      const r = await runMover(srm({ ...routes.env, MOVE_ROUTE_GRACE: '1s' }), (line) => {
        // npm run move's part: the records now name the target.
        if (READY.test(line)) routes.point('offload');
      });
      const written = await writer.stop();
      expect({ status: r.status, last: lastLine(r) }).toEqual({ status: 0, last: 'move: done: 3 schema(s), moved online from primary to offload' });
      expect(r.out).toMatch(/^move: switched: every route leads to the target \d+ ms after the fence locked; the module writes there/m);
      expect(r.out).toMatch(/^move: source unfenced after \d+ ms: no session of the module reached it for 1s$/m);
      expect(written.acknowledged.filter((w) => w.on === 'offload').length).toBeGreaterThan(0);
      const onTarget = new Set((await offload.psql(`SELECT jsonb ->> 'n' FROM ${s}.job_execution WHERE jsonb ? 'n'`, DB)).split('\n'));
      expect(written.acknowledged.filter((w) => !onTarget.has(String(w.n)))).toEqual([]);
      // Nothing written on the source after the switch: every row there is on the target too.
      const onSource = (await primary.psql(`SELECT jsonb ->> 'n' FROM ${s}.job_execution WHERE jsonb ? 'n'`, DB)).split('\n').filter(Boolean);
      expect(onSource.filter((n) => !onTarget.has(n))).toEqual([]);
      expect(written.longestMs).toBeLessThan(5_000);
      expect(await leftovers()).toBe('||');
      expect(await offload.psql(`SELECT count(*) FROM folio_mover.switch`, DB)).toBe('0');
    }, 120_000);

    test('routes that never lead to the target: after MOVE_ROUTE_TIMEOUT the source is renamed aside, so no write lands where nothing reads', async () => {
      const routes = new Routes(dir, { primary, offload }, ['srm', 'srm-reader']);
      routes.point('primary');
      const s = SRM[0];
      const writer = startWriter({
        servers: { primary, offload },
        database: DB,
        route: routes.writerRoute,
        sql: (n) => `INSERT INTO ${s}.job_execution VALUES (gen_random_uuid(), '{"n": ${n}}') RETURNING 1`,
      });
      let sawReady = false;
      const r = await runMover(srm({ ...routes.env, MOVE_ROUTE_TIMEOUT: '2s' }), (line) => (sawReady ||= READY.test(line)));
      // The routes are fixed afterwards (a deploy of the phase): the writer carries on on the target.
      routes.point('offload');
      await new Promise((done) => setTimeout(done, 500));
      const written = await writer.stop();
      try {
        expect(sawReady).toBe(true);
        expect(r.status).toBe(1);
        expect(lastLine(r)).toMatch(
          /^move: failed: switched to the target \(offload\), but after 2s these routes still lead elsewhere: service=srm service=srm-reader; the source's schemas were renamed to <schema>_mv\d+ so that nothing more is written there \(their data is intact\): point the routes at the target \(a deploy of the phase does\)$/,
        );
        const aside = lastLine(r)!.match(/<schema>(_mv\d+)/)![1];
        expect(
          await primary.psql(`SELECT string_agg(nspname, ',' ORDER BY nspname) FROM pg_namespace WHERE nspname LIKE '%_mod_source_record_manager%'`, DB),
        ).toBe(SRM.map((x) => `${x}${aside}`).join(','));
        // Every acknowledged write is on the target, which the module writes to once routed.
        const onTarget = new Set((await offload.psql(`SELECT jsonb ->> 'n' FROM ${s}.job_execution WHERE jsonb ? 'n'`, DB)).split('\n'));
        expect(written.acknowledged.filter((w) => !onTarget.has(String(w.n)))).toEqual([]);
        expect(written.acknowledged.filter((w) => w.on === 'offload').length).toBeGreaterThan(0);
        expect(
          await offload.psql(`SELECT string_agg(DISTINCT state, ',') FROM folio_mover.moves WHERE schema_name IN (${SRM.map((x) => `'${x}'`).join(',')})`, DB),
        ).toBe('switched');
        expect(await leftovers()).toBe('||');
      } finally {
        const aside = await primary.psql(`SELECT string_agg(nspname, ' ') FROM pg_namespace WHERE nspname ~ '_mod_source_record_manager_mv[0-9]+$'`, DB);
        for (const n of aside.split(' ').filter(Boolean)) await primary.psql(`ALTER SCHEMA ${n} RENAME TO ${n.replace(/_mv\d+$/, '')}`, DB);
      }
    }, 120_000);

    test('killed after "switch: ready": the move counts as switched, and the next run refuses to copy over the target', async () => {
      const routes = new Routes(dir, { primary, offload }, ['srm', 'srm-reader']);
      routes.point('primary');
      const r = await runMover(srm(routes.env), (line, child) => {
        if (READY.test(line)) process.kill(-child.pid!, 'SIGKILL');
      });
      expect(r.status).toBeNull();
      expect(
        await offload.psql(`SELECT string_agg(DISTINCT state, ',') FROM folio_mover.moves WHERE schema_name IN (${SRM.map((x) => `'${x}'`).join(',')})`, DB),
      ).toBe('switched');
      const again = await runMover(srm(routes.env));
      expect(again.status).toBe(1);
      expect(lastLine(again)).toMatch(/an earlier run switched it to the target \(offload\)/);
      // The killed run's fence went with its connection: the source takes writes again.
      await primary.psql(`BEGIN; SET LOCAL lock_timeout = '1s'; INSERT INTO ${SRM[0]}.job_execution VALUES (gen_random_uuid(), '{}'); ROLLBACK`, DB);
    }, 90_000);

    test.each([
      [
        'a route that is neither a host name nor a service',
        { MOVE_ROUTES: 'host=x;drop' },
        'move: failed: MOVE_ROUTES entry "host=x;drop" is not valid (valid: host names, or service=<name> of a libpq service file)',
      ],
      [
        'a route starting with a hyphen',
        { MOVE_ROUTES: '-h' },
        'move: failed: MOVE_ROUTES entry "-h" is not valid (valid: host names, or service=<name> of a libpq service file)',
      ],
      [
        'routes on a fenced move',
        { MOVE_ROUTES: 'srm.folio-db.internal', MOVE_MODE: 'fenced' },
        'move: failed: MOVE_ROUTES applies to online moves (valid: MOVE_MODE online)',
      ],
      [
        'routes and a switch command',
        { MOVE_ROUTES: 'srm.folio-db.internal', MOVE_SWITCH_COMMAND: 'true' },
        'move: failed: MOVE_ROUTES and MOVE_SWITCH_COMMAND cannot be combined (valid: one way to point the module at the target)',
      ],
      ['MOVE_ROUTE_TIMEOUT', { MOVE_ROUTE_TIMEOUT: '5m' }, 'move: failed: MOVE_ROUTE_TIMEOUT "5m" is not valid (valid: whole seconds, such as 30s)'],
      ['MOVE_ROUTE_GRACE', { MOVE_ROUTE_GRACE: '0s' }, 'move: failed: MOVE_ROUTE_GRACE "0s" is not valid (valid: whole seconds, such as 30s)'],
    ])('bad: %s', async (_what, extra, expected) => {
      const r = await runMover(srm(extra));
      expect({ status: r.status, last: lastLine(r) }).toEqual({ status: 1, last: expected });
    });
  });

  test('run again after it finished: nothing is copied twice', async () => {
    const r = await runMover(module(ORDERS, '_mod_orders_storage'));
    expect(r.status).toBe(0);
    expect(r.out).toContain(`move: ${ORDERS[0]}: skipped, already moved online from primary and verified`);
  }, 60_000);

  describe('what replication cannot carry is refused by name, before anything is created', () => {
    test('tables with neither a primary key nor a replica identity: each named, the source as it was', async () => {
      const before = await fingerprint(primary, INV);
      const r = await runMover(module(INV, '_mod_inventory_storage'));
      expect(r.status).toBe(1);
      expect(lastLine(r)).toBe(
        `move: failed: ${INV[0]}.audit_instance,${INV[1]}.audit_instance,${INV[2]}.audit_instance: tables with neither a primary key nor a replica identity; ` +
          'published, their UPDATEs and DELETEs would fail on the source while the module runs; give each one, or move (valid: MOVE_MODE fenced)',
      );
      expect(await fingerprint(primary, INV)).toBe(before);
      expect(await leftovers()).toBe('||');
    }, 30_000);

    test('a source without wal_level logical', async () => {
      const plain = await startPostgres({ major });
      try {
        await plain.psql(`CREATE DATABASE ${DB}`);
        const r = await runMover({ ...srm(), PRIMARY_PORT: String(plain.port), PGUSER: plain.user, PGPASSWORD: plain.password });
        expect(r.status).toBe(1);
        expect(lastLine(r)).toBe(
          "move: failed: the source's wal_level is replica: online moves need logical replication, which Aurora turns on with rds.logical_replication = 1 in the cluster parameter group at the writer's next reboot (valid: wal_level logical, or MOVE_MODE fenced)",
        );
      } finally {
        await plain.stop();
      }
    }, 60_000);

    test.each([
      ['MOVE_MODE', { MOVE_MODE: 'live' }, 'move: failed: MOVE_MODE "live" is not valid (valid: fenced, online)'],
      ['MOVE_CATCHUP_TIMEOUT', { MOVE_CATCHUP_TIMEOUT: '2min' }, 'move: failed: MOVE_CATCHUP_TIMEOUT "2min" is not valid (valid: whole seconds, such as 30s)'],
      [
        'a reference copy',
        { MOVE_KEEP_EXISTING: 'true' },
        'move: failed: MOVE_MODE online moves a module; a reference copy is a snapshot (valid: MOVE_KEEP_EXISTING false, or MOVE_MODE fenced)',
      ],
      [
        '--replace',
        { MOVE_REPLACE: 'true' },
        'move: failed: MOVE_REPLACE applies to fenced moves; an online move copies into an empty target (valid: MOVE_MODE fenced)',
      ],
    ])('bad %s', async (_what, extra, expected) => {
      const r = await runMover(srm(extra));
      expect({ status: r.status, last: lastLine(r) }).toEqual({ status: 1, last: expected });
    });
  });

  describe('every check refuses a bad target, lifts the fence, leaves the source as it was and nothing of replication behind', () => {
    beforeEach(() => dropTargets(SRM));

    /** Runs the mover, stopping it at the first line `at` matches while `meanwhile` breaks something; `undo` repairs what the test itself changed. */
    async function refusedAt(at: RegExp, meanwhile: () => Promise<void>, extra: Record<string, string> = {}, undo?: () => Promise<unknown>): Promise<Run> {
      const before = await fingerprint(primary, SRM);
      let done: Promise<void> | undefined;
      const r = await runMover(srm(extra), (line, child) => {
        if (done || !at.test(line)) return;
        process.kill(-child.pid!, 'SIGSTOP');
        done = meanwhile().finally(() => process.kill(-child.pid!, 'SIGCONT'));
      });
      await done;
      expect(r.status).toBe(1);
      await undo?.();
      expect(await fingerprint(primary, SRM)).toBe(before);
      expect(await leftovers()).toBe('||');
      // No fence left behind: a write on the source goes through at once.
      await primary.psql(`BEGIN; SET LOCAL lock_timeout = '1s'; INSERT INTO ${SRM[0]}.job_execution VALUES (gen_random_uuid(), '{}'); ROLLBACK`, DB);
      return r;
    }

    test('caught up: a target that stops applying is refused after MOVE_CATCHUP_TIMEOUT', async () => {
      const r = await refusedAt(
        /first copy done/,
        async () => {
          const sub = await offload.psql("SELECT subname FROM pg_subscription WHERE subname LIKE 'folio_mover_%'", DB);
          await offload.psql(`ALTER SUBSCRIPTION ${sub} DISABLE`, DB);
        },
        { MOVE_CATCHUP_TIMEOUT: '1s' },
      );
      expect(lastLine(r)).toMatch(
        /^move: failed: the target fell behind: it had not applied the source's last write after 1s \(.*\); nothing was switched, the module stays on the source \(primary\), which was not changed$/,
      );
    }, 60_000);

    test('verified: a replica changed on the target is refused at the checkpoint, naming the table', async () => {
      const r = await refusedAt(/first copy done/, () =>
        offload
          .psql(`UPDATE ${SRM[1]}.journal_records SET action_type = 'TAMPERED' WHERE ctid = (SELECT min(ctid) FROM ${SRM[1]}.journal_records)`, DB)
          .then(() => undefined),
      );
      expect(lastLine(r)).toMatch(
        new RegExp(
          `^move: failed: the replica differs from the source at the checkpoint: ${SRM[1]}: table journal_records has the same \\d+ rows but different content; nothing was switched`,
        ),
      );
    }, 60_000);

    test('switched: DDL on the source during the move is refused at the switch by the catalog comparison', async () => {
      const r = await refusedAt(
        /checkpoint verified/,
        () => primary.psql(`ALTER TABLE ${SRM[2]}.job_execution ADD COLUMN note text`, DB).then(() => undefined),
        {},
        () => primary.psql(`ALTER TABLE ${SRM[2]}.job_execution DROP COLUMN note`, DB),
      );
      expect(lastLine(r)).toMatch(
        new RegExp(`^move: failed: the catalogs differ \\(DDL during the move\\?\\): ${SRM[2]}: source only: column job_execution.note text`),
      );
    }, 60_000);

    test('switched: a switch command that fails switches nothing', async () => {
      const before = await fingerprint(primary, SRM);
      const r = await runMover(srm({ MOVE_SWITCH_COMMAND: 'echo "no route to the modules" >&2; exit 3' }));
      expect(r.status).toBe(1);
      expect(lastLine(r)).toBe(
        'move: failed: the switch command failed: no route to the modules; nothing was switched, the module stays on the source (primary), which was not changed',
      );
      expect(await fingerprint(primary, SRM)).toBe(before);
      expect(await leftovers()).toBe('||');
    }, 60_000);
  });

  describe('killed at every step, the next run finishes with an exact copy and the source as it was', () => {
    beforeEach(() => dropTargets(SRM));
    test.each([/structure of 3 schema\(s\) restored/, /first copy done/, /checkpoint: writes waited/, /checkpoint verified/])(
      'killed after "%s"',
      async (at) => {
        const before = await fingerprint(primary, SRM);
        let killed = false;
        const r = await runMover(srm(), (line, child) => {
          if (killed || !at.test(line)) return;
          killed = true;
          process.kill(-child.pid!, 'SIGKILL');
        });
        expect({ killed, status: r.status }).toEqual({ killed: true, status: null });
        const again = await runMover(srm());
        expect({ status: again.status, last: lastLine(again) }).toEqual({ status: 0, last: 'move: done: 3 schema(s), moved online from primary to offload' });
        expect(await fingerprint(primary, SRM)).toBe(before);
        expect(await fingerprint(offload, SRM)).toBe(before);
        expect(await leftovers()).toBe('||');
      },
      90_000,
    );

    test('killed after the switch: the next run copies nothing over the target the module now writes to, and says why', async () => {
      await runMover(srm(), (line, child) => {
        if (/^move: switched:/.test(line)) process.kill(-child.pid!, 'SIGKILL');
      });
      // Recorded before the line is printed; verified only after the comparison that follows it.
      expect(
        await offload.psql(`SELECT string_agg(DISTINCT state, ',') FROM folio_mover.moves WHERE schema_name IN (${SRM.map((x) => `'${x}'`).join(',')})`, DB),
      ).toBe('switched');
      const target = await fingerprint(offload, SRM);
      const again = await runMover(srm());
      expect(again.status).toBe(1);
      expect(lastLine(again)).toMatch(
        /an earlier run switched it to the target \(offload\) and stopped before comparing the two sides at the switch; the module writes there now, so nothing is copied again/,
      );
      expect(await fingerprint(offload, SRM)).toBe(target);
    }, 90_000);
  });

  test('the mover never logs the password it gives the subscription', async () => {
    await dropTargets(SRM);
    const r = await runMover(srm());
    expect(r.status).toBe(0);
    expect(r.out).not.toContain(primary.password);
    expect(readFileSync(MOVER_SCRIPT_FILE, 'utf8')).toContain('password=%s');
  }, 60_000);
});
