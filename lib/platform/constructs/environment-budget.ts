import * as budgets from 'aws-cdk-lib/aws-budgets';
import { Construct } from 'constructs';
import { BUDGET_MONTH_DAYS } from '../../../config/spending-schema';
import { ENVIRONMENT_TAG } from '../contract/physical-names';

export interface EnvironmentBudgetProps {
  /** The environment's data stack name: its budgets' names and the value of its cost-allocation tag. */
  readonly environment: string;
  readonly dailyUsd: number;
  /** The alarm topic, which lets AWS Budgets publish. */
  readonly topicArn: string;
}

/**
 * What the environment may spend, counted by its cost-allocation tag: a daily budget that tells
 * the alarm topic when a day's actual cost passes the amount, and a monthly one (30 such days)
 * that tells it when the month is forecast to pass, or has passed, its amount. AWS Budgets
 * forecasts only monthly and longer budgets, hence two. Budgets without actions cost nothing.
 */
export class EnvironmentBudget extends Construct {
  constructor(scope: Construct, id: string, props: EnvironmentBudgetProps) {
    super(scope, id);
    const costFilters = { TagKeyValue: [`user:${ENVIRONMENT_TAG}$${props.environment}`] };
    const tell = (notificationType: 'ACTUAL' | 'FORECASTED'): budgets.CfnBudget.NotificationWithSubscribersProperty => ({
      notification: { notificationType, comparisonOperator: 'GREATER_THAN', threshold: 100, thresholdType: 'PERCENTAGE' },
      subscribers: [{ subscriptionType: 'SNS', address: props.topicArn }],
    });
    new budgets.CfnBudget(this, 'Daily', {
      budget: {
        budgetName: `${props.environment}-daily`,
        budgetType: 'COST',
        timeUnit: 'DAILY',
        budgetLimit: { amount: props.dailyUsd, unit: 'USD' },
        costFilters,
      },
      notificationsWithSubscribers: [tell('ACTUAL')],
    });
    new budgets.CfnBudget(this, 'Monthly', {
      budget: {
        budgetName: `${props.environment}-monthly`,
        budgetType: 'COST',
        timeUnit: 'MONTHLY',
        budgetLimit: { amount: Math.round(props.dailyUsd * BUDGET_MONTH_DAYS * 100) / 100, unit: 'USD' },
        costFilters,
      },
      notificationsWithSubscribers: [tell('FORECASTED'), tell('ACTUAL')],
    });
  }
}
