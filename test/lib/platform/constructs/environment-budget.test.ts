import { resolveScenario } from '../../../../config';
import { BUDGET_MONTH_DAYS } from '../../../../config/spending-schema';
import { ENVIRONMENT_TAG } from '../../../../lib/platform/contract/physical-names';
import { STATEFUL_TYPES } from '../../../../lib/commands/plan/resource-changes';
import { resourcesOfType, synthObservability, synthScenario } from '../../../support/synth';

/* Each environment's budget counts what carries its tag, and tells the alarm topic. */

describe.each([
  ['temporal-150wps', {}],
  ['test11', {}],
  ['test12', { envName: 'perf2' }],
])('%s %j', (name, extra) => {
  const context = { scenario: name, ...extra };
  const scenario = resolveScenario(context);
  const obs = synthObservability(context).json;
  const budgets = resourcesOfType(obs, 'AWS::Budgets::Budget');
  const topicId = Object.entries(obs.Resources as Record<string, any>).find(([, r]) => r.Type === 'AWS::SNS::Topic')![0];
  const daily = scenario.environment.spending.budget.dailyUsd;

  test("a daily budget (actual) and a monthly one (forecast and actual), named by the environment's stack and counting its tag", () => {
    const filter = { TagKeyValue: [`user:${ENVIRONMENT_TAG}$${scenario.stackName}`] };
    expect(budgets.map((b) => b.Properties.Budget)).toEqual([
      { BudgetName: `${scenario.stackName}-daily`, BudgetType: 'COST', TimeUnit: 'DAILY', BudgetLimit: { Amount: daily, Unit: 'USD' }, CostFilters: filter },
      {
        BudgetName: `${scenario.stackName}-monthly`,
        BudgetType: 'COST',
        TimeUnit: 'MONTHLY',
        BudgetLimit: { Amount: daily * BUDGET_MONTH_DAYS, Unit: 'USD' },
        CostFilters: filter,
      },
    ]);
    const kinds = budgets.map((b) => b.Properties.NotificationsWithSubscribers.map((n: any) => n.Notification.NotificationType));
    expect(kinds).toEqual([['ACTUAL'], ['FORECASTED', 'ACTUAL']]);
    for (const b of budgets)
      for (const n of b.Properties.NotificationsWithSubscribers) {
        expect(n.Notification).toMatchObject({ ComparisonOperator: 'GREATER_THAN', Threshold: 100, ThresholdType: 'PERCENTAGE' });
        expect(n.Subscribers).toEqual([{ SubscriptionType: 'SNS', Address: { Ref: topicId } }]);
      }
  });

  test('every stateful resource and every Auto Scaling group (its instances, at launch) carries the tag the budget counts', () => {
    const data = synthScenario(context).json;
    const untagged = Object.entries(data.Resources as Record<string, any>)
      .filter(([, r]) => STATEFUL_TYPES.has(r.Type) || r.Type === 'AWS::AutoScaling::AutoScalingGroup')
      .filter(
        ([, r]) => !(r.Properties?.Tags ?? []).some((t: any) => t.Key === ENVIRONMENT_TAG && t.Value === scenario.stackName && t.PropagateAtLaunch !== false),
      );
    expect(untagged.map(([id, r]) => `${id} ${r.Type}`)).toEqual([]);
  });
});
