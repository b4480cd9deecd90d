#!/usr/bin/env node
/** The least-privilege IAM policy each companion command needs, generated from the AWS calls its code makes. */
import { type OperatorPolicyOptions, runOperatorPolicy } from '../lib/commands/operator-policy/run-operator-policy';
import { entryPoint, newCommand, runCommand, sharedOption } from '../lib/commands/shared/cli';

const program = newCommand('operator-policy', { aws: false })
  .description("Print the IAM policy an operator needs for each command (and cdk deploy), read from the commands' own AWS calls")
  .option('--command <name>', "print one command's policy, as IAM JSON (cdk-deploy for cdk deploy)")
  .option('--write <dir>', 'write every policy and the page that lists them into a directory (docs/operator-policy)')
  .addOption(sharedOption.json('print every policy, by command, as JSON'));

entryPoint(() => runCommand(() => runOperatorPolicy(program.parse().opts<OperatorPolicyOptions>())));
