import { execFileSync } from 'node:child_process';
import { type FolioScenario, resolveScenario } from '../../config';
import { type MoveFlags, type MovePlan, moverEnvironment, planPhaseSwitch, schemaName } from '../../lib/folio/commands/move/move-plan';
import { editedCatalog } from '../../harness/catalog';
import type { PostureProcess } from '../../harness/task-posture';
import { folioSeedSql } from '../../harness/folio-data';
import { type MoverRun as Run, moverEnv, runMover as runScript } from '../../harness/mover-script';
import { type Postgres, type Session, startPostgres } from '../../harness/postgres';
import { schemasOf, TEST_TENANTS as TENANTS } from '../support/folio-tenants';

/*
 * The mover's own script, the one the stack's task runs, moving FOLIO-shaped schemas between
 * two real PostgreSQL servers (primary and offload stand-ins), on PostgreSQL 15 (the
 * distribution's) and 16 (the major Aurora runs): phase switches and back, each verification
 * fed a tampered copy, writers during a move, kills at every step, and the causes it names.
 */

const ROWS = 40;
const DB = 'folio';
const LOCK_TIMEOUT_S = 2;
const catalog = editedCatalog((c) => (c.folio.environment.tenants = TENANTS));
const phase = (name: string) => resolveScenario({ scenario: name }, catalog) as FolioScenario;
const ALL = ['mod-inventory-storage', 'mod-source-record-storage', 'mod-source-record-manager', 'mod-data-export', 'mod-users'].flatMap(schemasOf);
const [T0, T1, T2] = TENANTS;

const lastLine = (r: Run) => r.out.trim().split('\n').at(-1);
/** A run's outcome as an assertion shows it: on a failure, the mover's own last line. */
const outcome = (r: Run) => ({ status: r.status, ...(r.status === 0 ? {} : { last: lastLine(r) }) });
/** What a test starts beside the mover, awaited before it asserts: a failure fails the test. */
class Background {
  private readonly started: Promise<unknown>[] = [];
  run(work: () => Promise<unknown>): void {
    this.started.push(work());
  }
  settled(): Promise<unknown> {
    return Promise.all(this.started);
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventually(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; await sleep(50)) if (await check()) return;
  throw new Error(`timed out waiting for ${what}`);
}

describe.each([15, 16] as const)('PostgreSQL %i', (major) => {
  let primary: Postgres;
  let offload: Postgres;

  const runMover = (env: Record<string, string>, onLine?: (line: string, child: PostureProcess) => void): Promise<Run> =>
    runScript(moverEnv(primary, offload, DB, { MOVE_JOBS: '2', MOVE_LOCK_TIMEOUT: `${LOCK_TIMEOUT_S}s`, ...env }), onLine);
  const group = (child: PostureProcess, signal: NodeJS.Signals) => process.kill(-child.pid!, signal);
  /** The pid of a program the mover started, found in its process group. */
  const inGroup = (child: PostureProcess, program: string) =>
    Number(
      execFileSync('pgrep', ['-g', String(child.pid), '-x', program])
        .toString()
        .trim()
        .split('\n')[0],
    );

  /**
   * Runs the mover and, after the first line that `at` matches, kills it (SIGKILL, its whole
   * process group) once it waits on a lock on `pg`; `meanwhile` runs first, with the mover.
   */
  async function killedOnceWaiting(
    env: Record<string, string>,
    at: (line: string) => boolean,
    pg: Postgres,
    meanwhile?: (child: PostureProcess) => Promise<void>,
  ): Promise<Run> {
    const bg = new Background();
    let seen = false;
    const r = await runMover(env, (line, child) => {
      if (seen || !at(line)) return;
      seen = true;
      bg.run(async () => {
        await meanwhile?.(child);
        await eventually('the mover to wait on a lock', () => moverWaits(pg));
        group(child, 'SIGKILL');
      });
    });
    await bg.settled();
    expect(seen).toBe(true);
    return r;
  }
  /**
   * Kills the mover while it waits on a lock on the target: at the first line that `at` matches
   * it is frozen, a session on the target takes what its next step needs (`blockerSql`), and it
   * goes on until it waits on that lock. The blocking session is ended afterwards.
   */
  async function killedWhileWaiting(env: Record<string, string>, at: (line: string) => boolean, blockerSql: string): Promise<Run> {
    let blocker: Session | undefined;
    const r = await killedOnceWaiting(env, at, offload, async (child) => {
      group(child, 'SIGSTOP');
      blocker = await offload.session(blockerSql, DB, 'blocker', 'idle in transaction');
      group(child, 'SIGCONT');
    });
    await blocker?.close();
    return r;
  }

  /** Runs every module of a plan, in its order; stops at the first failure. */
  async function move(plan: MovePlan, flags: MoveFlags = {}): Promise<Run> {
    let out = '';
    for (const m of plan.moves) {
      const r = await runMover(moverEnvironment(m, flags));
      out += r.out;
      if (r.status !== 0) return { status: r.status, out };
    }
    return { status: 0, out };
  }
  const one = (schema: string, extra: Record<string, string> = {}) => ({ MOVE_FROM: 'primary', MOVE_TO: 'offload', MOVE_SCHEMAS: schema, ...extra });

  /** Every table's row count and a digest of its rows, and every sequence, per schema: what "untouched" means. */
  async function fingerprint(pg: Postgres, schemas: readonly string[], db = DB): Promise<string> {
    const list = schemas.map((s) => `'${s}'`).join(',');
    const q = await pg.psql(
      `SELECT string_agg(format('SELECT %L, count(*), md5(coalesce(string_agg(t::text, '','' ORDER BY t::text), '''')) FROM %I.%I t', n.nspname || '.' || c.relname, n.nspname, c.relname), ' UNION ALL ' ORDER BY 1)
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN (${list}) AND c.relkind = 'r'`,
      db,
    );
    const rows = await pg.psql(`${q} ORDER BY 1`, db);
    const seqs = await pg.psql(
      `SELECT coalesce(string_agg(format('SELECT %L, last_value, is_called FROM %I.%I', n.nspname || '.' || c.relname, n.nspname, c.relname), ' UNION ALL ' ORDER BY 1), 'SELECT 1')
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN (${list}) AND c.relkind = 'S'`,
      db,
    );
    const shape = await pg.psql(
      `SELECT n.nspname, c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN (${list}) ORDER BY 1, 2`,
      db,
    );
    return `${rows}\n${await pg.psql(`SELECT * FROM (${seqs}) s ORDER BY 1`, db)}\n${shape}`;
  }
  const count = (pg: Postgres, sql: string) => pg.psql(sql, DB).then(Number);
  const hasSchema = (pg: Postgres, s: string) => count(pg, `SELECT count(*) FROM pg_namespace WHERE nspname = '${s}'`).then((n) => n === 1);
  const state = (s: string) => offload.psql(`SELECT state FROM folio_mover.moves WHERE schema_name = '${s}'`, DB);
  /** Sessions on the target that the mover (any of its tools) has waiting on a lock. */
  const moverWaits = (pg: Postgres) =>
    count(pg, "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'folio-schema-mover' AND wait_event_type = 'Lock'").then((n) => n > 0);

  beforeAll(async () => {
    // Locks: the fence and pg_dump each lock every partition of two schemas at once.
    const settings = ['max_locks_per_transaction = 256'];
    [primary, offload] = await Promise.all([startPostgres({ major, settings }), startPostgres({ major, settings })]);
    expect([primary.major, offload.major]).toEqual([major, major]);
    for (const pg of [primary, offload]) await pg.psql(`CREATE DATABASE ${DB}`);
    await primary.psql(folioSeedSql(TENANTS, ROWS), DB);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([primary?.stop(), offload?.stop()]);
  });

  test('bad environment values are refused in one line naming the value and the valid ones, before anything connects', async () => {
    const inv = schemasOf('mod-inventory-storage');
    const cases: [Record<string, string>, string][] = [
      [{ MOVE_TO: 'serverles' }, 'MOVE_TO "serverles" is not valid (valid: primary, offload)'],
      [{ OFFLOAD_HOST: '' }, "OFFLOAD_HOST is not set (valid: the offload cluster's endpoint)"],
      [{ OFFLOAD_PORT: 'x5432' }, 'OFFLOAD_PORT "x5432" is not valid (valid: a port from 1 to 65535)'],
      [{ MOVE_SCHEMAS: `${inv[0]} ${inv[0]}` }, `schema "${inv[0]}" is listed twice in MOVE_SCHEMAS (valid: each schema once)`],
      [{ MOVE_JOBS: '0' }, 'MOVE_JOBS "0" is not valid (valid: a whole number from 1 to 32)'],
      [{ MOVE_LOCK_TIMEOUT: 'forever' }, 'MOVE_LOCK_TIMEOUT "forever" is not valid (valid: a PostgreSQL duration such as 500ms, 30s or 2min)'],
      [{ MOVE_REPLACE: 'yes' }, 'MOVE_REPLACE "yes" is not valid (valid: true, false)'],
      [{ MOVE_SCHEMAS: 'Bad;name' }, 'schema name "Bad;name" is not valid (valid: a-z, 0-9, _, starting with a letter)'],
      [{ MOVE_TO: 'offload\u001b[31m' }, 'MOVE_TO "offload?[31m" is not valid (valid: primary, offload)'],
    ];
    for (const [env, message] of cases) {
      const r = await runMover({ ...moverEnvironment(planPhaseSwitch(phase('test4'), phase('test5')).moves[0]), ...env });
      expect({ status: r.status, out: r.out.trim() }).toEqual({ status: 1, out: `move: failed: ${message}` });
    }
    expect(await hasSchema(offload, 'folio_mover')).toBe(false);
  });

  test('baseline -> test1: SRM and SRS (with their partitions) copied with roles, rows and objects; the source untouched', async () => {
    const before = await fingerprint(primary, ALL);
    const r = await move(planPhaseSwitch(phase('baseline'), phase('test1')));
    expect({ status: r.status, last: lastLine(r) }).toEqual({ status: 0, last: 'move: done: 3 schema(s), copy from primary to offload' });
    expect(await fingerprint(primary, ALL)).toBe(before);
    const moved = [...schemasOf('mod-source-record-manager'), ...schemasOf('mod-source-record-storage')];
    expect(await fingerprint(offload, moved)).toBe(await fingerprint(primary, moved));
    const srs = schemaName(T0, 'mod-source-record-storage');
    // Totals count each row once: the partitioned parent is not a table of its own.
    expect(r.out).toContain(`move: ${srs}: copied and verified, 10 tables, ${2 * ROWS + 5 * ROWS} rows`);
    expect(await count(offload, `SELECT count(*) FROM pg_inherits WHERE inhparent = '${srs}.marc_indexers'::regclass`)).toBe(8);
    for (const s of moved) {
      expect(await offload.psql(`SELECT nspowner::regrole FROM pg_namespace WHERE nspname = '${s}'`, DB)).toBe(s);
      expect(await offload.psql(`SELECT rolcanlogin FROM pg_roles WHERE rolname = '${s}'`, DB)).toBe('t');
    }
  }, 60_000);

  test('test4 -> test5: inventory with its functions, indexes, enum, large values, grants; roles with their attributes, also those named only in a column grant, a policy or default privileges; the target analysed', async () => {
    const before = await fingerprint(primary, ALL);
    const r = await move(planPhaseSwitch(phase('test4'), phase('test5')));
    expect(outcome(r)).toEqual({ status: 0 });
    expect(await fingerprint(primary, ALL)).toBe(before);
    const inv = schemasOf('mod-inventory-storage');
    expect(await fingerprint(offload, inv)).toBe(await fingerprint(primary, inv));
    const s = schemaName(T0, 'mod-inventory-storage');
    const oai = schemaName(T0, 'mod-oai-pmh');
    expect(
      await count(offload, `SELECT count(*) FROM pg_indexes WHERE schemaname = '${s}' AND indexname IN ('instance_title_idx', 'instance_title_unaccent_idx')`),
    ).toBe(2);
    expect(await count(offload, `SELECT count(*) FROM ${s}.audit_instance WHERE length(payload) > 1000000`)).toBe(2);
    expect(await offload.psql(`SELECT has_table_privilege('${oai}', '${s}.instance', 'SELECT')`, DB)).toBe('t');
    expect(await offload.psql(`SELECT pg_has_role('${oai}', '${s}', 'MEMBER')`, DB)).toBe('t');
    expect(r.out).toContain(`move: granted role ${s} to ${oai}`);
    // The module's role: connection limit, settings and comment (never a password).
    expect(
      await offload.psql(
        `SELECT rolconnlimit || ' ' || (rolpassword IS NULL) || ' ' || shobj_description(oid, 'pg_authid') FROM pg_authid WHERE rolname = '${s}'`,
        DB,
      ),
    ).toBe(`40 true RMB module role of ${T0}`);
    expect(await offload.psql(`SELECT array_to_string(setconfig, ' | ') FROM pg_db_role_setting WHERE setrole = '${s}'::regrole`, DB)).toBe(
      `search_path=${s}, public | statement_timeout=60s`,
    );
    expect(r.out).toContain(`move: created role ${s} (LOGIN, connection limit 40, 2 setting(s), comment, no password)`);
    expect(await offload.psql(`SELECT rolconnlimit FROM pg_roles WHERE rolname = '${T0}_column_reader'`, DB)).toBe('3');
    expect(await offload.psql(`SELECT has_column_privilege('${T0}_column_reader', '${s}.item', 'id', 'SELECT')`, DB)).toBe('t');
    expect(await count(offload, `SELECT count(*) FROM pg_policy WHERE '${T0}_policy_reader'::regrole = ANY (polroles)`)).toBe(1);
    expect(await count(offload, `SELECT count(*) FROM pg_default_acl d, aclexplode(d.defaclacl) x WHERE x.grantee = '${T0}_default_reader'::regrole`)).toBe(1);
    // Statistics are there for the planner the moment the module starts.
    expect(await count(offload, `SELECT count(DISTINCT starelid) FROM pg_statistic WHERE starelid IN ('${s}.instance'::regclass, '${s}.item'::regclass)`)).toBe(
      2,
    );
  }, 60_000);

  test('each verification refuses a tampered copy in a line naming the difference: a changed value with the same count, a dropped index, a moved sequence, a missing grant', async () => {
    const plan = planPhaseSwitch(phase('test4'), phase('test5'));
    const again = await move(plan);
    expect(outcome(again)).toEqual({ status: 0 });
    for (const s of plan.moves[0].schemas)
      expect(again.out).toContain(`move: ${s}: skipped, already copied from primary and its content matches (4 tables, ${5 * ROWS + 2} rows)`);

    const s = schemaName(T0, 'mod-inventory-storage');
    const tampers: [string, string, RegExp][] = [
      [
        `UPDATE ${s}.item SET jsonb = jsonb || '{"tampered": true}' WHERE ctid = (SELECT min(ctid) FROM ${s}.item)`,
        `UPDATE ${s}.item SET jsonb = jsonb - 'tampered'`,
        /table item has the same 80 rows but different content/,
      ],
      [`DROP INDEX ${s}.instance_title_unaccent_idx`, '', /source only: index instance_title_unaccent_idx CREATE INDEX/],
      [
        `SELECT setval('${s}.hrid_instances_seq', 5000)`,
        `SELECT setval('${s}.hrid_instances_seq', ${1000 + ROWS - 1})`,
        /sequence hrid_instances_seq is at 1039 \(is_called t\) on the source, 5000 \(is_called t\) on the target/,
      ],
      [
        `REVOKE SELECT ON ${s}.instance FROM ${schemaName(T0, 'mod-oai-pmh')}`,
        `GRANT SELECT ON ${s}.instance TO ${schemaName(T0, 'mod-oai-pmh')}`,
        /source only: grant r instance to fs09000000_mod_oai_pmh: SELECT/,
      ],
    ];
    for (const [tamper, undo, difference] of tampers) {
      await offload.psql(tamper, DB);
      const refused = await runMover(moverEnvironment(plan.moves[0]));
      expect(refused.status).toBe(1);
      expect(lastLine(refused)).toMatch(
        new RegExp(
          `^move: failed: ${s}: the target \\(offload\\) already holds this schema with \\d+ rows and it differs from the source \\(.*${difference.source}.*\\); pass --replace to set it aside and copy afresh$`,
        ),
      );
      if (undo) await offload.psql(undo, DB);
      else
        await offload.psql(`CREATE INDEX instance_title_unaccent_idx ON ${s}.instance USING gin (${s}.f_unaccent(jsonb ->> 'title') public.gin_trgm_ops)`, DB);
    }
    expect(outcome(await runMover(moverEnvironment(plan.moves[0])))).toEqual({ status: 0 });
  }, 90_000);

  test('the module writing on offload makes its copy differ: a re-run refuses without --replace', async () => {
    const s = schemaName(T0, 'mod-inventory-storage');
    // The module writes on Serverless: the trigger fires, the sequence carries on where the source's stood.
    await offload.psql(`INSERT INTO ${s}.instance (id, jsonb) VALUES (gen_random_uuid(), '{"title": "written on offload"}')`, DB);
    expect(await offload.psql(`SELECT jsonb ->> 'hrid' FROM ${s}.instance WHERE jsonb ->> 'title' = 'written on offload'`, DB)).toBe(`in${1000 + ROWS}`);
    const refused = await move(planPhaseSwitch(phase('test4'), phase('test5')));
    expect(refused.status).toBe(1);
    expect(lastLine(refused)).toMatch(
      new RegExp(
        `^move: failed: ${s}: the target \\(offload\\) already holds this schema with \\d+ rows and it differs from the source \\(.*table instance has 40 rows on the source, 41 on the target.*\\); pass --replace to set it aside and copy afresh$`,
      ),
    );
  }, 60_000);

  describe('writers on the source', () => {
    const s = schemaName(T2, 'mod-orders-storage');
    beforeAll(async () => {
      await primary.psql(
        `CREATE SCHEMA ${s}; CREATE TABLE ${s}.purchase_order (id int PRIMARY KEY, note text); CREATE SEQUENCE ${s}.po_number START 1;
         INSERT INTO ${s}.purchase_order SELECT g, 'po ' || nextval('${s}.po_number') FROM generate_series(1, 20) g`,
        DB,
      );
    });

    test('a session still using the schema is named, and the move refused', async () => {
      const busy = await primary.session(`SELECT count(*), pg_sleep(30) FROM ${s}.purchase_order`, DB, 'mod-orders-storage');
      try {
        const r = await runMover(one(s));
        expect(r.status).toBe(1);
        expect(lastLine(r)).toBe(
          `move: failed: ${s}: still in use on the source: pid ${busy.pid} (postgres, mod-orders-storage); stop the module first, or pass --force`,
        );
        expect(await hasSchema(offload, s)).toBe(false);
      } finally {
        await busy.close();
      }
    }, 30_000);

    test('a lock held elsewhere ends the move after the lock timeout, naming the holder; never a hang', async () => {
      const idle = await primary.session(`BEGIN; INSERT INTO ${s}.purchase_order VALUES (100, 'uncommitted')`, DB, 'orders-idle-writer', 'idle in transaction');
      try {
        const started = Date.now();
        const r = await runMover(one(s, { MOVE_FORCE: 'true' }));
        const seconds = (Date.now() - started) / 1000;
        expect(r.status).toBe(1);
        expect(lastLine(r)).toMatch(
          new RegExp(
            `^move: failed: ${s}: fencing ${s}'s tables against writes on the source \\(primary\\) failed: ERROR:  canceling statement due to lock timeout \\(waited ${LOCK_TIMEOUT_S}s; held by pid ${idle.pid} \\(postgres, orders-idle-writer, idle in transaction\\)\\)$`,
          ),
        );
        expect(seconds).toBeGreaterThanOrEqual(LOCK_TIMEOUT_S);
        expect(seconds).toBeLessThan(LOCK_TIMEOUT_S + 10);
        expect(await hasSchema(offload, s)).toBe(false);
      } finally {
        await idle.close();
      }
    }, 30_000);

    test('writes that arrive during the move (an explicit transaction, a search_path, a nextval) never land: they wait on the fence and are ended, and the copy equals the source', async () => {
      const bg = new Background();
      const writers: Session[] = [];
      let frozen = false;
      const r = await runMover(one(s), (line, child) => {
        if (!line.startsWith(`move: ${s}: fenced`) || frozen) return;
        frozen = true;
        // Frozen just after the fence is up, so the writers meet it.
        group(child, 'SIGSTOP');
        bg.run(async () => {
          writers.push(
            await primary.session(`BEGIN; INSERT INTO ${s}.purchase_order VALUES (201, 'explicit'); COMMIT`, DB, 'writer-transaction', 'waiting on a lock'),
          );
          writers.push(
            await primary.session(
              `SET search_path TO ${s}; INSERT INTO purchase_order VALUES (202, 'search_path')`,
              DB,
              'writer-search-path',
              'waiting on a lock',
            ),
          );
          writers.push(await primary.session(`SELECT nextval('${s}.po_number')`, DB, 'writer-nextval', 'waiting on a lock'));
          group(child, 'SIGCONT');
        });
      });
      await bg.settled();
      expect(r.out).toContain(`move: ${s}: fenced on the source: reads go on, writes wait until the move ends`);
      expect(outcome(r)).toEqual({ status: 0 });
      expect(writers).toHaveLength(3);
      expect(r.out).toContain(`move: ${s}: ended the sessions that tried to write to it on the source during the move, their transactions rolled back: pid `);
      for (const w of writers) {
        const { code, output } = await w.ended;
        expect(code).not.toBe(0);
        expect(output).toMatch(/terminating connection due to administrator command/);
        expect(r.out).toMatch(new RegExp(`ended the sessions .*pid ${w.pid} \\(postgres, writer-`));
      }
      expect(await count(primary, `SELECT count(*) FROM ${s}.purchase_order WHERE id > 200`)).toBe(0);
      expect(await primary.psql(`SELECT last_value FROM ${s}.po_number`, DB)).toBe('20');
      expect(await fingerprint(offload, [s])).toBe(await fingerprint(primary, [s]));
    }, 60_000);

    test('a second mover on the same schema at once is refused, naming the first', async () => {
      const bg = new Background();
      const t = schemaName(T2, 'mod-source-record-manager');
      let second: Run | undefined;
      const first = await runMover(one(t, { MOVE_REPLACE: 'true' }), (line, child) => {
        if (!line.startsWith(`move: ${t}: fenced`) || second) return;
        group(child, 'SIGSTOP');
        bg.run(() =>
          runMover(one(t)).then((r) => {
            second = r;
            group(child, 'SIGCONT');
          }),
        );
      });
      await bg.settled();
      expect(second!.status).toBe(1);
      expect(lastLine(second!)).toMatch(
        new RegExp(`^move: failed: ${t}: another mover is moving it \\(pid \\d+, since \\d\\d:\\d\\d:\\d\\d\\); wait for it or stop it$`),
      );
      expect(outcome(first)).toEqual({ status: 0 });
    }, 60_000);
  });

  test('the configured tenants and the schemas found on the source must agree', async () => {
    const m = planPhaseSwitch(phase('test4'), phase('test5')).moves[0];
    const r = await runMover({ ...moverEnvironment({ ...m, schemas: m.schemas.slice(1) }), MOVE_SCHEMAS: m.schemas.slice(1).join(' ') });
    expect(r.status).toBe(1);
    expect(lastLine(r)).toBe(
      `move: failed: the source's *_mod_inventory_storage schemas and the configured tenants disagree: not configured: ${m.schemas[0]}; not on the source: none`,
    );
  });

  test('reference copies: what data-export reads across the split is copied as a snapshot while its module stays live, and kept when present', async () => {
    const plan = planPhaseSwitch(phase('baseline'), phase('test9'));
    const users = plan.moves.find((x) => x.module === 'mod-users')!;
    expect(users).toMatchObject({ reference: true, from: 'primary', to: 'offload' });
    const live = await primary.session(`SELECT count(*), pg_sleep(20) FROM ${users.schemas[0]}.users`, DB, 'mod-users');
    try {
      const first = await runMover(moverEnvironment(users));
      expect(outcome(first)).toEqual({ status: 0 });
      expect(first.out).toContain(`move: ${users.schemas[0]}: copying a snapshot while the module stays live on the source`);
      expect(first.out).not.toContain('fenced');
    } finally {
      await live.close();
    }
    expect(await fingerprint(offload, users.schemas)).toBe(await fingerprint(primary, users.schemas));
    await primary.psql(`INSERT INTO ${users.schemas[0]}.users VALUES (gen_random_uuid(), '{"username": "later"}')`, DB);
    const again = await runMover(moverEnvironment(users));
    expect(again.out).toContain(`move: ${users.schemas[0]}: kept the target's existing copy (10 rows), a reference copy for reads across the split`);
  }, 60_000);

  describe('killed at every step, a re-run without --replace ends with an exact copy, sets nothing aside, and the source stays as it was', () => {
    const exportPlan = () => planPhaseSwitch(phase('baseline'), phase('test9')).moves.find((x) => x.module === 'mod-data-export')!;
    /** A schema of its own per kill: a Spring module's shape. */
    async function fresh(name: string): Promise<{ s: string; env: Record<string, string> }> {
      const s = `${T0}_mod_${name}`;
      await primary.psql(
        `CREATE SCHEMA ${s}; CREATE TABLE ${s}.databasechangelog (id varchar(255) NOT NULL, orderexecuted int NOT NULL);
         CREATE TABLE ${s}.job_profiles (id int PRIMARY KEY, name text NOT NULL); CREATE SEQUENCE ${s}.job_number;
         INSERT INTO ${s}.databasechangelog SELECT 'change-' || g, g FROM generate_series(1, 5) g;
         INSERT INTO ${s}.job_profiles SELECT g, 'profile ' || nextval('${s}.job_number') FROM generate_series(1, 100) g`,
        DB,
      );
      return { s, env: one(s) };
    }
    const asideCount = () => count(offload, "SELECT count(*) FROM pg_namespace WHERE nspname LIKE '%\\_replaced\\_%'");

    async function rerunIsExact(env: Record<string, string>, schemas: readonly string[], before: string, expected: RegExp): Promise<void> {
      expect(await fingerprint(primary, ALL)).toBe(before);
      const again = await runMover(env);
      expect(outcome(again)).toEqual({ status: 0 });
      expect(again.out).toMatch(expected);
      expect(await fingerprint(offload, schemas)).toBe(await fingerprint(primary, schemas));
      expect(await fingerprint(primary, ALL)).toBe(before);
      expect(await asideCount()).toBe(0);
    }

    test('during the restore (pg_restore waiting on the target)', async () => {
      const { s, env } = await fresh('kill_restore');
      const before = await fingerprint(primary, ALL);
      const blocker = await offload.session(`BEGIN; CREATE SCHEMA ${s}`, DB, 'restore-blocker', 'idle in transaction');
      const r = await killedOnceWaiting(env, (line) => line.startsWith(`move: ${s}: fenced`), offload);
      await blocker.close();
      expect(r.status).toBeNull();
      expect(await hasSchema(offload, s)).toBe(false);
      await rerunIsExact(env, [s], before, new RegExp(`move: ${s}: copied and verified`));
    }, 60_000);

    test('after the restore committed, before the copy was recorded as verified', async () => {
      const { s, env } = await fresh('kill_record');
      const before = await fingerprint(primary, ALL);
      const r = await runMover(env, (line, child) => {
        if (line === `move: ${s}: restored on the target, verifying`) group(child, 'SIGKILL');
      });
      expect(r.status).toBeNull();
      expect(await state(s)).toBe('copying');
      await rerunIsExact(env, [s], before, new RegExp(`move: ${s}: copied and verified by an earlier run that stopped before recording it`));
      expect(await state(s)).toBe('verified');
    }, 60_000);

    test('during the verification (its checksum waiting on the target)', async () => {
      const { s, env } = await fresh('kill_verify');
      const before = await fingerprint(primary, ALL);
      const r = await killedWhileWaiting(
        env,
        (line) => line === `move: ${s}: restored on the target, verifying`,
        `BEGIN; LOCK TABLE ${s}.job_profiles IN ACCESS EXCLUSIVE MODE`,
      );
      expect(r.status).toBeNull();
      await rerunIsExact(env, [s], before, new RegExp(`move: ${s}: copied and verified by an earlier run`));
    }, 60_000);

    test('after the copy was recorded as verified', async () => {
      const m = exportPlan();
      const before = await fingerprint(primary, ALL);
      // The schemas move side by side: whichever is recorded first is the one the kill follows.
      let recorded: string | undefined;
      const first = await runMover(moverEnvironment(m), (line, child) => {
        const done = /^move: (\S+): copied and verified, /.exec(line);
        if (!recorded && done) {
          recorded = done[1];
          group(child, 'SIGKILL');
        }
      });
      expect(m.schemas).toContain(recorded);
      expect(first.status).toBeNull();
      await rerunIsExact(moverEnvironment(m), m.schemas, before, new RegExp(`move: ${recorded}: skipped, already copied`));
      // Liquibase's bookkeeping came along: the module will not re-run its migrations.
      expect(await count(offload, `SELECT count(*) FROM ${m.schemas[2]}.databasechangelog`)).toBe(5);
    }, 60_000);
  });

  describe('every failure names its cause in one line', () => {
    const s = schemaName(T1, 'mod-orders-storage');
    beforeAll(() =>
      primary.psql(
        `CREATE SCHEMA ${s}; CREATE TABLE ${s}.purchase_order (id int PRIMARY KEY); INSERT INTO ${s}.purchase_order SELECT generate_series(1, 10)`,
        DB,
      ),
    );

    test('pg_restore killed', async () => {
      const bg = new Background();
      const blocker = await offload.session(`BEGIN; CREATE SCHEMA ${s}`, DB, 'restore-blocker', 'idle in transaction');
      const r = await runMover(one(s), (line, child) => {
        if (line.startsWith(`move: ${s}: fenced`))
          bg.run(() => eventually('pg_restore to wait', () => moverWaits(offload)).then(() => process.kill(inGroup(child, 'pg_restore'), 'SIGKILL')));
      });
      await bg.settled();
      await blocker.close();
      expect(r.status).toBe(1);
      expect(lastLine(r)).toBe(
        `move: failed: ${s}: pg_restore into the target (offload, 127.0.0.1:${offload.port}) failed, nothing of it was kept: pg_restore was killed (signal 9)`,
      );
    }, 30_000);

    test('the target crashing mid-restore', async () => {
      const bg = new Background();
      const blocker = await offload.session(`BEGIN; CREATE SCHEMA ${s}`, DB, 'restore-blocker', 'idle in transaction');
      const r = await runMover(one(s), (line) => {
        if (line.startsWith(`move: ${s}: fenced`))
          bg.run(() => eventually('pg_restore to wait', () => moverWaits(offload)).then(() => offload.halt('immediate')));
      });
      await bg.settled();
      await blocker.close();
      await offload.start();
      expect(r.status).toBe(1);
      expect(lastLine(r)).toMatch(
        new RegExp(
          `^move: failed: ${s}: pg_restore into the target \\(offload, 127.0.0.1:${offload.port}\\) failed, nothing of it was kept: .*(server closed the connection unexpectedly|terminating connection)`,
        ),
      );
      const again = await runMover(one(s));
      expect(outcome(again)).toEqual({ status: 0 });
      expect(await fingerprint(offload, [s])).toBe(await fingerprint(primary, [s]));
    }, 60_000);

    test('the source unreachable', async () => {
      const r = await runMover(one(s, { PRIMARY_PORT: '1' }));
      expect(r.status).toBe(1);
      expect(lastLine(r)).toMatch(
        /^move: failed: cannot connect to the source \(primary, 127\.0\.0\.1:1\): connection to server at "127\.0\.0\.1", port 1 failed: Connection refused/,
      );
    });
  });

  test('test5 -> baseline with --replace: stale copies set aside, never dropped; views elsewhere re-created with their options, materialized views with their data, and none left reading a set-aside schema', async () => {
    const s = schemaName(T0, 'mod-inventory-storage');
    const exp = schemaName(T0, 'mod-data-export');
    const refused = await move(planPhaseSwitch(phase('test5'), phase('baseline')));
    expect(refused.status).toBe(1);
    expect(refused.out).toContain('pass --replace');
    const r = await move(planPhaseSwitch(phase('test5'), phase('baseline')), { replace: true });
    expect(r.out).toContain('move: done: 3 schema(s), copy from offload to primary');
    expect(outcome(r)).toEqual({ status: 0 });
    // The row written on Serverless during test5 is back on the primary cluster, and
    // data-export's views there read it.
    expect(await count(primary, `SELECT count(*) FROM ${exp}.v_instance WHERE title = 'written on offload'`)).toBe(1);
    expect(await count(primary, `SELECT count(*) FROM ${exp}.v_instance_checked WHERE jsonb ->> 'title' = 'written on offload'`)).toBe(1);
    expect(
      await primary.psql(
        `SELECT array_to_string(reloptions, ',') FROM pg_class WHERE oid IN ('${exp}.v_instance_guarded'::regclass, '${exp}.v_instance_checked'::regclass) ORDER BY relname`,
        DB,
      ),
    ).toBe('check_option=cascaded\nsecurity_barrier=true');
    expect(await count(primary, `SELECT items FROM ${exp}.mv_item_counts`)).toBe(2 * ROWS);
    const aside = await primary.psql(`SELECT nspname FROM pg_namespace WHERE nspname LIKE '${s}_replaced_%'`, DB);
    expect(aside).toMatch(new RegExp(`^${s}_replaced_\\d{14}$`));
    // Only the copy that differs is set aside: the others were identical, and are recorded as verified.
    expect(await count(primary, `SELECT count(*) FROM pg_namespace WHERE nspname LIKE '%\\_replaced\\_%'`)).toBe(1);
    expect(refused.out).toContain(
      `move: ${schemaName(T0, 'mod-source-record-manager')}: skipped, the target already holds an identical copy that no mover recorded; recorded it as verified`,
    );
    expect(r.out).toMatch(new RegExp(`move: ${s}: re-created the views of other schemas that read it over the fresh copy: .*${exp}\\.v_unaccented`));
    // Nothing outside a set-aside copy depends on it (the view over its function included), so
    // dropping it drops nothing live.
    for (const dependent of ['v_instance', 'v_instance_guarded', 'v_instance_checked', 'mv_item_counts', 'v_unaccented'])
      expect(
        await count(
          primary,
          `SELECT count(*) FROM pg_depend d JOIN pg_rewrite rw ON rw.oid = d.objid AND d.classid = 'pg_rewrite'::regclass
           WHERE rw.ev_class = '${exp}.${dependent}'::regclass AND ((d.refclassid = 'pg_class'::regclass AND d.refobjid IN (SELECT oid FROM pg_class WHERE relnamespace = '${aside}'::regnamespace))
             OR (d.refclassid = 'pg_proc'::regclass AND d.refobjid IN (SELECT oid FROM pg_proc WHERE pronamespace = '${aside}'::regnamespace)))`,
        ),
      ).toBe(0);
    const views = () =>
      primary.psql(`SELECT string_agg(relname, ' ' ORDER BY relname) FROM pg_class WHERE relnamespace = '${exp}'::regnamespace AND relkind IN ('v', 'm')`, DB);
    const live = await views();
    await primary.psql(`DROP SCHEMA ${aside} CASCADE`, DB);
    expect(await views()).toBe(live);
    expect(await primary.psql(`SELECT word FROM ${exp}.v_unaccented`, DB)).toBe('Angstrom');
  }, 90_000);

  test('--replace killed between setting the old copy aside and the restore: a re-run without --replace finishes and re-points the views', async () => {
    // The module wrote on the primary cluster again since: its copy on Serverless is stale.
    const s = schemaName(T1, 'mod-inventory-storage');
    const exp = schemaName(T1, 'mod-data-export');
    await primary.psql(`INSERT INTO ${s}.instance (id, jsonb) VALUES (gen_random_uuid(), '{"title": "back on primary"}')`, DB);
    const env = { ...moverEnvironment(planPhaseSwitch(phase('test4'), phase('test5')).moves[0]), MOVE_SCHEMAS: s, MOVE_SUFFIX: '', MOVE_REPLACE: 'true' };
    await offload.psql(
      `CREATE SCHEMA IF NOT EXISTS ${exp}; CREATE VIEW ${exp}.v_titles WITH (security_barrier) AS SELECT jsonb ->> 'title' AS title FROM ${s}.instance`,
      DB,
    );
    const r = await killedWhileWaiting(env, (line) => line.startsWith(`move: ${s}: set the target's copy aside as`), `BEGIN; CREATE SCHEMA ${s}`);
    expect(r.status).toBeNull();
    expect(await hasSchema(offload, s)).toBe(false);
    const again = await runMover({ ...env, MOVE_REPLACE: 'false' });
    expect(outcome(again)).toEqual({ status: 0 });
    expect(again.out).toMatch(new RegExp(`move: ${s}: re-created the views of other schemas that read it over the fresh copy: .*${exp}\\.v_titles`));
    expect(await count(offload, `SELECT count(*) FROM ${exp}.v_titles WHERE title = 'back on primary'`)).toBe(1);
    expect(await offload.psql(`SELECT array_to_string(reloptions, ',') FROM pg_class WHERE oid = '${exp}.v_titles'::regclass`, DB)).toBe(
      'security_barrier=true',
    );
    expect(await count(offload, `SELECT count(*) FROM pg_namespace WHERE nspname LIKE '${s}_replaced_%'`)).toBe(1);
  }, 60_000);

  describe('--drop-source', () => {
    test('refuses without a verified copy, while other schemas read it, or once the source changed by content since the copy', async () => {
      const never = schemaName(T0, 'mod-orders-storage');
      await primary.psql(`CREATE SCHEMA ${never}`, DB);
      expect(lastLine(await runMover(one(never, { MOVE_ACTION: 'drop-source' })))).toBe(
        `move: failed: ${never}: the target (offload) has no verified copy from primary; move it first`,
      );

      const srs = schemaName(T0, 'mod-source-record-storage');
      const read = await runMover(one(srs, { MOVE_ACTION: 'drop-source' }));
      expect(lastLine(read)).toMatch(new RegExp(`^move: failed: ${srs}: views of other schemas on the source still read it: .*v_instance`));

      const srm = schemaName(T0, 'mod-source-record-manager');
      // Three rows updated on the source after the copy: same count, different content.
      await primary.psql(
        `UPDATE ${srm}.journal_records SET action_type = 'UPDATE' WHERE id IN (SELECT id FROM ${srm}.journal_records ORDER BY id LIMIT 3)`,
        DB,
      );
      const differs = await runMover(one(srm, { MOVE_ACTION: 'drop-source' }));
      expect(lastLine(differs)).toBe(
        `move: failed: ${srm}: the source changed since its copy was verified (table journal_records has the same 40 rows but different content); refusing to drop it`,
      );
      expect(await hasSchema(primary, srm)).toBe(true);
    }, 60_000);

    test('killed while dropping, a re-run drops only the source; the verified copy stays', async () => {
      const srm = schemaName(T0, 'mod-source-record-manager');
      expect(outcome(await runMover(one(srm, { MOVE_REPLACE: 'true' })))).toEqual({ status: 0 });
      // A reader that the fence lets through, and the drop must wait for (--force: it is a session on the schema).
      const reader = await primary.session(`BEGIN; SELECT count(*) FROM ${srm}.job_execution`, DB, 'drop-reader', 'idle in transaction');
      const r = await killedOnceWaiting(
        one(srm, { MOVE_ACTION: 'drop-source', MOVE_FORCE: 'true' }),
        (line) => line === `move: ${srm}: the source still matches the verified copy; dropping it`,
        primary,
      );
      await reader.close();
      expect(r.status).toBeNull();
      expect(await hasSchema(primary, srm)).toBe(true);
      const dropped = await runMover(one(srm, { MOVE_ACTION: 'drop-source' }));
      expect(lastLine(dropped)).toBe('move: done: 1 schema(s), drop-source from primary to offload');
      expect(dropped.out).toContain(`move: ${srm}: dropped from the source (primary) after matching the verified copy, 2 tables, ${ROWS + 10} rows`);
      expect(await hasSchema(primary, srm)).toBe(false);
      expect(await count(offload, `SELECT count(*) FROM ${srm}.journal_records`)).toBe(ROWS);
      const again = await runMover(one(srm, { MOVE_ACTION: 'drop-source' }));
      expect(again.out).toContain(`move: ${srm}: skipped, not on the source (primary)`);
    }, 60_000);
  });

  test('60 tenants (PERF-1334): test4 -> test5 moves mod-inventory-storage in every tenant, each schema verified, the source untouched', async () => {
    const DB60 = 'folio60';
    const tenants = Array.from({ length: 60 }, (_, i) => `fs${String(9100000 + i).padStart(8, '0')}`);
    const sixty = editedCatalog((c) => (c.folio.environment.tenants = tenants));
    const at = (name: string) => resolveScenario({ scenario: name }, sixty) as FolioScenario;
    const plan = planPhaseSwitch(at('test4'), at('test5'));
    expect(plan.moves.map((m) => [m.module, m.schemas.length])).toEqual([['mod-inventory-storage', 60]]);
    for (const pg of [primary, offload]) await pg.psql(`CREATE DATABASE ${DB60}`);
    // Small per tenant: the cost that grows here is per schema, not per row.
    await primary.psql(folioSeedSql(tenants, 3, { partitions: 2, largeValues: 0 }), DB60);
    const schemas = plan.moves[0].schemas;
    const before = await fingerprint(primary, schemas, DB60);
    const r = await runMover({ ...moverEnvironment(plan.moves[0]), PGDATABASE: DB60 });
    expect(outcome(r)).toEqual({ status: 0 });
    expect(r.out.match(/: copied and verified, \d+ tables, \d+ rows/g)).toHaveLength(60);
    expect(lastLine(r)).toBe('move: done: 60 schema(s), copy from primary to offload');
    expect(await offload.psql("SELECT count(*) FROM folio_mover.moves WHERE state = 'verified' AND content IS NOT NULL", DB60)).toBe('60');
    expect(await fingerprint(primary, schemas, DB60)).toBe(before);
    expect(await fingerprint(offload, schemas, DB60)).toBe(before);
  }, 300_000);

  test('a batch (one fence, one dump) whose second schema is tampered with on the target fails naming that schema; the next run copies it afresh and verifies all 60', async () => {
    const DB = 'folio60b';
    const tenants = Array.from({ length: 60 }, (_, i) => `fs${String(9200000 + i).padStart(8, '0')}`);
    const at = (name: string) =>
      resolveScenario(
        { scenario: name },
        editedCatalog((c) => (c.folio.environment.tenants = tenants)),
      ) as FolioScenario;
    const plan = planPhaseSwitch(at('test4'), at('test5'));
    for (const pg of [primary, offload]) await pg.psql(`CREATE DATABASE ${DB}`);
    await primary.psql(folioSeedSql(tenants, 3, { partitions: 2, largeValues: 0 }), DB);
    const schemas = plan.moves[0].schemas;
    const before = await fingerprint(primary, schemas, DB);
    // Batches are known by their fence session: every schema of one is fenced by the same pid.
    const byFence = new Map<string, string[]>();
    const restored = new Set<string>();
    let tampered: string | undefined;
    let done: Promise<unknown> | undefined;
    const r = await runMover({ ...moverEnvironment(plan.moves[0]), PGDATABASE: DB }, (line, child) => {
      const fenced = /^move: (\S+): fenced on the source: .*\(fence session pid (\d+)\)$/.exec(line);
      if (fenced) byFence.set(fenced[2], [...(byFence.get(fenced[2]) ?? []), fenced[1]]);
      const first = /^move: (\S+): restored on the target, verifying$/.exec(line);
      if (!first || done) return;
      restored.add(first[1]);
      // Another schema of the same batch: restored by the same dump, not yet verified.
      tampered = [...byFence.values()].find((b) => b.includes(first[1]))!.find((x) => x !== first[1]);
      group(child, 'SIGSTOP');
      done = offload
        .psql(`UPDATE ${tampered}.instance SET jsonb = jsonb || '{"tampered": true}' WHERE id = (SELECT min(id::text)::uuid FROM ${tampered}.instance)`, DB)
        .finally(() => group(child, 'SIGCONT'));
    });
    await done;
    expect(tampered).toBeDefined();
    expect(r.status).toBe(1);
    expect(lastLine(r)).toMatch(
      new RegExp(`^move: failed: ${tampered}: the copy differs from the source: table instance has the same \\d+ rows but different content`),
    );
    expect(await fingerprint(primary, schemas, DB)).toBe(before);
    const again = await runMover({ ...moverEnvironment(plan.moves[0]), PGDATABASE: DB });
    expect(outcome(again)).toEqual({ status: 0 });
    expect(again.out).toContain(`move: ${tampered}: set the target's copy aside as ${tampered}_replaced_`);
    expect(await offload.psql("SELECT count(*) FROM folio_mover.moves WHERE state = 'verified' AND content IS NOT NULL", DB)).toBe('60');
    expect(await fingerprint(offload, schemas, DB)).toBe(before);
    expect(await fingerprint(primary, schemas, DB)).toBe(before);
  }, 300_000);
});
