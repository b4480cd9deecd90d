import { markdownTable } from '../../../commands/shared/markdown-table';
import type { ModuleResult } from './mover-task';

/** What each module's move did: schemas, rows verified (or matched before a drop), time. */
export function renderMoveResults(results: readonly ModuleResult[], dropSource = false): string {
  const rows = results.map((r) => [
    r.module,
    String(r.schemas),
    r.skipped ? `${r.skipped} already done` : '-',
    r.rows.toLocaleString('en-US'),
    `${r.seconds} s`,
    r.taskArn.split('/').pop() ?? r.taskArn,
  ]);
  return `${markdownTable(['Module', 'Schemas', 'Skipped', dropSource ? 'Rows matched, then dropped' : 'Rows verified', 'Took', 'Task'], rows)}\n`;
}
