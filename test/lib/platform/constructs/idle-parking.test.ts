import { resolveScenario, type FolioScenario, type TemporalScenario } from '../../../../config';
import { folioIdleRules } from '../../../../lib/folio/contract/folio-idle-rule';
import { type IdleRule, idleExpression } from '../../../../lib/platform/contract/idle-rule';
import { temporalIdleRules } from '../../../../lib/temporal/contract/temporal-idle-rule';
import { BENCHMARK_WORKER_SERVICE } from '../../../../lib/temporal/contract/temporal-names';
import { editedCatalog, FOLIO_PHASE_NAMES, synthPhase, synthScenario, TEMPORAL_SCENARIO_NAMES } from '../../../support/synth';

/* Every FOLIO phase's and Temporal preset's idle rules as deployed: an alarm on each rule's own expression, and what acts on it. */

const ofType = (json: Record<string, any>, type: string) => Object.entries(json.Resources as Record<string, any>).filter(([, r]) => r.Type === type);
const flat = (v: unknown) => JSON.stringify(v);
const idleAlarms = (json: Record<string, any>) => ofType(json, 'AWS::CloudWatch::Alarm').filter(([, a]) => /-Idle[A-Z]\w+$/.test(a.Properties.AlarmName));

describe.each([...FOLIO_PHASE_NAMES, ...TEMPORAL_SCENARIO_NAMES])('%s', (name) => {
  const scenario = resolveScenario({ scenario: name }) as TemporalScenario | FolioScenario;
  const rules = scenario.family === 'folio' ? folioIdleRules(scenario) : temporalIdleRules(scenario);
  const { json } = synthPhase(name);
  const alarmOf = (rule: IdleRule) =>
    idleAlarms(json).find(([, a]) => a.Properties.AlarmName === `${scenario.environment.observability.dashboard}-${rule.id}`)!;

  test('one idle alarm per rule: the fleet (Temporal), the Aurora store (Temporal on Aurora), the clusters (FOLIO)', () => {
    const expected = scenario.family === 'folio' ? ['IdleClusters'] : scenario.preset.store.engine === 'dsql' ? ['IdleFleet'] : ['IdleFleet', 'IdleStore'];
    expect(rules.map((r) => r.id)).toEqual(expected);
    expect(idleAlarms(json)).toHaveLength(expected.length);
  });

  test("each alarm on its rule's expression, metrics and minutes; missing data never breaches; the alarm topic told", () => {
    for (const rule of rules) {
      const p = alarmOf(rule)[1].Properties;
      expect(p).toMatchObject({
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        Threshold: 1,
        EvaluationPeriods: rule.minutes,
        DatapointsToAlarm: rule.minutes,
        TreatMissingData: 'notBreaching',
      });
      expect(p.Metrics.find((m: any) => m.Expression)).toMatchObject({ Expression: idleExpression(rule), ReturnData: true });
      const stats = p.Metrics.filter((m: any) => m.MetricStat).map((m: any) => ({
        id: m.Id,
        namespace: m.MetricStat.Metric.Namespace,
        metricName: m.MetricStat.Metric.MetricName,
        dimensions: Object.fromEntries(m.MetricStat.Metric.Dimensions.map((d: any) => [d.Name, d.Value])),
        statistic: m.MetricStat.Stat,
        period: m.MetricStat.Period,
      }));
      expect(stats).toEqual(rule.metrics.map((m) => ({ ...m, period: 60 })));
      expect(flat(p.AlarmActions)).toContain(`:sns:`);
      expect(flat(p.AlarmActions)).toContain(`:${scenario.environment.observability.alarmTopic}"`);
    }
  });

  const fleet = rules.find((r) => r.action === 'park-fleet');
  if (fleet)
    test('the fleet rule invokes a step policy that sets the benchmark worker service to exactly 0 tasks', () => {
      const [[targetId, target]] = ofType(json, 'AWS::ApplicationAutoScaling::ScalableTarget');
      expect(target.Properties).toMatchObject({ MinCapacity: 0, ScalableDimension: 'ecs:service:DesiredCount', ServiceNamespace: 'ecs' });
      expect(flat(target.Properties.ResourceId)).toContain(`service/${(scenario as TemporalScenario).environment.names.cluster}/${BENCHMARK_WORKER_SERVICE}`);
      expect(target.Properties.MaxCapacity).toBeGreaterThanOrEqual((scenario as TemporalScenario).preset.benchmark.workers.replicas);
      const [[policyId, policy]] = ofType(json, 'AWS::ApplicationAutoScaling::ScalingPolicy');
      expect(policy.Properties).toMatchObject({
        PolicyType: 'StepScaling',
        ScalingTargetId: { Ref: targetId },
        StepScalingPolicyConfiguration: { AdjustmentType: 'ExactCapacity', StepAdjustments: [{ MetricIntervalLowerBound: 0, ScalingAdjustment: 0 }] },
      });
      expect(alarmOf(fleet)[1].Properties.AlarmActions).toContainEqual({ Ref: policyId });
    });

  const stop = rules.find((r) => r.action === 'stop-clusters');
  if (stop)
    test("the cluster rule starts AWS's own Aurora stop runbook once per cluster, with roles scoped to those clusters", () => {
      const [[, rule]] = ofType(json, 'AWS::Events::Rule');
      expect(rule.Properties.EventPattern).toMatchObject({
        source: ['aws.cloudwatch'],
        'detail-type': ['CloudWatch Alarm State Change'],
        resources: [{ 'Fn::GetAtt': [alarmOf(stop)[0], 'Arn'] }],
        detail: { state: { value: ['ALARM'] } },
      });
      const targets = rule.Properties.Targets as any[];
      expect(targets.map((t) => flat(t.Arn))).toEqual(
        stop.clusters!.map(() => expect.stringContaining(':automation-definition/AWS-StartStopAuroraCluster:$DEFAULT')),
      );
      expect(targets.map((t) => flat(t.Input))).toEqual(
        stop.clusters!.map((c) => expect.stringContaining(`\\"ClusterName\\":[\\"${c}\\"],\\"Action\\":[\\"Stop\\"]`)),
      );
      const statements = ofType(json, 'AWS::IAM::Policy')
        .filter(([id]) => /^Idle(Stop|StoreStop)/.test(id))
        .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
      const rds = statements.find((s: any) => flat(s.Action).includes('rds:StopDBCluster'));
      for (const c of stop.clusters!) expect(flat(rds.Resource)).toContain(`:cluster:${c}`);
      expect(flat(statements)).not.toContain('"Resource":"*"');
    });
});

test('idle off in config: no alarm, no policy, no rule', () => {
  const catalog = editedCatalog((c) => {
    c.temporal.environment.spending.idle = { action: 'off' };
    c.folio.environment.spending.idle = { action: 'off' };
  });
  for (const name of ['temporal-150wps', 'temporal-aurora-150wps', 'test11']) {
    const { json } = synthScenario({ scenario: name }, catalog);
    const types = Object.values(json.Resources as Record<string, any>).map((r) => r.Type);
    expect(types).not.toContain('AWS::ApplicationAutoScaling::ScalableTarget');
    expect(types).not.toContain('AWS::Events::Rule');
    expect(idleAlarms(json)).toEqual([]);
  }
});
