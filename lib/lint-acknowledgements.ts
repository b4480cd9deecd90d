import { type IAspect, CfnResource } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * CDK makes every Lambda function (and the provider framework's state machine) DependsOn
 * its role and the role's default policy, which it also references by GetAtt: cfn-lint's
 * W3005 ("dependency already enforced"). The redundancy is CDK's pattern and harmless, so
 * it is acknowledged on exactly those resource types, and nowhere else.
 */
export class AcknowledgeCdkDependsOn implements IAspect {
  private static readonly TYPES = new Set(['AWS::Lambda::Function', 'AWS::StepFunctions::StateMachine']);

  visit(node: IConstruct): void {
    if (node instanceof CfnResource && AcknowledgeCdkDependsOn.TYPES.has(node.cfnResourceType)) {
      node.addMetadata('cfn-lint', { config: { ignore_checks: ['W3005'] } });
    }
  }
}
