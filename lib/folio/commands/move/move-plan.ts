import { type ClusterRole, ConfigError, type FolioScenario } from '../../../../config';
import { splitReads } from '../../../../config/folio-schema';
import { didYouMean } from '../../../../config/errors';
import { moduleRouteNames } from '../../../platform/contract/physical-names';
import type { MoverRunEnvironment } from '../../contract/mover';

/*
 * Which schemas a phase switch moves, derived from the two phases' routes and the
 * environment's tenants, never typed: a module whose cluster changes takes its schema in
 * every tenant (`<tenant>_<module>`, `-` as `_`) with it, and its roles and grants.
 */

export interface ModuleMove {
  readonly module: string;
  /**
   * A reference copy: the module stays where it is, and a module moving next to this copy
   * reads its schemas across the split (acknowledged in the phase). Copied only where the
   * target has none yet; never set aside, never a reason to restart anything.
   */
  readonly reference: boolean;
  readonly framework: string;
  readonly from: ClusterRole;
  readonly to: ClusterRole;
  /** `_mod_<name>`: every schema of this module ends with it. */
  readonly suffix: string;
  /** One per tenant, in the environment's tenant order. */
  readonly schemas: readonly string[];
  /** The module's routes (the stack's CNAME records), which an online move points at the target. */
  readonly routes: { readonly writer: string; readonly reader: string };
  /**
   * Moves with the same wave run in one mover task, their schemas from one queue: same clusters,
   * same kind (move or reference copy), and none reads what another of the wave moves.
   */
  readonly wave: number;
}

export interface MovePlan {
  /** What the plan goes from and to, in words ("test4 -> test5"). */
  readonly title: string;
  /** In an order that copies the schemas a module's views read before the module. */
  readonly moves: readonly ModuleMove[];
  /** Modules to restart after the deploy: they reconnect to their new cluster. */
  readonly restart: readonly string[];
}

const schemaSuffix = (module: string): string => `_${module.replace(/-/g, '_')}`;
export const schemaName = (tenant: string, module: string): string => `${tenant}${schemaSuffix(module)}`;

function clusterIn(s: FolioScenario): (module: string) => ClusterRole {
  const routes = new Map(s.routes.map((r) => [r.module, r.cluster]));
  return (m) => routes.get(m) ?? 'primary';
}

/** Moving modules, ordered so that each comes after the moving modules whose schemas it reads. */
function ordered(s: FolioScenario, moving: readonly string[]): string[] {
  const reads = new Map(s.modules.map((m) => [m.name, m.readsSchemasOf]));
  const out: string[] = [];
  const visit = (m: string) => {
    if (out.includes(m)) return;
    for (const r of reads.get(m) ?? []) if (moving.includes(r) && r !== m) visit(r);
    out.push(m);
  };
  for (const m of s.modules.map((x) => x.name).filter((n) => moving.includes(n))) visit(m);
  return out;
}

function build(s: FolioScenario, title: string, from: (m: string) => ClusterRole, to: (m: string) => ClusterRole): MovePlan {
  const moving = s.modules.filter((m) => from(m.name) !== to(m.name)).map((m) => m.name);
  const byName = new Map(s.modules.map((m) => [m.name, m]));
  const moves: ModuleMove[] = [];
  let wave: ModuleMove[] = [];
  const add = (module: string, source: ClusterRole, target: ClusterRole, reference: boolean) => {
    const readsWave = wave.some((w) => byName.get(module)!.readsSchemasOf.includes(w.module));
    const joins = wave.length > 0 && wave[0].from === source && wave[0].to === target && wave[0].reference === reference && !readsWave;
    if (!joins) wave = [];
    const m: ModuleMove = {
      module,
      reference,
      framework: byName.get(module)!.framework,
      from: source,
      to: target,
      suffix: schemaSuffix(module),
      schemas: s.environment.tenants.map((t) => schemaName(t, module)),
      routes: moduleRouteNames(s.environment.names.moduleZone, module),
      wave: joins ? wave[0].wave : (moves.at(-1)?.wave ?? 0) + 1,
    };
    wave.push(m);
    moves.push(m);
  };
  for (const module of ordered(s, moving)) {
    // What it reads across the split must be on its new cluster before its views are restored.
    for (const r of byName.get(module)!.readsSchemasOf)
      if (to(r) !== to(module) && !moves.some((x) => x.module === r && x.to === to(module))) add(r, to(r), to(module), true);
    add(module, from(module), to(module), false);
  }
  return { title, moves, restart: moves.filter((m) => !m.reference).map((m) => m.module) };
}

/** The moves a switch between two phases of one environment needs. */
export function planPhaseSwitch(from: FolioScenario, to: FolioScenario): MovePlan {
  if (from.stackName !== to.stackName)
    throw new ConfigError(
      `"${from.name}" (${from.stackName}) and "${to.name}" (${to.stackName}) are different environments (valid: two phases of one environment)`,
    );
  return build(to, `${from.name} -> ${to.name}`, clusterIn(from), clusterIn(to));
}

/**
 * One module to a cluster, from the deployed phase: refused when it would leave a module
 * reading schemas on the other cluster that the phase does not acknowledge.
 */
export function planModuleMove(current: FolioScenario, module: string, cluster: ClusterRole): MovePlan {
  const m = current.modules.find((x) => x.name === module);
  if (!m) {
    const names = current.modules.map((x) => x.name);
    throw new ConfigError(`--module "${module}" is not a FOLIO module of this stack${didYouMean(module, names)} (valid: ${names.join(', ')})`);
  }
  if (!m.routable && cluster === 'offload')
    throw new ConfigError(
      `--module "${module}" stays on the primary cluster (valid: ${current.modules
        .filter((x) => x.routable)
        .map((x) => x.name)
        .join(', ')})`,
    );
  const before = clusterIn(current);
  const after = (x: string) => (x === module ? cluster : before(x));
  const acks = new Map<string, Set<string>>();
  for (const a of current.phase.crossSchemaAcks) acks.set(a.module, new Set([...(acks.get(a.module) ?? []), ...a.readsFrom]));
  const split = splitReads(current.modules, after, acks);
  if (split.length) throw new ConfigError(`moving ${module} to ${cluster} is refused: ${split.map((x) => x.message).join('; ')}`);
  return build(current, `${module} -> ${cluster} (from ${current.name})`, before, after);
}

export interface MoveFlags {
  /** Drop the source's copies instead of copying (each only if the target's rows match). */
  readonly dropSource?: boolean;
  /** Set aside a target schema that already holds rows, and copy afresh. */
  readonly replace?: boolean;
  /** Move although sessions on the source still use the schema. */
  readonly force?: boolean;
  /** Online: the module keeps writing while its schemas replicate; writes pause only for the switch. */
  readonly online?: boolean;
}

/** A plan for --drop-source: reference copies stay, their source is the module's live home. */
export function withoutReferences(plan: MovePlan): MovePlan {
  return { ...plan, moves: plan.moves.filter((m) => !m.reference) };
}

/** A plan's moves, wave by wave: each wave is one run of the mover. */
export function waves(plan: MovePlan): ModuleMove[][] {
  const out: ModuleMove[][] = [];
  for (const m of plan.moves) {
    if (out.at(-1)?.[0].wave === m.wave) out.at(-1)!.push(m);
    else out.push([m]);
  }
  return out;
}

/** What the mover script (lib/folio/constructs/schema-mover/) is told to do for one module, or one wave. */
export function moverEnvironment(moves: ModuleMove | readonly ModuleMove[], flags: MoveFlags = {}): MoverRunEnvironment {
  const wave = 'module' in moves ? [moves] : moves;
  const online = Boolean(flags.online && !wave[0].reference);
  return {
    MOVE_FROM: wave[0].from,
    MOVE_TO: wave[0].to,
    MOVE_SCHEMAS: wave.flatMap((m) => m.schemas).join(' '),
    MOVE_SUFFIX: wave.map((m) => m.suffix).join(' '),
    MOVE_ACTION: flags.dropSource ? 'drop-source' : 'copy',
    MOVE_REPLACE: String(flags.replace ?? false),
    MOVE_FORCE: String(flags.force ?? false),
    MOVE_KEEP_EXISTING: String(wave[0].reference),
    // Reference copies are snapshots of live schemas: fenced-mode copies, whatever the flag.
    MOVE_MODE: online ? 'online' : 'fenced',
    // An online switch waits for the modules' routes to lead to the target (npm run move repoints them).
    ...(online && { MOVE_ROUTES: wave.flatMap((m) => [m.routes.writer, m.routes.reader]).join(' ') }),
  };
}
