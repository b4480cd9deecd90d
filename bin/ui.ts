#!/usr/bin/env node
import { type UiOptions, runUi } from '../lib/commands/ui/run-ui';
import { entryPoint, endpointUrl, EXIT_FAILED, newCommand, runCommand } from '../lib/commands/shared/cli';

const program = newCommand('ui')
  .description(
    "How to reach the deployed preset's Temporal Web UI, or its Grafana with the live dashboard: the Session Manager port-forwarding command through one of its instances.\n" +
      `Exit codes: 0 printed, 1 bad input, 2 AWS error, ${EXIT_FAILED} nothing to forward to (hibernated, or no instance in service).`,
  )
  .requiredOption('-s, --scenario <name>', 'the Temporal preset deployed')
  .option('--env-name <name>', 'the envName the stacks were deployed with, if any')
  .option('--dashboards', 'Grafana with the live dashboard instead of the Web UI')
  .option('--local-port <port>', "the port on this machine (default: the UI's own, environment.ui.port, or Grafana's, environment.dashboards.port)")
  .option('--endpoint-url <url>', 'an AWS-API-compatible endpoint instead of AWS (a local emulator)', endpointUrl)
  .action((o: UiOptions) => runCommand(() => runUi(o)));

entryPoint(() => program.parse());
