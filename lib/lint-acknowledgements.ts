import { type IAspect, CfnResource, Stack, Validations } from 'aws-cdk-lib';
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

/**
 * Acknowledges one cdk-nag AwsSolutions finding on `scope` and everything under it, with the
 * reason a reviewer reads. `rule` is the finding as cdk-nag names it, e.g. `IAM5[Resource::*]`.
 */
export function acknowledgeNag(scope: IConstruct, rule: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions::AwsSolutions-${rule}`, reason });
}

/** A resource string (an ARN with tokens in it) as cdk-nag writes it in a finding: `<LogicalId.Arn>`, `<LogicalId>`. */
export function nagResource(scope: IConstruct, value: string): string {
  const part = (p: unknown): string => {
    if (typeof p === 'string') return p;
    const o = p as Record<string, any>;
    if (o.Ref) return `<${o.Ref}>`;
    if (o['Fn::GetAtt']) return `<${o['Fn::GetAtt'].join('.')}>`;
    if (o['Fn::Join']) return o['Fn::Join'][1].map(part).join(o['Fn::Join'][0]);
    return JSON.stringify(p);
  };
  return part(Stack.of(scope).resolve(value));
}
