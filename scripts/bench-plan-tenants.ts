/*
 * How `npm run plan` and the move plan grow with the environment's tenants: the same phase
 * switch (test4 -> test10, five modules move) with 30, 60, 120 and 240 tenants, in process,
 * medians of --runs. The templates hold nothing per tenant; the move plan lists one schema per
 * tenant and module. A measurement, not a test: nothing here asserts.
 *
 *   npm run bench:plan-tenants -- --runs 3
 */
import { Command } from 'commander';
import { ConfigError, type FolioScenario, resolveScenario } from '../config';
import { runCommand } from '../lib/commands/shared/cli';
import { markdownTable } from '../lib/commands/shared/markdown-table';
import { planPhaseSwitch } from '../lib/folio/commands/move/move-plan';
import { renderMovePlan } from '../lib/folio/commands/move/render-move-plan';
import { planTransition, renderPlan } from '../lib/commands/plan/transition-plan';
import { editedCatalog } from '../harness/catalog';

const program = new Command('bench:plan-tenants')
  .description('npm run plan and the move plan at 30, 60, 120 and 240 tenants: medians of alternating runs')
  .option('--from <phase>', 'the deployed phase', 'test4')
  .option('--to <phase>', 'the phase to switch to', 'test10')
  .option('--runs <n>', 'runs per tenant count; the medians are reported', '3');

const TENANT_COUNTS = [30, 60, 120, 240] as const;
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (work: () => unknown): number => {
  const started = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - started) / 1e6;
};

runCommand(async () => {
  const o = program.parse().opts();
  const runs = Number(o.runs);
  if (!Number.isInteger(runs) || runs < 1 || runs > 9) throw new ConfigError(`--runs "${o.runs}" is not valid (valid: a whole number from 1 to 9)`);
  const catalogs = new Map(
    TENANT_COUNTS.map((n) => [
      n,
      editedCatalog((c) => (c.folio.environment.tenants = Array.from({ length: n }, (_, i) => `fs${String(9000000 + i).padStart(8, '0')}`))),
    ]),
  );
  const times = new Map(TENANT_COUNTS.map((n) => [n, { moves: [] as number[], plan: [] as number[], schemas: 0 }]));
  // Warm: the first synth loads CDK.
  planTransition(o.from, o.to, { catalog: catalogs.get(30)! });
  for (let r = 0; r < runs; r++)
    for (const n of TENANT_COUNTS) {
      const catalog = catalogs.get(n)!;
      const at = (name: string) => resolveScenario({ scenario: name }, catalog) as FolioScenario;
      const t = times.get(n)!;
      t.moves.push(ms(() => renderMovePlan(planPhaseSwitch(at(o.from), at(o.to)))));
      t.plan.push(ms(() => renderPlan(planTransition(o.from, o.to, { catalog }))));
      t.schemas = planPhaseSwitch(at(o.from), at(o.to)).moves.reduce((k, m) => k + m.schemas.length, 0);
    }
  const base = times.get(30)!;
  const rows = TENANT_COUNTS.map((n) => {
    const t = times.get(n)!;
    return [
      String(n),
      String(t.schemas),
      median(t.moves).toFixed(2),
      (median(t.moves) / median(base.moves)).toFixed(2),
      median(t.plan).toFixed(0),
      (median(t.plan) / median(base.plan)).toFixed(2),
    ];
  });
  process.stdout.write(
    `# plan and the move plan by tenants (${o.from} -> ${o.to}, medians of ${runs})\n\n` +
      markdownTable(['Tenants', 'Schemas moved', 'Move plan (ms)', '× at 30', 'npm run plan, both stacks (ms)', '× at 30'], rows) +
      '\n',
  );
});
