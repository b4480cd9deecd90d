#!/usr/bin/env node
import { type UiOptions, runUi } from '../lib/temporal/commands/ui/run-ui';
import { entryPoint, EXIT_FAILED, newCommand, runCommand, sharedOption } from '../lib/commands/shared/cli';

const program = newCommand('ui', { aws: true, [EXIT_FAILED]: 'nothing to forward to (hibernated, or no instance in service)' })
  .description(
    "How to reach the deployed preset's Temporal Web UI, or its Grafana with the live dashboard: the Session Manager port-forwarding command through one of its instances.",
  )
  .addOption(sharedOption.scenario('the Temporal preset deployed', 'temporal').makeOptionMandatory())
  .addOption(sharedOption.envName())
  .option('--dashboards', 'Grafana with the live dashboard instead of the Web UI')
  .option('--local-port <port>', "the port on this machine (default: the UI's own, environment.ui.port, or Grafana's, environment.dashboards.port)")
  .addOption(sharedOption.endpointUrl())
  .action((o: UiOptions) => runCommand(() => runUi(o)));

entryPoint(() => program.parse());
