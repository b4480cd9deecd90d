#!/usr/bin/env node
import { type MoveOptions, runMove } from '../lib/folio/commands/move/run-move';
import { entryPoint, EXIT_FAILED, EXIT_TIMEOUT, newCommand, runCommand, sharedOption } from '../lib/commands/shared/cli';

const program = newCommand('move', {
  aws: true,
  [EXIT_TIMEOUT]: 'a wait ran past --timeout (nothing is undone; run it again to go on)',
  [EXIT_FAILED]: 'a move failed (the source is untouched; run it again)',
})
  .description(
    "Moves FOLIO modules' schemas between the two Aurora clusters with the stack's mover task: before a phase switch's deploy (stop the modules first), or one module by hand.\n" +
      "With --online the modules keep running while their schemas replicate; at the switch this command points the modules' routes (DNS names) at their new cluster, and writes pause only until the routes lead there.",
  )
  .option('--from <phase>', 'the phase deployed now (with --to <phase>)')
  .option('--to <phase|cluster>', 'the phase to switch to; with --module, the cluster: primary or offload')
  .option('--module <name>', 'move one module (with --to <cluster>)')
  .addOption(sharedOption.scenario("with --module: the phase deployed now (default: the stack's Phase output)", 'folio'))
  .addOption(sharedOption.envName())
  .option('--dry-run', 'print what would move and run nothing')
  .option('--replace', 'set aside a target schema that already holds rows (renamed, never dropped) and copy afresh')
  .option('--force', 'move although sessions on the source still use a schema')
  .option('--drop-source', "drop the source's copies instead, each only if the target's verified copy still matches it")
  .option(
    '--online',
    "keep the modules running: their schemas replicate, and writes pause only for the switch, when this command points the modules' routes at the target",
  )
  .option('--timeout <duration>', 'how long each module may take, a Go duration', '2h')
  .option('--interval <duration>', 'how often to poll the task and its log (default 10s; 1s with --online, whose switch waits on it)')
  .addOption(sharedOption.endpointUrl());

program.action((o: MoveOptions) => runCommand(() => runMove(o)));

entryPoint(() => program.parse());
