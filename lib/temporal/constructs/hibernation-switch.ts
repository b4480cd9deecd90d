import { CfnCondition, CfnParameter, Fn, type Stack, Token } from 'aws-cdk-lib/core';
import * as autoscaling from 'aws-cdk-lib/aws-autoscaling';
import { HIBERNATED_PARAMETER } from '../contract/temporal-stack-outputs';

/**
 * The stack's `Hibernated` parameter and what it holds at zero: every count a deploy would
 * otherwise set (the main pool's size, each service's tasks). `npm run hibernate` drains the
 * environment in order and then sets the parameter; from then on `cdk deploy`, which keeps a
 * parameter's previous value, deploys the preset hibernated: no instance starts until `npm run
 * wake`. A plain group, not a construct: the parameter and its condition are named on the
 * stack itself, where the commands look for them.
 */
export class HibernationSwitch {
  private readonly condition: CfnCondition;

  constructor(stack: Stack) {
    const parameter = new CfnParameter(stack, HIBERNATED_PARAMETER, {
      type: 'String',
      allowedValues: ['false', 'true'],
      default: 'false',
      description: 'true while the environment is hibernated (npm run hibernate / npm run wake set it); a deploy keeps its value',
    });
    this.condition = new CfnCondition(stack, 'IsHibernated', { expression: Fn.conditionEquals(parameter.valueAsString, 'true') });
  }

  /** `count` while awake, 0 while hibernated. */
  count(count: number): number {
    return Token.asNumber(Fn.conditionIf(this.condition.logicalId, 0, count));
  }

  /** A group whose minimum is `min` while awake and 0 while hibernated (its maximum stays). */
  holdMinimum(group: autoscaling.AutoScalingGroup, min: number): void {
    (group.node.defaultChild as autoscaling.CfnAutoScalingGroup).minSize = Fn.conditionIf(this.condition.logicalId, '0', String(min)).toString();
  }
}
