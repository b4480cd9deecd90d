/*
 * How fast the schema mover copies, measured on this machine: two local PostgreSQL servers,
 * FOLIO-shaped data (test/support/folio-data.ts) for a number of tenants, and the mover's own
 * script moving mod-inventory-storage and mod-source-record-storage the way `npm run move`
 * does. Prints rows/s and MB/s, and what a GB would take and cost as the stack's Fargate task
 * at that speed. A measurement, not a test: nothing here asserts.
 *
 *   npm run bench:move -- --tenants 3 --rows 50000
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { ConfigError, type FolioScenario, resolveScenario } from '../config';
import { runCommand } from '../lib/commands/cli';
import { markdownTable } from '../lib/commands/markdown';
import { moverEnvironment, planPhaseSwitch } from '../lib/commands/move/plan';
import { folioSeedSql } from '../test/support/folio-data';
import { startPostgres } from '../test/support/postgres';
import { editedCatalog } from '../test/support/catalog';

const run = promisify(execFile);
const SCRIPT = join(__dirname, '../lib/constructs/schema-mover/move.sh');

const program = new Command('bench:move')
  .description("The schema mover's speed on this machine, and what a GB would take and cost on its Fargate task")
  .option('--tenants <n>', 'tenants to seed', '3')
  .option('--rows <n>', 'instances (and SRS records) per tenant; items are twice that', '50000');

function whole(flag: string, raw: string, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new ConfigError(`${flag} "${raw}" is not valid (valid: a whole number from 1 to ${max})`);
  return n;
}

runCommand(async () => {
  const o = program.parse().opts();
  const tenants = Array.from({ length: whole('--tenants', o.tenants, 30) }, (_, i) => `fs${String(9000000 + i).padStart(8, '0')}`);
  const rows = whole('--rows', o.rows, 5_000_000);
  const catalog = editedCatalog((c) => (c.folio.environment.tenants = tenants));
  const phase = (name: string) => resolveScenario({ scenario: name }, catalog) as FolioScenario;
  const moves = planPhaseSwitch(phase('baseline'), phase('test5')).moves.filter((m) => ['mod-source-record-storage', 'mod-inventory-storage'].includes(m.module));

  const [a, b] = await Promise.all([startPostgres(), startPostgres()]);
  try {
    for (const pg of [a, b]) await pg.psql('CREATE DATABASE folio');
    process.stderr.write(`seeding ${tenants.length} tenant(s) × ${rows.toLocaleString('en-US')} instances ...\n`);
    await a.psql(folioSeedSql(tenants, rows), 'folio');
    const table = [];
    for (const m of moves) {
      const list = m.schemas.map((s) => `'${s}'`).join(',');
      const bytes = Number(await a.psql(`SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN (${list}) AND c.relkind IN ('r', 'i', 't', 'S')`, 'folio'));
      const started = process.hrtime.bigint();
      const { stdout } = await run('sh', [SCRIPT], {
        env: {
          PATH: `${a.bin}:${process.env.PATH}`,
          PROVISIONED_HOST: '127.0.0.1',
          PROVISIONED_PORT: String(a.port),
          SERVERLESS_HOST: '127.0.0.1',
          SERVERLESS_PORT: String(b.port),
          PGUSER: a.user,
          PGPASSWORD: a.password,
          PGDATABASE: 'folio',
          ...moverEnvironment(m),
        },
        maxBuffer: 16 * 1024 * 1024,
      });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const moved = [...stdout.matchAll(/copied and verified, \d+ tables, (\d+) rows/g)].reduce((n, x) => n + Number(x[1]), 0);
      table.push({ module: m.module, schemas: m.schemas.length, rows: moved, bytes, seconds });
    }

    const prices = JSON.parse(readFileSync(join(__dirname, '../config/prices/us-east-1.json'), 'utf8')).prices;
    const env = phase('baseline').environment.mover;
    const perHour = env.vcpu * prices['fargate:arm-vcpu'].usd + env.memoryGiB * prices['fargate:arm-gb'].usd;
    const fmt = (n: number, d = 1) => n.toLocaleString('en-US', { maximumFractionDigits: d });
    const rowsTable = markdownTable(
      ['Module', 'Schemas', 'Rows', 'Size (MB)', 'Seconds', 'Rows/s', 'MB/s', 's per GB', '$ per GB on Fargate'],
      table.map((t) => {
        const gbSeconds = t.seconds / (t.bytes / 1024 ** 3);
        return [t.module, String(t.schemas), t.rows.toLocaleString('en-US'), fmt(t.bytes / 1024 ** 2), fmt(t.seconds, 2), fmt(t.rows / t.seconds, 0), fmt(t.bytes / 1024 ** 2 / t.seconds, 2), fmt(gbSeconds, 0), `$${(perHour * (gbSeconds / 3600)).toFixed(4)}`];
      }),
    );
    process.stdout.write(
      `# Schema mover on this machine\n\n${tenants.length} tenant(s), ${rows.toLocaleString('en-US')} instances each; two PostgreSQL ${a.bin.split('/').at(-2)} servers on loopback; the mover's script (dump, restore, count and compare every table, record).\n\n${rowsTable}\n\n` +
        `$ per GB: the stack's mover task (${env.vcpu} vCPU, ${env.memoryGiB} GiB, Arm) at $${perHour.toFixed(5)}/hour (config/prices/us-east-1.json) for as long as a GB took here; between two Aurora clusters the network and the clusters' I/O set the pace instead.\n`,
    );
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});
