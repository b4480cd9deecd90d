import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * The mover's script is one POSIX sh program in several files, each one concern. The task runs
 * them as one script, in this order: the settings checked and the helpers, the decisions (pure:
 * unit-tested on recorded states), the steps that gather the states and act on them, and the
 * run itself last. Kept free of the CDK so that the harness loads it cheaply.
 */
export const MOVER_PARTS = ['settings.sh', 'decide.sh', 'verify.sh', 'fence.sh', 'copy.sh', 'online.sh', 'online-move.sh', 'main.sh'] as const;

/** One part's text, as written. */
const moverPart = (part: (typeof MOVER_PARTS)[number]): string => readFileSync(join(__dirname, part), 'utf8');

/** The script as the task runs it and the tests run it: the parts in order, less their full-line comments. */
export const MOVER_SCRIPT = MOVER_PARTS.map(moverPart)
  .join('')
  .split('\n')
  .filter((line) => !/^\s*#/.test(line))
  .join('\n');
