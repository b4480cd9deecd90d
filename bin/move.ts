#!/usr/bin/env node
import { type ClusterRole, ConfigError, type FolioScenario, loadCatalog, resolveScenarioOf } from '../config';
import { cloudFormationClient, ecsClient, logsClient, route53Client } from '../lib/commands/aws/clients';
import { durationOption, endpointUrl, EXIT_FAILED, EXIT_TIMEOUT, newCommand, onInterrupt, progress, runCommand } from '../lib/commands/shared/cli';
import { type MoveFlags, type MovePlan, planModuleMove, planPhaseSwitch, withoutReferences } from '../lib/commands/move/move-plan';
import { renderMoveResults, renderMovePlan } from '../lib/commands/move/render-move';
import { moveTargets, routeTargets, runMoves } from '../lib/commands/move/mover-task';

interface Options {
  from?: string;
  to?: string;
  module?: string;
  scenario?: string;
  envName?: string;
  dryRun?: boolean;
  replace?: boolean;
  force?: boolean;
  dropSource?: boolean;
  online?: boolean;
  timeout: string;
  interval?: string;
  endpointUrl?: string;
}

const CLUSTERS: readonly ClusterRole[] = ['primary', 'offload'];

const program = newCommand('move')
  .description(
    "Moves FOLIO modules' schemas between the two Aurora clusters with the stack's mover task: before a phase switch's deploy (stop the modules first), or one module by hand.\n" +
      "With --online the modules keep running while their schemas replicate; at the switch this command points the modules' routes (DNS names) at their new cluster, and writes pause only until the routes lead there.\n" +
      `Exit codes: 0 done, 1 bad input, 2 AWS error, ${EXIT_TIMEOUT} a wait timed out, ${EXIT_FAILED} a move failed (the source is untouched; run it again).`,
  )
  .option('--from <phase>', 'the phase deployed now (with --to <phase>)')
  .option('--to <phase|cluster>', 'the phase to switch to; with --module, the cluster: primary or offload')
  .option('--module <name>', 'move one module (with --to <cluster>)')
  .option('-s, --scenario <phase>', "with --module: the phase deployed now (default: the stack's Phase output)")
  .option('--env-name <name>', 'the envName the stacks were deployed with, if any')
  .option('--dry-run', 'print what would move and run nothing')
  .option('--replace', 'set aside a target schema that already holds rows (renamed, never dropped) and copy afresh')
  .option('--force', 'move although sessions on the source still use a schema')
  .option('--drop-source', "drop the source's copies instead, each only if the target's verified copy still matches it")
  .option('--online', "keep the modules running: their schemas replicate, and writes pause only for the switch, when this command points the modules' routes at the target")
  .option('--timeout <duration>', 'how long each module may take, a Go duration', '2h')
  .option('--interval <duration>', 'how often to poll the task and its log (default 10s; 1s with --online, whose switch waits on it)')
  .option('--endpoint-url <url>', 'an AWS-API-compatible endpoint instead of AWS (a local emulator)', endpointUrl);

const phase = (option: string, name: string, envName?: string): FolioScenario => resolveScenarioOf('folio', { scenario: name, envName }, { option, command: 'move' });

/** Every argument checked before anything is read or started. */
function parse(o: Options): { flags: MoveFlags; plan?: MovePlan; module?: { name: string; to: ClusterRole } } {
  if (o.replace && o.dropSource) throw new ConfigError('--replace and --drop-source cannot be combined (valid: --replace when copying, --drop-source on its own after a verified copy)');
  if (o.online && (o.replace || o.dropSource || o.force))
    throw new ConfigError(`--online cannot be combined with ${o.replace ? '--replace' : o.dropSource ? '--drop-source' : '--force'} (valid: --online on its own; it copies into an empty target while the module runs)`);
  const flags: MoveFlags = { replace: o.replace, force: o.force, dropSource: o.dropSource, online: o.online };
  if (!o.to) throw new ConfigError('--to is required (valid: --from <phase> --to <phase>, or --module <name> --to primary|offload)');
  if (o.module) {
    if (o.from) throw new ConfigError('--module and --from cannot be combined (valid: --module <name> --to <cluster> [--scenario <deployed phase>])');
    if (!CLUSTERS.includes(o.to as ClusterRole)) throw new ConfigError(`--to "${o.to}" is not a cluster (valid with --module: ${CLUSTERS.join(', ')})`);
    return { flags, module: { name: o.module, to: o.to as ClusterRole } };
  }
  if (o.scenario) throw new ConfigError('--scenario applies to --module only (valid: --from <phase> --to <phase>)');
  if (!o.from) throw new ConfigError('--from is required with --to <phase> (valid: --from <phase> --to <phase>, or --module <name> --to <cluster>)');
  const plan = planPhaseSwitch(phase('--from', o.from, o.envName), phase('--to', o.to, o.envName));
  return { flags, plan: flags.dropSource ? withoutReferences(plan) : plan };
}

program.action((o: Options) =>
  runCommand(async () => {
    const { flags, plan: phasePlan, module } = parse(o);
    const waiting = { timeoutSeconds: durationOption('--timeout', o.timeout), intervalSeconds: durationOption('--interval', o.interval ?? (flags.online ? '1s' : '10s')) };
    if (o.dryRun && phasePlan) return void process.stdout.write(renderMovePlan(phasePlan, flags));
    if (o.dryRun && module && !o.scenario) throw new ConfigError('--dry-run with --module needs --scenario <deployed phase> (it reads no stack)');

    // The environment's stack runs the mover; any of its phases names it.
    const reference = phase(phasePlan ? '--from' : '--scenario', o.from ?? o.scenario ?? loadCatalog().folio.phases[0].name, o.envName);
    const target = { region: reference.env.region, endpoint: o.endpointUrl };
    const cfn = cloudFormationClient(target);
    const targets = o.dryRun ? undefined : { ...(await moveTargets(cfn, reference)), routes: flags.online ? await routeTargets(cfn, reference) : undefined };
    let plan = phasePlan;
    if (module) {
      const current = phase('--scenario', o.scenario ?? targets!.deployedPhase, o.envName);
      plan = planModuleMove(current, module.name, module.to);
      if (flags.dropSource) plan = withoutReferences(plan);
    }
    process.stdout.write(renderMovePlan(plan!, flags));
    if (o.dryRun || !plan!.moves.length) return;
    if (phasePlan && targets!.deployedPhase !== o.from)
      process.stderr.write(`note: ${reference.stackName} was last deployed with ${targets!.deployedPhase}, not ${o.from}\n`);

    const status = progress();
    const started: string[] = [];
    onInterrupt(() =>
      started.length
        ? `mover task ${started.at(-1)} still runs in cluster ${targets!.cluster} (the source is untouched until it verifies its copy; run the move again after it ends); stop it: aws ecs stop-task --cluster ${targets!.cluster} --task ${started.at(-1)}`
        : undefined,
    );
    const results = await runMoves({ ecs: ecsClient(target), logs: logsClient(target), route53: route53Client(target) }, targets!, plan!, flags, {
      ...waiting,
      onProgress: status.update,
      onStarted: (m, arn) => {
        started.push(arn);
        status.done();
        process.stderr.write(`${m}: mover task ${arn}\n`);
      },
      onRouted: (m, change) => {
        status.done();
        process.stderr.write(`${m}: routes now lead to the target (Route 53 change ${change})\n`);
      },
      onLine: (_m, line) => {
        status.done();
        process.stderr.write(`  ${line}\n`);
      },
    });
    status.done();
    process.stdout.write(`\n${renderMoveResults(results, flags.dropSource)}`);
    if (!flags.dropSource)
      process.stdout.write(
        flags.online
          ? `\n${plan!.restart.join(', ')} write on their new cluster through their routes. Deploy the phase next: it writes the same records and the routing manifest.\n`
          : `\nNext: deploy the phase, then restart ${plan!.restart.join(', ')}.\n`,
      );
  }),
);

program.parse();

