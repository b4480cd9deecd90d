import { type CloudFormationClient, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { ConfigError } from '../../../../config';
import { HIBERNATED_PARAMETER } from '../../contract/temporal-stack-outputs';
import { type DeployedStack, deployedStack } from '../../../commands/aws/read-stack-outputs';
import { isHibernated } from '../shared/hibernated';
import { CommandFailure, EXIT_FAILED } from '../../../commands/shared/cli';
import { type Waiting, waitUntil } from '../../../commands/shared/waiting';

/*
 * The Temporal stack's Hibernated parameter, set with the template the stack already has
 * (UsePreviousTemplate): nothing else of the stack changes, and every later `cdk deploy` keeps
 * the value. The commands set it after the environment is in that state, so the update itself
 * moves nothing.
 */

/** Refuses before anything is touched: a stack of an older version (no parameter) or one a deploy is changing. */
export function checkParameterStack(stackName: string, stack: DeployedStack): void {
  if (stack.parameters[HIBERNATED_PARAMETER] === undefined)
    throw new ConfigError(
      `stack "${stackName}" has no ${HIBERNATED_PARAMETER} parameter (deployed with an older version): deploy it once with this version first`,
    );
  if (stack.status.endsWith('_IN_PROGRESS')) throw new ConfigError(`stack "${stackName}" is ${stack.status}: wait for that deploy to end, then run this again`);
}

/** Sets the parameter to `hibernated` and waits for the update; a no-op when it already holds that value. */
export async function recordHibernation(cfn: CloudFormationClient, stackName: string, hibernated: boolean, w: Waiting): Promise<'recorded' | 'already'> {
  const stack = await deployedStack(cfn, stackName);
  if (isHibernated(stack) === hibernated) return 'already';
  await cfn.send(
    new UpdateStackCommand({
      StackName: stackName,
      UsePreviousTemplate: true,
      Parameters: Object.keys(stack.parameters).map((key) =>
        key === HIBERNATED_PARAMETER ? { ParameterKey: key, ParameterValue: String(hibernated) } : { ParameterKey: key, UsePreviousValue: true },
      ),
      Capabilities: ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'],
    }),
  );
  await waitUntil(
    `stack ${stackName} to record ${HIBERNATED_PARAMETER}=${hibernated}`,
    async () => {
      const { status } = await deployedStack(cfn, stackName);
      if (/(FAILED|ROLLBACK)/.test(status))
        throw new CommandFailure(
          `stack ${stackName} went to ${status} while recording ${HIBERNATED_PARAMETER}=${hibernated}: see its events, then run this again`,
          EXIT_FAILED,
        );
      return { done: status.endsWith('_COMPLETE'), text: status };
    },
    w,
  );
  return 'recorded';
}
