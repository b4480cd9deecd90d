import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type IAspect, CfnResource, Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { parse } from 'yaml';
import { z } from 'zod';

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

export const CHECKOV_SKIPS_FILE = join(__dirname, '../../checkov-skips.yaml');

const checkovSkipsSchema = z.array(
  z.strictObject({
    check: z.string().regex(/^CKV2?_AWS_\d+$/),
    reason: z.string().min(60),
    resources: z.array(z.string().min(1)).min(1),
  }),
);
export type CheckovSkip = z.infer<typeof checkovSkipsSchema>[number];

/**
 * Writes the checkov skips of `checkov-skips.yaml` into the `Metadata.checkov.skip` of the
 * resources they name (construct paths under the stack), so that checkov reports them as
 * skipped, with their reasons, on any synthesized template.
 */
export class CheckovSkips implements IAspect {
  private readonly byPath = new Map<string, CheckovSkip[]>();

  constructor(skips: readonly CheckovSkip[] = loadCheckovSkips()) {
    for (const skip of skips) for (const path of skip.resources) this.byPath.set(path, [...(this.byPath.get(path) ?? []), skip]);
  }

  visit(node: IConstruct): void {
    if (!(node instanceof CfnResource)) return;
    const skips = this.byPath.get(node.node.path.slice(Stack.of(node).node.path.length + 1));
    if (skips) node.addMetadata('checkov', { skip: skips.map((s) => ({ id: s.check, comment: s.reason })) });
  }
}

export function loadCheckovSkips(file = CHECKOV_SKIPS_FILE): CheckovSkip[] {
  const parsed = checkovSkipsSchema.safeParse(parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
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
