import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type IAspect, CfnResource, Stack, Validations } from 'aws-cdk-lib/core';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { IConstruct } from 'constructs';
import { parse } from 'yaml';
import { z } from '../../../config/zod';

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

export const CHECKOV_SKIPS_FILE = join(__dirname, '../../../checkov-skips.yaml');

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

/**
 * AWS Control Tower's proactive controls that this app acknowledges on some resource, each with
 * the cfn-guard rule AWS ships it as (the control's "Rule Identifier"; test/lint checks the pair
 * against the pinned rules). A control met everywhere is not listed.
 */
export const CONTROL_TOWER_RULES = {
  'CT.AUTOSCALING.PR.6': 'autoscaling_mixed_instances_policy_multiple_instance_types_check',
  'CT.CLOUDWATCH.PR.2': 'cloudwatch_log_group_retention_period_check',
  'CT.EC2.PR.15': 'ec2_launch_template_nitro_instance_type_check',
  'CT.ECS.PR.3': 'ecs_task_definition_nonroot_user_check',
  'CT.LAMBDA.PR.3': 'lambda_inside_vpc_check',
  'CT.OPENSEARCH.PR.13': 'opensearch_audit_logging_enabled_check',
  'CT.OPENSEARCH.PR.15': 'opensearch_fine_grained_access_control_enabled_check',
  'CT.RDS.PR.3': 'rds_cluster_deletion_protection_enabled_check',
  'CT.STEPFUNCTIONS.PR.1': 'step_functions_state_machine_logging_enabled_check',
  'CT.STEPFUNCTIONS.PR.2': 'step_functions_state_machine_tracing_enabled_check',
} as const;
export type ControlTowerControl = keyof typeof CONTROL_TOWER_RULES;

/** The resource metadata key that holds a resource's Control Tower acknowledgements. */
export const CONTROL_TOWER_METADATA = 'control-tower';
export interface ControlTowerAcknowledgement {
  readonly control: ControlTowerControl;
  readonly rule: (typeof CONTROL_TOWER_RULES)[ControlTowerControl];
  readonly reason: string;
}

/**
 * Acknowledges one Control Tower proactive control on a resource (`scope` itself or its default
 * child), with the reason a reviewer reads, in the resource's `Metadata["control-tower"]`.
 * cfn-guard has no suppression of its own for these rules, and an organization that enforces the
 * control as a CloudFormation hook will still refuse the resource: docs/deploying.md lists these
 * controls so that a platform team can decide before the first deploy (test/lint holds every
 * finding to an acknowledgement and every acknowledgement to a finding).
 */
export function acknowledgeControl(scope: IConstruct, control: ControlTowerControl, reason: string): void {
  const resource = scope instanceof CfnResource ? scope : scope.node.defaultChild;
  if (!(resource instanceof CfnResource)) throw new Error(`${scope.node.path} has no CloudFormation resource to acknowledge ${control} on`);
  const earlier = (resource.getMetadata(CONTROL_TOWER_METADATA) ?? []) as ControlTowerAcknowledgement[];
  resource.addMetadata(CONTROL_TOWER_METADATA, [...earlier, { control, rule: CONTROL_TOWER_RULES[control], reason }]);
}

/** The same acknowledgement on every resource of `type` at or under `scope` (a provider framework's functions, say). */
function acknowledgeControlOnAll(scope: IConstruct, type: string, control: ControlTowerControl, reason: string): void {
  for (const node of scope.node.findAll()) if (node instanceof CfnResource && node.cfnResourceType === type) acknowledgeControl(node, control, reason);
}

/**
 * CT.LAMBDA.PR.3 on every function under `scope`: deploy-time custom-resource handlers (ours and
 * CDK's provider framework's), which call AWS APIs only.
 */
export function acknowledgeDeployTimeFunctions(scope: IConstruct): void {
  acknowledgeControlOnAll(
    scope,
    'AWS::Lambda::Function',
    'CT.LAMBDA.PR.3',
    'A deploy-time custom-resource handler: it runs only while CloudFormation deploys, calls AWS APIs only and reads nothing inside the VPC. In the VPC it would need an ENI per subnet, a route to each API it calls (NAT or interface endpoints) and the ec2 network-interface permissions, for no isolation gained.',
  );
}

/**
 * A teardown deploy lifts deletion protection from `clusters` (under `scope`): said to cdk-nag
 * (RDS10) and to Control Tower (CT.RDS.PR.3) in the same words.
 */
export function acknowledgeTeardown(scope: IConstruct, clusters: readonly IConstruct[]): void {
  const reason = 'Deletion protection is lifted only by `-c unprotect=true`, the first of the two teardown steps; every other deploy turns it on.';
  acknowledgeNag(scope, 'RDS10', reason);
  for (const cluster of clusters) acknowledgeControl(cluster, 'CT.RDS.PR.3', reason);
}

/** What CT.CLOUDWATCH.PR.2 asks of a log group: a year's retention (or none, which keeps logs forever). */
const CONTROL_RETENTION_DAYS = 365;

/**
 * Log groups kept less than a year: a choice, stated on each of them. A benchmark environment's
 * logs are read while a run is investigated (the reports read metrics, not logs) and the
 * environment is torn down between experiments; keeping every log a year would bill their
 * storage for months after anyone reads them.
 */
export class AcknowledgeShortLogRetention implements IAspect {
  visit(node: IConstruct): void {
    if (!(node instanceof logs.CfnLogGroup)) return;
    const days = Stack.of(node).resolve(node.retentionInDays) as unknown;
    if (typeof days !== 'number' || days >= CONTROL_RETENTION_DAYS) return;
    acknowledgeControl(
      node,
      'CT.CLOUDWATCH.PR.2',
      `Kept ${days} days, not a year: a benchmark environment's logs are read while a run is investigated (reports read metrics, not logs), and CloudWatch Logs bills every stored GB monthly for as long as it is kept. Raise the retention (logRetentionDays for Temporal's) to meet the control.`,
    );
  }
}
