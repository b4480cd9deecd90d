import { resolveScenario, type FolioScenario, type TemporalScenario } from '../../../config';
import { idleExpression, idleRule } from '../../../lib/contract/idle-rule';
import { BENCHMARK_WORKER_SERVICE } from '../../../lib/contract/physical-names';
import { ALL_SCENARIO_NAMES, editedCatalog, synthPhase, synthScenario } from '../../support/synth';

/* Every scenario's idle rule as deployed: the alarm on the rule's own expression, and what acts on it. */

const ofType = (json: Record<string, any>, type: string) => Object.entries(json.Resources as Record<string, any>).filter(([, r]) => r.Type === type);
const flat = (v: unknown) => JSON.stringify(v);

describe.each(ALL_SCENARIO_NAMES)('%s', (name) => {
  const scenario = resolveScenario({ scenario: name }) as TemporalScenario | FolioScenario;
  const rule = idleRule(scenario)!;
  const { json } = synthPhase(name);
  const alarms = ofType(json, 'AWS::CloudWatch::Alarm').filter(([, a]) => /-Idle(Fleet|Clusters)$/.test(a.Properties.AlarmName));

  test("one idle alarm on the rule's expression, metrics and minutes; missing data never breaches", () => {
    expect(alarms).toHaveLength(1);
    const [, alarm] = alarms[0];
    const p = alarm.Properties;
    expect(p.AlarmName).toBe(`${scenario.environment.observability.dashboard}-${scenario.family === 'temporal' ? 'IdleFleet' : 'IdleClusters'}`);
    expect(p).toMatchObject({
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: 1,
      EvaluationPeriods: rule.minutes,
      DatapointsToAlarm: rule.minutes,
      TreatMissingData: 'notBreaching',
    });
    const expression = p.Metrics.find((m: any) => m.Expression);
    expect(expression).toMatchObject({ Expression: idleExpression(rule), ReturnData: true });
    const stats = p.Metrics.filter((m: any) => m.MetricStat).map((m: any) => ({
      id: m.Id,
      namespace: m.MetricStat.Metric.Namespace,
      metricName: m.MetricStat.Metric.MetricName,
      dimensions: Object.fromEntries(m.MetricStat.Metric.Dimensions.map((d: any) => [d.Name, d.Value])),
      statistic: m.MetricStat.Stat,
      period: m.MetricStat.Period,
    }));
    expect(stats).toEqual(rule.metrics.map((m) => ({ ...m, period: 60 })));
  });

  test('tells the alarm topic, by an ARN under the name the observability stack gives it', () => {
    const actions = flat(alarms[0][1].Properties.AlarmActions);
    expect(actions).toContain(`:sns:`);
    expect(actions).toContain(`:${scenario.environment.observability.alarmTopic}"`);
  });

  if (scenario.family === 'temporal')
    test('invokes a step policy that sets the benchmark worker service to exactly 0 tasks', () => {
      const [[targetId, target]] = ofType(json, 'AWS::ApplicationAutoScaling::ScalableTarget');
      expect(target.Properties).toMatchObject({ MinCapacity: 0, ScalableDimension: 'ecs:service:DesiredCount', ServiceNamespace: 'ecs' });
      expect(flat(target.Properties.ResourceId)).toContain(`service/${scenario.environment.names.cluster}/${BENCHMARK_WORKER_SERVICE}`);
      expect(target.Properties.MaxCapacity).toBeGreaterThanOrEqual(scenario.preset.benchmark.workers.replicas);
      const [[policyId, policy]] = ofType(json, 'AWS::ApplicationAutoScaling::ScalingPolicy');
      expect(policy.Properties).toMatchObject({
        PolicyType: 'StepScaling',
        ScalingTargetId: { Ref: targetId },
        StepScalingPolicyConfiguration: { AdjustmentType: 'ExactCapacity', StepAdjustments: [{ MetricIntervalLowerBound: 0, ScalingAdjustment: 0 }] },
      });
      expect(alarms[0][1].Properties.AlarmActions).toContainEqual({ Ref: policyId });
    });
  else
    test("starts AWS's own Aurora stop runbook once per cluster, with roles scoped to the two clusters", () => {
      const [[, rule]] = ofType(json, 'AWS::Events::Rule');
      expect(rule.Properties.EventPattern).toMatchObject({
        source: ['aws.cloudwatch'],
        'detail-type': ['CloudWatch Alarm State Change'],
        detail: { state: { value: ['ALARM'] } },
      });
      const n = scenario.environment.names;
      const targets = rule.Properties.Targets as any[];
      expect(targets.map((t) => flat(t.Arn))).toEqual([0, 1].map(() => expect.stringContaining(':automation-definition/AWS-StartStopAuroraCluster:$DEFAULT')));
      expect(targets.map((t) => flat(t.Input))).toEqual(
        [n.primaryCluster, n.offloadCluster].map((c) => expect.stringContaining(`\\"ClusterName\\":[\\"${c}\\"],\\"Action\\":[\\"Stop\\"]`)),
      );
      const policies = ofType(json, 'AWS::IAM::Policy').filter(([id]) => id.startsWith('IdleStop'));
      const statements = policies.flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
      const rds = statements.find((s: any) => flat(s.Action).includes('rds:StopDBCluster'));
      expect(flat(rds.Resource)).toContain(`:cluster:${n.primaryCluster}`);
      expect(flat(rds.Resource)).toContain(`:cluster:${n.offloadCluster}`);
      expect(flat(statements)).not.toContain('"Resource":"*"');
    });
});

test('idle off in config: no alarm, no policy, no rule', () => {
  const catalog = editedCatalog((c) => {
    c.temporal.environment.spending.idle = { action: 'off' };
    c.folio.environment.spending.idle = { action: 'off' };
  });
  for (const name of ['temporal-150wps', 'test11']) {
    const { json } = synthScenario({ scenario: name }, catalog);
    const types = Object.values(json.Resources as Record<string, any>).map((r) => r.Type);
    expect(types).not.toContain('AWS::ApplicationAutoScaling::ScalableTarget');
    expect(types).not.toContain('AWS::Events::Rule');
    expect(ofType(json, 'AWS::CloudWatch::Alarm').filter(([, a]) => /Idle/.test(a.Properties.AlarmName))).toEqual([]);
  }
});
