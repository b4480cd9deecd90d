import { type ClusterRole, ConfigError, type FolioScenario, loadCatalog } from '../../../../config';
import { refuseUnlessAvailable } from '../shared/folio-clusters';
import { loadAwsClients } from '../../../commands/aws/load-clients';
import { type CommandOutput, processIO, type CommandDeps } from '../../../commands/shared/cli';
import { durationOption, WAIT_BOUNDS } from '../../../commands/shared/option-values';
import { resolveTargetOf, type TargetOptions } from '../../../commands/shared/target';
import type { Waiting } from '../../../commands/shared/waiting';
import { type MoveFlags, type MovePlan, planModuleMove, planPhaseSwitch, withoutReferences } from './move-plan';
import { moveTargets, routeTargets, runMoves } from './mover-task';
import { renderMovePlan } from './render-move-plan';
import { renderMoveResults } from './render-move-results';

/*
 * `npm run move`: the schemas a phase switch (or one module) moves, printed, then moved wave
 * by wave with the stack's mover task; --dry-run prints the plan and stops.
 */

export interface MoveOptions extends Pick<TargetOptions, 'catalog'> {
  readonly from?: string;
  readonly to?: string;
  readonly module?: string;
  readonly scenario?: string;
  readonly envName?: string;
  readonly dryRun?: boolean;
  readonly replace?: boolean;
  readonly force?: boolean;
  readonly dropSource?: boolean;
  readonly online?: boolean;
  readonly timeout: string;
  readonly interval?: string;
  readonly endpointUrl?: string;
}

/** With a clock and a sleep: waits without real time passing (tests). */
export type MoveDeps = CommandDeps & Pick<Waiting, 'sleep' | 'now'>;

const CLUSTERS: readonly ClusterRole[] = ['primary', 'offload'];

const target = (option: string, name: string, o: MoveOptions) => resolveTargetOf('folio', 'move', o, option, name);
const phase = (option: string, name: string, o: MoveOptions): FolioScenario => target(option, name, o).scenario;

/** Every argument checked before anything is read or started. */
function parse(o: MoveOptions): { flags: MoveFlags; plan?: MovePlan; module?: { name: string; to: ClusterRole } } {
  if (o.replace && o.dropSource)
    throw new ConfigError('--replace and --drop-source cannot be combined (valid: --replace when copying, --drop-source on its own after a verified copy)');
  if (o.online && (o.replace || o.dropSource || o.force))
    throw new ConfigError(
      `--online cannot be combined with ${o.replace ? '--replace' : o.dropSource ? '--drop-source' : '--force'} (valid: --online on its own; it copies into an empty target while the module runs)`,
    );
  const flags: MoveFlags = { replace: o.replace, force: o.force, dropSource: o.dropSource, online: o.online };
  if (!o.to) throw new ConfigError('--to is required (valid: --from <phase> --to <phase>, or --module <name> --to primary|offload)');
  if (o.module) {
    if (o.from) throw new ConfigError('--module and --from cannot be combined (valid: --module <name> --to <cluster> [--scenario <deployed phase>])');
    if (!CLUSTERS.includes(o.to as ClusterRole)) throw new ConfigError(`--to "${o.to}" is not a cluster (valid with --module: ${CLUSTERS.join(', ')})`);
    return { flags, module: { name: o.module, to: o.to as ClusterRole } };
  }
  if (o.scenario) throw new ConfigError('--scenario applies to --module only (valid: --from <phase> --to <phase>)');
  if (!o.from) throw new ConfigError('--from is required with --to <phase> (valid: --from <phase> --to <phase>, or --module <name> --to <cluster>)');
  if (o.from === o.to) throw new ConfigError(`--from and --to are both ${o.to}: a phase moves nothing to itself (valid: two different phases)`);
  const plan = planPhaseSwitch(phase('--from', o.from, o), phase('--to', o.to, o));
  return { flags, plan: flags.dropSource ? withoutReferences(plan) : plan };
}

export async function runMove(o: MoveOptions, deps: MoveDeps = {}): Promise<CommandOutput> {
  const { flags, plan: phasePlan, module } = parse(o);
  const waiting = {
    timeoutSeconds: durationOption('--timeout', o.timeout, 1, WAIT_BOUNDS.timeout),
    intervalSeconds: durationOption('--interval', o.interval ?? (flags.online ? '1s' : '10s'), 1, WAIT_BOUNDS.interval),
    sleep: deps.sleep,
    now: deps.now,
  };
  if (o.dryRun && phasePlan) return { stdout: renderMovePlan(phasePlan, flags) };
  if (o.dryRun && module && !o.scenario) throw new ConfigError('--dry-run with --module needs --scenario <deployed phase> (it reads no stack)');
  if (o.dryRun) return { stdout: renderMovePlan(moduleMove(phase('--scenario', o.scenario!, o), module!, flags), flags) };

  // The environment's stack runs the mover; any of its phases names it.
  const io = deps.io ?? processIO();
  const { scenario: reference, aws: where } = target(phasePlan ? '--from' : '--scenario', o.from ?? o.scenario ?? loadCatalog().folio.phases[0].name, o);
  const aws = (deps.aws ?? loadAwsClients)();
  const cfn = aws.cloudFormation(where);
  // A hibernated environment's clusters are stopped: say so before anything else is read.
  await refuseUnlessAvailable(aws.rds(where), reference, 'a move');
  const targets = { ...(await moveTargets(cfn, reference)), routes: flags.online ? await routeTargets(cfn, reference) : undefined };
  const plan = phasePlan ?? moduleMove(phase('--scenario', o.scenario ?? targets.deployedPhase, o), module!, flags);
  const shown = renderMovePlan(plan, flags);
  if (!plan.moves.length) return { stdout: shown };
  io.early(shown);
  if (phasePlan && targets.deployedPhase !== o.from) io.note(`note: ${reference.stackName} was last deployed with ${targets.deployedPhase}, not ${o.from}`);

  const started: string[] = [];
  io.onInterrupt(() =>
    started.length
      ? `mover task ${started.at(-1)} still runs in cluster ${targets.cluster} (the source is untouched until it verifies its copy; run the move again after it ends); stop it: aws ecs stop-task --cluster ${targets.cluster} --task ${started.at(-1)}`
      : undefined,
  );
  const results = await runMoves({ ecs: aws.ecs(where), logs: aws.logs(where), route53: aws.route53(where) }, targets, plan, flags, {
    ...waiting,
    onProgress: io.status.update,
    onStarted: (m, arn) => {
      started.push(arn);
      io.note(`${m}: mover task ${arn}`);
    },
    onRouted: (m, change) => io.note(`${m}: routes now lead to the target (Route 53 change ${change})`),
    onLine: (_m, line) => io.note(`  ${line}`),
  });
  io.status.done();
  const next = flags.dropSource
    ? ''
    : flags.online
      ? `\n${plan.restart.join(', ')} write on their new cluster through their routes. Deploy the phase next: it writes the same records and the routing manifest.\n`
      : `\nNext: deploy the phase, then restart ${plan.restart.join(', ')}.\n`;
  return { stdout: `\n${renderMoveResults(results, flags.dropSource)}${next}` };
}

/** One module's move from the phase deployed now. */
function moduleMove(current: FolioScenario, module: { name: string; to: ClusterRole }, flags: MoveFlags): MovePlan {
  const plan = planModuleMove(current, module.name, module.to);
  return flags.dropSource ? withoutReferences(plan) : plan;
}
