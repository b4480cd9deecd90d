import {
  MOVER_APPLICATION_NAME,
  MOVER_LINE_PREFIX,
  MOVER_LINES,
  MOVER_LOCAL_VARIABLES,
  MOVER_RUN_VARIABLES,
  MOVER_STACK_VARIABLES,
  type MoverLineKind,
  moverLine,
  parseMoverLine,
  SCHEMA_OUTCOMES,
} from '../../../../lib/folio/contract/mover';
import { moverEnvironment, planPhaseSwitch } from '../../../../lib/folio/commands/move/move-plan';
import { resolveScenario, type FolioScenario } from '../../../../config';
import { synthScenario } from '../../../support/synth';
import { MOVER_SCRIPT } from '../../../../lib/folio/constructs/schema-mover/mover-bundle';

/*
 * The mover's script against its contract, read from the script's source: the variables it
 * reads are the ones declared, and it says every declared line (and no other line that a
 * reader would take for a schema's outcome). The integration suite runs the script itself.
 */

const SCRIPT = MOVER_SCRIPT;

/** A shell string with every expansion ($VAR, ${...}, $(...), $*) as `{}`. */
function shape(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '$') {
      out += text[i];
      continue;
    }
    const open = text[i + 1];
    if (open === '(' || open === '{') {
      const close = open === '(' ? ')' : '}';
      let depth = 0;
      let j = i + 1;
      for (; j < text.length; j++) {
        if (text[j] === open) depth++;
        else if (text[j] === close && --depth === 0) break;
      }
      i = j;
    } else {
      const m = /^[A-Za-z_][A-Za-z0-9_]*|^[*@#?0-9]/.exec(text.slice(i + 1));
      if (!m) {
        out += '$';
        continue;
      }
      i += m[0].length;
    }
    out += '{}';
  }
  return out;
}

/** The double-quoted shell word that opens at `start` (just after its quote), to its closing quote: quotes inside $(...) nest. */
function quoted(text: string, start: number): string {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text.startsWith('$(', i)) {
      depth++;
      i++;
    } else if (text[i] === ')' && depth > 0) depth--;
    else if (text[i] === '"' && depth === 0) return text.slice(start, i);
  }
  throw new Error(`unterminated string at ${start}`);
}

/** Every line a script logs, as shapes: `say "..."`, and the lines it echoes with the prefix itself. */
const linesOf = (script: string): string[] => [
  ...[...script.matchAll(/\bsay "/g)].map((m) => shape(quoted(script, m.index + m[0].length))),
  ...[...script.matchAll(/\becho "move: /g)].map((m) => shape(quoted(script, m.index + m[0].length))),
];
const said = linesOf(SCRIPT);

/** The script's lines that a reader would take for a schema's outcome but that are not declared. */
function undeclaredOutcomes(lines: readonly string[]): string[] {
  const declared = [...SCHEMA_OUTCOMES].map((k) => declaredShape(MOVER_LINES[k]));
  return lines.filter((s) => /^\{\}: (copied and verified|moved online and verified|skipped|dropped from)/.test(s) && !declared.includes(s));
}

const declaredShape = (template: string) => template.replace(/\{[a-z]+\}/g, '{}');

test('the script says lines, and the reader of this test finds them', () => {
  expect(said.length).toBeGreaterThan(30);
  expect(said).toContain('{}: copied and verified, {} tables, {} rows');
});

test.each(Object.entries(MOVER_LINES))('the script says the declared line %s', (_kind, template) => {
  expect(said).toContain(declaredShape(template));
});

test("every line of the script that reads as a schema's outcome is declared", () => {
  expect(undeclaredOutcomes(said)).toEqual([]);
});

test('a script whose outcome line drifts by a word fails both checks (they can fail)', () => {
  const drifted = SCRIPT.replace('say "$S: copied and verified, $(tables_of', 'say "$S: copied and verified, all $(tables_of');
  expect(drifted).not.toBe(SCRIPT);
  expect(undeclaredOutcomes(linesOf(drifted))).toEqual(['{}: copied and verified, all {} tables, {} rows']);
  expect(linesOf(drifted)).not.toContain(declaredShape(MOVER_LINES.copied));
  expect(shape('$S: copied, $(rows_of "$F.x") rows (${left%% *})')).toBe('{}: copied, {} rows ({})');
});

test.each(Object.keys(MOVER_LINES) as MoverLineKind[])('line %s reads back as itself, slots included', (kind) => {
  const slots = {
    schema: 'diku_mod_orders',
    tables: 10,
    rows: 4321,
    cluster: 'offload',
    target: 'primary',
    ms: 812,
    duration: '30s',
    how: 'copy',
    count: 3,
    routes: 'orders.folio-db.internal orders-reader.folio-db.internal',
    reason: 'the target fell behind',
  };
  const line = moverLine(kind, slots);
  expect(line.startsWith(MOVER_LINE_PREFIX)).toBe(true);
  expect(parseMoverLine(line)?.kind).toBe(kind);
  const template = MOVER_LINES[kind] as string;
  for (const slot of template.match(/\{([a-z]+)\}/g)!.map((s) => s.slice(1, -1)))
    expect(parseMoverLine(line)!.slots[slot]).toBe(String(slots[slot as keyof typeof slots]));
});

test('lines no reader depends on are not parsed, and a line missing a slot is refused', () => {
  expect(parseMoverLine('move: first copy: 3 of 10 tables still copying')).toBeUndefined();
  expect(parseMoverLine('move: diku_mod_orders: copied and verified, ten tables, 5 rows')).toBeUndefined();
  expect(parseMoverLine('diku_mod_orders: copied and verified, 1 tables, 5 rows')).toBeUndefined();
  expect(() => moverLine('copied', { schema: 's', tables: 1 })).toThrow(/needs \{rows\}/);
});

/** Every MOVE_* variable the script reads: `${MOVE_X...}`, `$MOVE_X`, and the names it loops over. */
const read = new Set([...SCRIPT.replace(/^\s*#.*$/gm, '').matchAll(/\bMOVE_[A-Z_]+\b/g)].map((m) => m[0]));

test('the variables the script reads are exactly the declared ones', () => {
  expect([...read].sort()).toEqual([...MOVER_STACK_VARIABLES, ...MOVER_RUN_VARIABLES, ...MOVER_LOCAL_VARIABLES].sort());
});

test("the command's variables for a run are the declared run variables, MOVE_ROUTES only online", () => {
  const [from, to] = ['test4', 'test5'].map((name) => resolveScenario({ scenario: name }) as FolioScenario);
  const plan = planPhaseSwitch(from, to);
  expect(plan.moves.length).toBeGreaterThan(0);
  const fenced = Object.keys(moverEnvironment(plan.moves[0]));
  expect(fenced.sort()).toEqual(MOVER_RUN_VARIABLES.filter((v) => v !== 'MOVE_ROUTES').sort());
  const online = plan.moves.find((m) => !m.reference);
  if (online) expect(Object.keys(moverEnvironment(online, { online: true }))).toContain('MOVE_ROUTES');
});

test("the construct's variables are the declared stack variables, and the script's application name is the contract's", () => {
  const template = synthScenario({ scenario: 'baseline' }).template.toJSON();
  const task = Object.values<any>(template.Resources).find((r) => r.Type === 'AWS::ECS::TaskDefinition' && r.Properties.Family === 'folio-schema-mover');
  const names = task.Properties.ContainerDefinitions[0].Environment.map((e: { Name: string }) => e.Name).filter((n: string) => n.startsWith('MOVE_'));
  expect(names.sort()).toEqual([...MOVER_STACK_VARIABLES].sort());
  expect(SCRIPT).toContain(`PGAPPNAME=${MOVER_APPLICATION_NAME}`);
  expect(SCRIPT.match(/application_name <> '([^']+)'/g)!.every((m) => m.includes(MOVER_APPLICATION_NAME))).toBe(true);
});
