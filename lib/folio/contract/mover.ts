/*
 * The schema mover's contract: what its script (lib/folio/constructs/schema-mover/) is told
 * through its environment, and the lines it logs. The construct sets the stack's part of the
 * environment, `npm run move` a run's part, and reads the lines back; the measurement scripts
 * and the harness run the same script. test/lib/folio/contract/mover.test.ts holds the script to
 * this file: every variable it reads, every line declared here that it says.
 */

/** The mover's container in its task definition: `npm run move` overrides its variables per run. */
export const MOVER_CONTAINER = 'Mover';

/** The awslogs stream prefix: a task's log stream is `<prefix>/<container>/<task id>`. */
export const MOVER_LOG_STREAM_PREFIX = 'move';

/** The application_name of the mover's sessions: the script leaves its own sessions out when it looks for users of a schema. */
export const MOVER_APPLICATION_NAME = 'folio-schema-mover';

/** Set on the task definition by the construct, from config: the same for every move of a stack. */
export const MOVER_STACK_VARIABLES = ['MOVE_JOBS', 'MOVE_LOCK_TIMEOUT', 'MOVE_ROUTE_TIMEOUT', 'MOVE_ROUTE_GRACE'] as const;

/** Set per run by `npm run move` (moverEnvironment): which schemas go where, and how. */
export const MOVER_RUN_VARIABLES = [
  'MOVE_FROM',
  'MOVE_TO',
  'MOVE_SCHEMAS',
  'MOVE_SUFFIX',
  'MOVE_ACTION',
  'MOVE_REPLACE',
  'MOVE_FORCE',
  'MOVE_KEEP_EXISTING',
  'MOVE_MODE',
  'MOVE_ROUTES',
] as const;

/** Read by the script but set by neither: the tests and the measurement scripts use them to stand in for the stack. */
export const MOVER_LOCAL_VARIABLES = ['MOVE_CATCHUP_TIMEOUT', 'MOVE_SWITCH_COMMAND'] as const;

type MoverStackVariable = (typeof MOVER_STACK_VARIABLES)[number];
type MoverRunVariable = (typeof MOVER_RUN_VARIABLES)[number];
/** One run's variables, as `npm run move` passes them (MOVE_ROUTES only for an online move). */
export type MoverRunEnvironment = Record<Exclude<MoverRunVariable, 'MOVE_ROUTES'>, string> & { MOVE_ROUTES?: string };
export type MoverStackEnvironment = Record<MoverStackVariable, string>;

/** Every line the mover logs starts with this. */
export const MOVER_LINE_PREFIX = 'move: ';

/**
 * The lines the mover's readers depend on, after the prefix, with their slots. A slot is
 * `{name}`; what each slot holds is in SLOT_PATTERNS.
 */
export const MOVER_LINES = {
  /** A schema's outcomes: each ends a schema, and the ones with rows count them. */
  copied: '{schema}: copied and verified, {tables} tables, {rows} rows',
  copiedEarlier: '{schema}: copied and verified by an earlier run that stopped before recording it, {tables} tables, {rows} rows',
  movedOnline: '{schema}: moved online and verified, {tables} tables, {rows} rows',
  skippedCopied: '{schema}: skipped, already copied from {cluster} and its content matches ({tables} tables, {rows} rows)',
  skippedIdentical:
    '{schema}: skipped, the target already holds an identical copy that no mover recorded; recorded it as verified ({tables} tables, {rows} rows)',
  skippedOnline: '{schema}: skipped, already moved online from {cluster} and verified',
  skippedAbsent: '{schema}: skipped, not on the source ({cluster})',
  dropped: '{schema}: dropped from the source ({cluster}) after matching the verified copy, {tables} tables, {rows} rows',
  /** An online switch: the source is fenced and every check passed; the routes are to be pointed at the target. */
  switchReady: 'switch: ready: point the routes at the target ({cluster}): {routes}',
  /** The routes lead to the target: how long after the fence locked. */
  routesSwitched:
    'switched: every route leads to the target {ms} ms after the fence locked; the module writes there. The source stays fenced until none of its sessions reaches it for {duration}',
  /** An online switch by command: how long writes waited. */
  writesWaited: "switched: writes to the module's schemas waited {ms} ms (the fence, from locking to lifting)",
  /** The run's end: success, or the first failure's reason. */
  done: 'done: {count} schema(s), {how} from {cluster} to {target}',
  failed: 'failed: {reason}',
} as const;

export type MoverLineKind = keyof typeof MOVER_LINES;

const SLOT_PATTERNS: Readonly<Record<string, string>> = {
  schema: '\\S+',
  tables: '\\d+',
  rows: '\\d+',
  count: '\\d+',
  ms: '\\d+',
  cluster: 'primary|offload',
  target: 'primary|offload',
  duration: '\\S+',
  how: '.+?',
  routes: '.+',
  reason: '.+',
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A declared line as a regular expression over the whole logged line, its slots as named groups. */
function lineExpression(template: string): RegExp {
  const parts = template.split(/(\{[a-z]+\})/).map((part) => {
    const slot = /^\{([a-z]+)\}$/.exec(part)?.[1];
    if (!slot) return escape(part);
    if (!SLOT_PATTERNS[slot]) throw new Error(`mover line slot {${slot}} has no pattern`);
    return `(?<${slot}>${SLOT_PATTERNS[slot]})`;
  });
  return new RegExp(`^${escape(MOVER_LINE_PREFIX)}${parts.join('')}$`);
}

const EXPRESSIONS = Object.entries(MOVER_LINES).map(([kind, template]) => [kind as MoverLineKind, lineExpression(template)] as const);

export interface MoverLine {
  readonly kind: MoverLineKind;
  readonly slots: Readonly<Record<string, string>>;
}

/** A logged line read against the declared ones; undefined for a line no reader depends on (progress, notes). */
export function parseMoverLine(line: string): MoverLine | undefined {
  for (const [kind, expression] of EXPRESSIONS) {
    const m = expression.exec(line);
    if (m) return { kind, slots: { ...m.groups } };
  }
  return undefined;
}

/** A declared line with its slots filled: what the script would log. */
export function moverLine(kind: MoverLineKind, slots: Readonly<Record<string, string | number>>): string {
  return (
    MOVER_LINE_PREFIX +
    MOVER_LINES[kind].replace(/\{([a-z]+)\}/g, (_, slot: string) => {
      if (slots[slot] === undefined) throw new Error(`mover line ${kind} needs {${slot}}`);
      return String(slots[slot]);
    })
  );
}

/** The lines that end a schema (one per schema of a run that succeeds). */
export const SCHEMA_OUTCOMES: ReadonlySet<MoverLineKind> = new Set([
  'copied',
  'copiedEarlier',
  'movedOnline',
  'skippedCopied',
  'skippedIdentical',
  'skippedOnline',
  'skippedAbsent',
  'dropped',
]);
