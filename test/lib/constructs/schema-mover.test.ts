import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { type FolioScenario, resolveScenario } from '../../../config';
import { type MoveFlags, type MovePlan, moverEnvironment, planModuleMove, planPhaseSwitch, schemaName } from '../../../lib/commands/move/plan';
import { folioSeedSql } from '../../support/folio-data';
import { type Postgres, startPostgres } from '../../support/postgres';
import { editedCatalog } from '../../support/catalog';

/*
 * The mover's own script, the one the stack's task runs, moving FOLIO-shaped schemas
 * between two real PostgreSQL servers (provisioned and serverless stand-ins): phase switches
 * test4 -> test5 and back to baseline, the refusals, and a move killed half-way then re-run.
 */

const SCRIPT = join(__dirname, '../../../lib/constructs/schema-mover/move.sh');
const TENANTS = ['fs09000000', 'fs09000001', 'fs09000002'];
const ROWS = 40;
const DB = 'folio';
const catalog = editedCatalog((c) => (c.folio.environment.tenants = TENANTS));
const phase = (name: string) => resolveScenario({ scenario: name }, catalog) as FolioScenario;

let provisioned: Postgres;
let serverless: Postgres;

interface Run {
  readonly status: number | null;
  readonly out: string;
}

function runMover(env: Record<string, string>, onLine?: (line: string, child: ChildProcess) => void): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn('sh', [SCRIPT], {
      detached: true,
      env: {
        PATH: `${provisioned.bin}:${process.env.PATH}`,
        PROVISIONED_HOST: '127.0.0.1',
        PROVISIONED_PORT: String(provisioned.port),
        SERVERLESS_HOST: '127.0.0.1',
        SERVERLESS_PORT: String(serverless.port),
        PGUSER: provisioned.user,
        PGPASSWORD: provisioned.password,
        PGDATABASE: DB,
        ...env,
      },
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      for (const line of String(d).split('\n')) if (line) onLine?.(line, child);
    });
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (status) => resolve({ status, out }));
  });
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

/** Every table's row count and a digest of its rows, per schema: what "untouched" means. */
async function fingerprint(pg: Postgres, schemas: readonly string[]): Promise<string> {
  const list = schemas.map((s) => `'${s}'`).join(',');
  const q = await pg.psql(
    `SELECT string_agg(format('SELECT %L, count(*), md5(coalesce(string_agg(t::text, '','' ORDER BY t::text), '''')) FROM %I.%I t', n.nspname || '.' || c.relname, n.nspname, c.relname), ' UNION ALL ' ORDER BY 1)
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN (${list}) AND c.relkind = 'r'`,
    DB,
  );
  const rows = await pg.psql(`${q} ORDER BY 1`, DB);
  const shape = await pg.psql(`SELECT n.nspname, c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN (${list}) ORDER BY 1, 2`, DB);
  return `${rows}\n${shape}`;
}

const schemasOf = (module: string) => TENANTS.map((t) => schemaName(t, module));
const count = (pg: Postgres, sql: string) => pg.psql(sql, DB).then(Number);
const ALL = ['mod-inventory-storage', 'mod-source-record-storage', 'mod-source-record-manager', 'mod-data-export', 'mod-users'].flatMap(schemasOf);

beforeAll(async () => {
  [provisioned, serverless] = await Promise.all([startPostgres(), startPostgres()]);
  for (const pg of [provisioned, serverless]) await pg.psql(`CREATE DATABASE ${DB}`);
  await provisioned.psql(folioSeedSql(TENANTS, ROWS), DB);
}, 60_000);

afterAll(async () => {
  await Promise.all([provisioned?.stop(), serverless?.stop()]);
});

describe('the plan is derived from the two phases and the tenants', () => {
  test('test4 -> test5 moves mod-inventory-storage to Serverless in every tenant, and restarts it', () => {
    const plan = planPhaseSwitch(phase('test4'), phase('test5'));
    expect(plan.moves).toEqual([
      { module: 'mod-inventory-storage', reference: false, framework: 'rmb', from: 'provisioned', to: 'serverless', suffix: '_mod_inventory_storage', schemas: schemasOf('mod-inventory-storage') },
    ]);
    expect(plan.restart).toEqual(['mod-inventory-storage']);
  });

  test('test10 -> baseline brings seven modules back, each after the schemas its views read', () => {
    const order = planPhaseSwitch(phase('test10'), phase('baseline')).moves.map((m) => m.module);
    expect(order.sort()).toEqual(['mod-data-export', 'mod-fqm-manager', 'mod-inventory-storage', 'mod-lists', 'mod-orders-storage', 'mod-source-record-manager', 'mod-source-record-storage'].sort());
    const at = (m: string) => planPhaseSwitch(phase('test10'), phase('baseline')).moves.findIndex((x) => x.module === m);
    for (const reader of ['mod-data-export', 'mod-fqm-manager']) {
      expect(at(reader)).toBeGreaterThan(at('mod-inventory-storage'));
      expect(at(reader)).toBeGreaterThan(at('mod-source-record-storage'));
    }
    expect(at('mod-fqm-manager')).toBeGreaterThan(at('mod-orders-storage'));
  });

  test('test9 -> test10: FQM moves, with reference copies of every schema it reads across the split, first', () => {
    const plan = planPhaseSwitch(phase('test9'), phase('test10'));
    const references = plan.moves.filter((m) => m.reference);
    expect(references.map((m) => m.module).sort()).toEqual(['mod-agreements', 'mod-circulation-storage', 'mod-finance-storage', 'mod-invoice-storage', 'mod-linked-data', 'mod-oa', 'mod-organizations-storage', 'mod-settings', 'mod-tags', 'mod-users']);
    for (const r of references) expect(r).toMatchObject({ from: 'provisioned', to: 'serverless' });
    const fqm = plan.moves.findIndex((m) => m.module === 'mod-fqm-manager');
    expect(plan.moves.slice(0, fqm).filter((m) => m.reference)).toHaveLength(references.length);
    expect(plan.restart).toEqual(['mod-lists', 'mod-fqm-manager']);
    expect(moverEnvironment(references[0]).MOVE_KEEP_EXISTING).toBe('true');
  });

  test('phases with the same routing move nothing', () => {
    expect(planPhaseSwitch(phase('test11'), phase('test12')).moves).toEqual([]);
  });

  test('one module moved by hand is refused when it would split reads the phase does not acknowledge, in the synth-time words', () => {
    expect(() => planModuleMove(phase('test4'), 'mod-data-export', 'serverless')).toThrow(
      /moving mod-data-export to serverless is refused: mod-data-export \(on serverless\) reads schemas that are on the other cluster: mod-inventory-storage, mod-users; route them together or add \{module: 'mod-data-export', readsFrom: \[\.\.\.\], reason\} to crossSchemaAcks/,
    );
    expect(planModuleMove(phase('test4'), 'mod-lists', 'serverless').moves.map((m) => m.module)).toEqual(['mod-lists']);
  });
});

describe('moving for real between two PostgreSQL servers', () => {
  test('baseline -> test1: SRM and SRS copied with their roles, rows and objects; the source untouched', async () => {
    const before = await fingerprint(provisioned, ALL);
    const r = await move(planPhaseSwitch(phase('baseline'), phase('test1')));
    expect(r.out).toContain('move: done: 3 schema(s), copy from provisioned to serverless');
    expect(r.status).toBe(0);
    expect(await fingerprint(provisioned, ALL)).toBe(before);
    const moved = [...schemasOf('mod-source-record-manager'), ...schemasOf('mod-source-record-storage')];
    expect(await fingerprint(serverless, moved)).toBe(await fingerprint(provisioned, moved));
    for (const s of moved) {
      expect(await serverless.psql(`SELECT nspowner::regrole FROM pg_namespace WHERE nspname = '${s}'`, DB)).toBe(s);
      expect(await serverless.psql(`SELECT rolcanlogin FROM pg_roles WHERE rolname = '${s}'`, DB)).toBe('t');
    }
  }, 60_000);

  test('test4 -> test5: inventory with its sequence, trigger, index, grants and the role mod-oai-pmh is granted', async () => {
    const before = await fingerprint(provisioned, ALL);
    const r = await move(planPhaseSwitch(phase('test4'), phase('test5')));
    expect(r.status).toBe(0);
    expect(await fingerprint(provisioned, ALL)).toBe(before);
    const inv = schemasOf('mod-inventory-storage');
    expect(await fingerprint(serverless, inv)).toBe(await fingerprint(provisioned, inv));
    const [t] = TENANTS;
    const s = schemaName(t, 'mod-inventory-storage');
    const oai = schemaName(t, 'mod-oai-pmh');
    expect(await count(serverless, `SELECT count(*) FROM pg_indexes WHERE schemaname = '${s}' AND indexname = 'instance_title_idx'`)).toBe(1);
    expect(await serverless.psql(`SELECT has_table_privilege('${oai}', '${s}.instance', 'SELECT')`, DB)).toBe('t');
    expect(await serverless.psql(`SELECT pg_has_role('${oai}', '${s}', 'MEMBER')`, DB)).toBe('t');
    expect(r.out).toContain(`move: ${s}: granted role ${s} to ${oai}`);
  }, 60_000);

  test('a finished move is skipped when run again; a changed target is refused without --replace', async () => {
    const again = await move(planPhaseSwitch(phase('test4'), phase('test5')));
    expect(again.status).toBe(0);
    for (const s of schemasOf('mod-inventory-storage')) expect(again.out).toContain(`move: ${s}: skipped, already copied from provisioned and every table's rows match`);
    const s = schemaName(TENANTS[0], 'mod-inventory-storage');
    // The module writes on Serverless: the trigger fires, the sequence carries on where the source's stood.
    await serverless.psql(`INSERT INTO ${s}.instance (id, jsonb) VALUES (gen_random_uuid(), '{"title": "written on serverless"}')`, DB);
    expect(await serverless.psql(`SELECT jsonb ->> 'hrid' FROM ${s}.instance WHERE jsonb ->> 'title' = 'written on serverless'`, DB)).toBe(`in${1000 + ROWS}`);
    const refused = await move(planPhaseSwitch(phase('test4'), phase('test5')));
    expect(refused.status).toBe(1);
    expect(refused.out.trim().split('\n').at(-1)).toMatch(new RegExp(`^move: failed: ${s}: the target \\(serverless\\) already holds this schema with \\d+ rows; pass --replace to set it aside and copy afresh$`));
  }, 60_000);

  test('a move refuses while a session on the source still uses the schema, naming it', async () => {
    const s = schemaName(TENANTS[1], 'mod-orders-storage');
    await provisioned.psql(`CREATE SCHEMA ${s}; CREATE TABLE ${s}.purchase_order (id int PRIMARY KEY); INSERT INTO ${s}.purchase_order VALUES (1)`, DB);
    const busy = await provisioned.session(`SELECT count(*), pg_sleep(30) FROM ${s}.purchase_order`, DB, 'mod-orders-storage');
    try {
      const r = await runMover({ MOVE_FROM: 'provisioned', MOVE_TO: 'serverless', MOVE_SCHEMAS: s });
      expect(r.status).toBe(1);
      expect(r.out.trim().split('\n').at(-1)).toMatch(new RegExp(`^move: failed: ${s}: still in use on the source: pid \\d+ \\(postgres, mod-orders-storage\\); stop the module first, or pass --force$`));
      expect(await count(serverless, `SELECT count(*) FROM pg_namespace WHERE nspname = '${s}'`)).toBe(0);
    } finally {
      busy.close();
    }
  }, 30_000);

  test('the configured tenants and the schemas found on the source must agree', async () => {
    const m = planPhaseSwitch(phase('test4'), phase('test5')).moves[0];
    const r = await runMover({ ...moverEnvironment({ ...m, schemas: m.schemas.slice(1) }), MOVE_SCHEMAS: m.schemas.slice(1).join(' ') });
    expect(r.status).toBe(1);
    expect(r.out.trim().split('\n').at(-1)).toBe(`move: failed: the source's *_mod_inventory_storage schemas and the configured tenants disagree: not configured: ${m.schemas[0]}; not on the source: none`);
  });

  test('reference copies: what data-export reads across the split is copied as a snapshot while its module stays live, and kept when present', async () => {
    const plan = planPhaseSwitch(phase('baseline'), phase('test9'));
    const users = plan.moves.find((x) => x.module === 'mod-users')!;
    expect(users).toMatchObject({ reference: true, from: 'provisioned', to: 'serverless' });
    const live = await provisioned.session(`SELECT count(*), pg_sleep(20) FROM ${users.schemas[0]}.users`, DB, 'mod-users');
    try {
      const first = await runMover(moverEnvironment(users));
      expect(first.status).toBe(0);
      expect(first.out).toContain(`move: ${users.schemas[0]}: copying a snapshot while the module stays live on the source`);
    } finally {
      live.close();
    }
    expect(await fingerprint(serverless, users.schemas)).toBe(await fingerprint(provisioned, users.schemas));
    await provisioned.psql(`INSERT INTO ${users.schemas[0]}.users VALUES (gen_random_uuid(), '{"username": "later"}')`, DB);
    const again = await runMover(moverEnvironment(users));
    expect(again.out).toContain(`move: ${users.schemas[0]}: kept the target's existing copy (10 rows), a reference copy for reads across the split`);
  }, 60_000);

  test('a move killed half-way leaves the source intact and finishes when run again', async () => {
    const m = planPhaseSwitch(phase('baseline'), phase('test9')).moves.find((x) => x.module === 'mod-data-export')!;
    const before = await fingerprint(provisioned, ALL);
    let killed = false;
    const first = await runMover(moverEnvironment(m), (line, child) => {
      if (!killed && line.includes(': copied and verified')) {
        killed = true;
        process.kill(-child.pid!, 'SIGKILL');
      }
    });
    expect(killed).toBe(true);
    expect(first.status).toBeNull();
    expect(await fingerprint(provisioned, ALL)).toBe(before);
    const again = await runMover(moverEnvironment(m));
    expect(again.status).toBe(0);
    expect(again.out).toContain(`move: ${m.schemas[0]}: skipped`);
    expect(await fingerprint(serverless, m.schemas)).toBe(await fingerprint(provisioned, m.schemas));
    // Liquibase's bookkeeping came along: the module will not re-run its migrations.
    expect(await count(serverless, `SELECT count(*) FROM ${m.schemas[2]}.databasechangelog`)).toBe(5);
  }, 60_000);

  test('test5 -> baseline with --replace: the stale copies set aside, never dropped; the views that read them re-pointed at the fresh data', async () => {
    const s = schemaName(TENANTS[0], 'mod-inventory-storage');
    const view = `${schemaName(TENANTS[0], 'mod-data-export')}.v_instance`;
    const refused = await move(planPhaseSwitch(phase('test5'), phase('baseline')));
    expect(refused.status).toBe(1);
    expect(refused.out).toContain('pass --replace');
    const r = await move(planPhaseSwitch(phase('test5'), phase('baseline')), { replace: true });
    expect(r.out).toContain('move: done: 3 schema(s), copy from serverless to provisioned');
    expect(r.status).toBe(0);
    // The row written on Serverless during test5 is back on the provisioned cluster, and
    // data-export's view there reads it.
    expect(await count(provisioned, `SELECT count(*) FROM ${view} WHERE title = 'written on serverless'`)).toBe(1);
    expect(await count(provisioned, `SELECT count(*) FROM pg_namespace WHERE nspname LIKE '${s}_replaced_%'`)).toBe(1);
    expect(await count(provisioned, `SELECT count(*) FROM pg_namespace WHERE nspname LIKE '%_replaced_%'`)).toBe(9);
    expect(r.out).toContain(`move: ${s}: re-created the views of other schemas that read it over the fresh copy: ${view}`);
  }, 60_000);

  test('--drop-source refuses without a verified copy, while other schemas read it, or once the copy differs; then drops only the source', async () => {
    const env = (schema: string, extra: Record<string, string> = {}) => ({ MOVE_FROM: 'provisioned', MOVE_TO: 'serverless', MOVE_SCHEMAS: schema, ...extra });
    const lastLine = (r: Run) => r.out.trim().split('\n').at(-1);
    const never = schemaName(TENANTS[1], 'mod-orders-storage');
    expect(lastLine(await runMover(env(never, { MOVE_ACTION: 'drop-source' })))).toBe(`move: failed: ${never}: the target (serverless) has no verified copy from provisioned; move it first`);

    const srs = schemaName(TENANTS[0], 'mod-source-record-storage');
    const read = await runMover(env(srs, { MOVE_ACTION: 'drop-source' }));
    expect(lastLine(read)).toMatch(new RegExp(`^move: failed: ${srs}: views of other schemas on the source still read it: .*v_instance`));

    const srm = schemaName(TENANTS[0], 'mod-source-record-manager');
    await serverless.psql(`DELETE FROM ${srm}.journal_records WHERE ctid = (SELECT min(ctid) FROM ${srm}.journal_records)`, DB);
    const differs = await runMover(env(srm, { MOVE_ACTION: 'drop-source' }));
    expect(lastLine(differs)).toBe(`move: failed: ${srm}: the target's rows no longer match the source's; refusing to drop the source`);
    expect(await count(provisioned, `SELECT count(*) FROM pg_namespace WHERE nspname = '${srm}'`)).toBe(1);

    expect((await runMover(env(srm, { MOVE_REPLACE: 'true' }))).status).toBe(0);
    const dropped = await runMover(env(srm, { MOVE_ACTION: 'drop-source' }));
    expect(lastLine(dropped)).toBe('move: done: 1 schema(s), drop-source from provisioned to serverless');
    expect(await count(provisioned, `SELECT count(*) FROM pg_namespace WHERE nspname = '${srm}'`)).toBe(0);
    expect(await count(serverless, `SELECT count(*) FROM ${srm}.journal_records`)).toBe(ROWS);
  }, 60_000);
});
