import { plural } from '../../../commands/shared/figure';
import { markdownTable } from '../../../commands/shared/markdown-table';
import { type MoveFlags, type MovePlan, waves } from './move-plan';

/* A move plan as `plan` (under "Data") and `move` print it. */

const span = (schemas: readonly string[]) => (schemas.length > 2 ? `${schemas[0]} … ${schemas.at(-1)} (${schemas.length})` : schemas.join(', '));

/** What a plan moves, module by module in the order it runs (one mover task per wave), and what to restart. */
export function renderMovePlan(plan: MovePlan, flags: MoveFlags = {}): string {
  if (!plan.moves.length) return `Schema moves (${plan.title}): none; every module stays on its cluster.\n`;
  const action = flags.dropSource ? 'drop the source copy of' : 'copy';
  const kind = (m: MovePlan['moves'][number]) =>
    m.reference
      ? 'reference copy: read across the split, kept if present'
      : m.framework === 'rmb'
        ? 'move, with its schema-named login role and grants'
        : 'move, with its grants';
  const task = new Map(waves(plan).flatMap((wave, i) => wave.map((m) => [m, i + 1] as const)));
  const rows = plan.moves.map((m) => [String(task.get(m)), m.module, `${m.from} → ${m.to}`, span(m.schemas), kind(m)]);
  return [
    `Schema moves (${plan.title}): ${action} ${plural(plan.moves.length, 'module')}, ${plural(
      plan.moves.reduce((n, m) => n + m.schemas.length, 0),
      'schema',
    )}`,
    '',
    markdownTable(['Task', 'Module', 'Cluster', 'Schemas', 'What'], rows),
    '',
    flags.online
      ? `Online: at each switch the modules' routes are pointed at their new cluster (${plan.restart.join(', ')}); nothing to restart`
      : `Restart after the deploy (they reconnect to their new cluster): ${plan.restart.join(', ')}`,
    '',
  ].join('\n');
}
