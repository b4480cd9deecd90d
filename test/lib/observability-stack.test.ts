import { Match } from 'aws-cdk-lib/assertions';
import { loadCatalog, resolveScenario } from '../../config';
import { catalogFor } from '../../lib/families';
import { metricsOf } from '../../lib/platform/contract/metrics';
import { FOLIO_PHASE_NAMES, TEMPORAL_SCENARIO_NAMES, editedCatalog, synthObservability, synthScenario } from '../support/synth';

/*
 * The dashboards and alarms, by fine-grained assertions on the synthesized templates, and the
 * single-source rule: every metric they draw comes from the catalog the report reads.
 */

const resources = (json: Record<string, any>, type: string) => Object.entries(json.Resources as Record<string, any>).filter(([, r]) => r.Type === type);

/** The dashboard body with every token replaced by a marker, parsed. */
function dashboardBody(json: Record<string, any>): any {
  const [[, dashboard]] = resources(json, 'AWS::CloudWatch::Dashboard');
  const body = dashboard.Properties.DashboardBody;
  const text = typeof body === 'string' ? body : body['Fn::Join'][1].map((p: unknown) => (typeof p === 'string' ? p : 'TOKEN')).join('');
  return JSON.parse(text);
}

/** `namespace metricName dim value ...` with dimensions sorted by name, as CDK writes them. */
const metricKey = (namespace: string, metricName: string, dimensions: Record<string, string>) =>
  [
    namespace,
    metricName,
    ...Object.entries(dimensions)
      .sort(([a], [b]) => a.localeCompare(b))
      .flat(),
  ].join(' ');

/** Every metric drawn on the dashboard, as a metricKey. */
function drawnMetrics(body: any): string[] {
  const out: string[] = [];
  for (const w of body.widgets) {
    for (const row of w.properties.metrics ?? []) {
      const [namespace, metricName, ...dims] = row.filter((x: unknown) => typeof x === 'string');
      if (metricName === undefined) continue;
      const pairs: Record<string, string> = {};
      for (let i = 0; i < dims.length; i += 2) pairs[dims[i]] = dims[i + 1];
      out.push(metricKey(namespace, metricName, pairs));
    }
  }
  return out;
}

const alarmByName = (json: Record<string, any>, name: string) => {
  const found = resources(json, 'AWS::CloudWatch::Alarm').filter(([, r]) => r.Properties.AlarmName === name);
  if (found.length !== 1) throw new Error(`expected one alarm named ${name}, found ${found.length}`);
  return found[0][1].Properties;
};

describe('FOLIO observability', () => {
  const test10 = synthObservability({ scenario: 'test10' });

  test('is its own stack, deployed after the data stack, with physical names that never contain the phase', () => {
    expect(test10.artifact.stackName).toBe('FolioHybridAuroraObservability');
    expect(test10.artifact.dependencies).toEqual(['FolioHybridAurora']);
    test10.template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: 'folio-hybrid-aurora' });
    test10.template.hasResourceProperties('AWS::SNS::Topic', { TopicName: 'folio-hybrid-aurora-alarms' });
    for (const phase of FOLIO_PHASE_NAMES)
      expect(JSON.stringify(synthObservability({ scenario: phase }).json)).not.toMatch(new RegExp(`"(DashboardName|TopicName|AlarmName)":"[^"]*${phase}`));
  });

  test("the Serverless capacity graph draws the phase's ACU range as lines", () => {
    for (const [phase, min, max] of [
      ['test10', 0.5, 32],
      ['test6', 0.5, 128],
      ['test12', 5, 64],
    ] as const) {
      const body = dashboardBody(synthObservability({ scenario: phase }).json);
      const acu = body.widgets.find((w: any) => w.properties.title === 'Serverless v2 capacity (ACU)');
      expect(acu.properties.metrics).toEqual([
        ['AWS/RDS', 'ServerlessDatabaseCapacity', 'DBClusterIdentifier', 'folio-hybrid-serverless', { label: 'Serverless v2 capacity', period: 60 }],
      ]);
      expect(acu.properties.annotations.horizontal).toEqual([
        { value: max, label: `max ${max} ACU`, yAxis: 'left' },
        { value: min, label: `min ${min} ACU`, yAxis: 'left' },
      ]);
    }
  });

  test('graphs what seed 002 discusses, for both clusters', () => {
    const drawn = drawnMetrics(dashboardBody(test10.json));
    expect(drawn).toEqual(
      expect.arrayContaining([
        'AWS/RDS ACUUtilization DBClusterIdentifier folio-hybrid-serverless',
        ...['provisioned', 'serverless'].flatMap((c) =>
          ['CPUUtilization', 'DatabaseConnections', 'FreeableMemory'].map((m) => `AWS/RDS ${m} DBClusterIdentifier folio-hybrid-${c} Role WRITER`),
        ),
        'AWS/RDS DBLoad DBInstanceIdentifier folio-hybrid-provisioned-writer',
        'AWS/RDS DBLoad DBInstanceIdentifier folio-hybrid-serverless-writer',
      ]),
    );
  });

  test('the header says which phase the graphs belong to', () => {
    const body = dashboardBody(test10.json);
    expect(body.widgets[0].properties.markdown).toContain('FolioHybridAurora: test10');
    expect(body.widgets[0].properties.markdown).toContain('offload cluster Serverless v2 0.5-32 ACU; routed to the offload cluster: mod-source-record-manager');
  });

  test('a provisioned offload cluster has no capacity panel or ceiling alarm, and its CPU alarm names its class', () => {
    const part3 = synthObservability({ scenario: 'part3' }).json;
    const body = dashboardBody(part3);
    expect(body.widgets[0].properties.markdown).toContain('offload cluster provisioned db.r8g.2xlarge');
    expect(JSON.stringify(body)).not.toContain('ServerlessDatabaseCapacity');
    expect(resources(part3, 'AWS::CloudWatch::Alarm').map(([, r]) => r.Properties.AlarmName)).not.toContain('folio-hybrid-aurora-ServerlessAtCeiling');
    expect(alarmByName(part3, 'folio-hybrid-aurora-OffloadCpuHigh').AlarmDescription).toContain('offload (provisioned db.r8g.2xlarge) writer CPU');
  });

  test('capacity flat at the ceiling: the minimum of every minute at >= 95% of max ACU, for 15 minutes', () => {
    const a = alarmByName(test10.json, 'folio-hybrid-aurora-ServerlessAtCeiling');
    expect(a).toMatchObject({
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: 30.4,
      EvaluationPeriods: 15,
      DatapointsToAlarm: 15,
      TreatMissingData: 'notBreaching',
    });
    const stat = a.Metrics?.[0].MetricStat ?? {
      Metric: { MetricName: a.MetricName, Namespace: a.Namespace, Dimensions: a.Dimensions },
      Stat: a.Statistic,
      Period: a.Period,
    };
    expect(stat).toEqual({
      Metric: {
        Namespace: 'AWS/RDS',
        MetricName: 'ServerlessDatabaseCapacity',
        Dimensions: [{ Name: 'DBClusterIdentifier', Value: 'folio-hybrid-serverless' }],
      },
      Stat: 'Minimum',
      Period: 60,
    });
    expect(alarmByName(synthObservability({ scenario: 'test6' }).json, 'folio-hybrid-aurora-ServerlessAtCeiling').Threshold).toBe(121.6);
  });

  test('sustained CPU >= 90% on either writer', () => {
    for (const key of ['Primary', 'Offload']) {
      const a = alarmByName(test10.json, `folio-hybrid-aurora-${key}CpuHigh`);
      expect(a).toMatchObject({ Threshold: 90, EvaluationPeriods: 15, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      expect(JSON.stringify(a)).toContain(`"Value":"folio-hybrid-${key === 'Primary' ? 'provisioned' : 'serverless'}"`);
    }
  });

  test('thresholds come from config', () => {
    const catalog = editedCatalog((c) => {
      c.folio.environment.observability.alarms.cpuHigh = { percent: 75, minutes: 5 };
      c.folio.environment.observability.alarms.serverlessAtCeiling.percentOfMax = 100;
    });
    const json = synthObservability({ scenario: 'test10' }, catalog).json;
    expect(alarmByName(json, 'folio-hybrid-aurora-PrimaryCpuHigh')).toMatchObject({ Threshold: 75, EvaluationPeriods: 5 });
    expect(alarmByName(json, 'folio-hybrid-aurora-ServerlessAtCeiling').Threshold).toBe(32);
  });
});

describe('alarm topic', () => {
  const { template, json } = synthObservability({ scenario: 'test10' });

  test('every alarm notifies the topic on alarm and on recovery', () => {
    const alarms = resources(json, 'AWS::CloudWatch::Alarm');
    expect(alarms).toHaveLength(3);
    const [[topicId]] = resources(json, 'AWS::SNS::Topic');
    for (const [, a] of alarms) {
      expect(a.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(a.Properties.OKActions).toEqual([{ Ref: topicId }]);
    }
  });

  test('is encrypted with its own rotating key, which CloudWatch and AWS Budgets of this account may use', () => {
    const [[keyId, key]] = resources(json, 'AWS::KMS::Key');
    expect(key.Properties.EnableKeyRotation).toBe(true);
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } });
    expect(key.Properties.KeyPolicy.Statement).toContainEqual(
      expect.objectContaining({
        Principal: { Service: ['budgets.amazonaws.com', 'cloudwatch.amazonaws.com'] },
        Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
      }),
    );
  });

  test("refuses plain HTTP, and only this account's alarms of this environment and its budgets may publish", () => {
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: 'sns:Publish',
            Condition: {
              StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
              ArnLike: { 'aws:SourceArn': { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp(':alarm:folio-hybrid-aurora-\\*$')])] } },
            },
          }),
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'budgets.amazonaws.com' },
            Action: 'sns:Publish',
            Condition: {
              StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
              ArnLike: { 'aws:SourceArn': { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp(':budgets::$'), ':*'])] } },
            },
          }),
        ]),
      },
    });
  });

  test('subscribes the configured addresses, and none by default', () => {
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    const catalog = editedCatalog((c) => {
      c.folio.environment.observability.alarmEmails = ['perf-team@example.org'];
    });
    synthObservability({ scenario: 'test10' }, catalog).template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'perf-team@example.org',
    });
  });
});

describe('Temporal observability', () => {
  const { json, artifact } = synthObservability({ scenario: 'temporal-150wps' });
  const body = dashboardBody(json);
  const DSQL_ID = {
    'Fn::GetStackOutput': { StackName: 'TemporalDsql', Region: 'eu-west-1', OutputName: expect.stringMatching(/^PublishOutputFnGetAttDsql.*Identifier/) },
  };

  test('reads the DSQL cluster id from the data stack without an export lock', () => {
    expect(artifact.dependencies).toEqual(['TemporalDsql']);
    const occ = alarmByName(json, 'temporal-dsql-OccConflicts');
    expect(occ.Metrics[0].MetricStat.Metric).toEqual({
      Namespace: 'AWS/AuroraDSQL',
      MetricName: 'OccConflicts',
      Dimensions: [{ Name: 'ClusterId', Value: DSQL_ID }],
    });
    expect(JSON.stringify(json)).not.toContain('Fn::ImportValue');
    const published = Object.keys(synthScenario({ scenario: 'temporal-150wps' }).json.Outputs).filter((k) => k.startsWith('PublishOutput'));
    expect(published).toEqual([expect.stringMatching(/^PublishOutputFnGetAttDsql.*Identifier/)]);
  });

  test('draws total, read-only and derived write transactions: there is no write-transaction metric', () => {
    const tx = body.widgets.find((w: any) => w.properties.title === 'DSQL transactions per minute');
    expect(tx.properties.metrics).toEqual([
      ['AWS/AuroraDSQL', 'TotalTransactions', 'ClusterId', 'TOKEN', { label: 'TotalTx', stat: 'Sum', period: 60, id: 'totalTx' }],
      ['AWS/AuroraDSQL', 'ReadOnlyTransactions', 'ClusterId', 'TOKEN', { label: 'ReadOnlyTx', stat: 'Sum', period: 60, id: 'readOnlyTx' }],
      [{ label: 'WriteTx (total - read-only)', expression: 'totalTx - readOnlyTx', period: 60 }],
    ]);
    expect(JSON.stringify(json)).not.toContain('WriteTransactions');
  });

  test('graphs commit latency, OCC conflicts, connections, the limiter table and every service', () => {
    const drawn = drawnMetrics(body);
    expect(drawn).toEqual(
      expect.arrayContaining([
        'AWS/AuroraDSQL CommitLatency ClusterId TOKEN',
        'AWS/AuroraDSQL OccConflicts ClusterId TOKEN',
        'AWS/Usage ResourceCount Class None Resource ClusterConnectionCount Service AuroraDSQL Type Resource',
        'AWS/DynamoDB WriteThrottleEvents TableName temporal-dsql-conn-limiter',
        'AWS/DynamoDB ConsumedWriteCapacityUnits TableName temporal-dsql-conn-limiter',
      ]),
    );
    for (const service of ['temporal-history', 'temporal-matching', 'temporal-frontend', 'temporal-worker', 'benchmark-worker']) {
      expect(drawn).toContain(`AWS/ECS CPUUtilization ClusterName temporal-dsql ServiceName ${service}`);
      expect(drawn).toContain(`AWS/ECS MemoryUtilization ClusterName temporal-dsql ServiceName ${service}`);
    }
  });

  test('the connections graph draws the pools-full line of the preset', () => {
    const conn = body.widgets.find((w: any) => w.properties.title === 'DSQL connections');
    expect(conn.properties.annotations.horizontal).toEqual([{ value: 1000, label: 'pools full: 20 tasks x 50', yAxis: 'left' }]);
    const small = dashboardBody(synthObservability({ scenario: 'temporal-25wps' }).json);
    const preset = loadCatalog().temporal.scenarios.find((p) => p.name === 'temporal-25wps')!;
    const tasks = Object.values(preset.services).reduce((n, s) => n + s.replicas, 0);
    expect(small.widgets.find((w: any) => w.properties.title === 'DSQL connections').properties.annotations.horizontal[0].value).toBe(tasks * 50);
  });

  test('alarms: OCC spikes, limiter throttles, and per service CPU and tasks below desired', () => {
    const names = resources(json, 'AWS::CloudWatch::Alarm')
      .map(([, r]) => r.Properties.AlarmName)
      .sort();
    expect(names).toEqual(
      [
        'temporal-dsql-OccConflicts',
        'temporal-dsql-LimiterThrottled',
        ...['History', 'Matching', 'Frontend', 'Worker', 'BenchmarkWorker'].flatMap((s) => [
          `temporal-dsql-${s}CpuHigh`,
          `temporal-dsql-${s}TasksBelowDesired`,
        ]),
      ].sort(),
    );
    expect(alarmByName(json, 'temporal-dsql-OccConflicts')).toMatchObject({ ComparisonOperator: 'GreaterThanThreshold', Threshold: 100, EvaluationPeriods: 3 });
    expect(alarmByName(json, 'temporal-dsql-HistoryCpuHigh')).toMatchObject({ Threshold: 90, EvaluationPeriods: 10 });
  });

  test('tasks below desired is Container Insights desired minus running, at least one task for 10 minutes', () => {
    const a = alarmByName(json, 'temporal-dsql-HistoryTasksBelowDesired');
    expect(a).toMatchObject({ ComparisonOperator: 'GreaterThanOrEqualToThreshold', Threshold: 1, EvaluationPeriods: 10, TreatMissingData: 'notBreaching' });
    const byId = Object.fromEntries(a.Metrics.map((m: any) => [m.Id, m]));
    expect(a.Metrics.find((m: any) => m.Expression)).toMatchObject({ Expression: 'desiredHistory - runningHistory', ReturnData: true });
    for (const [id, name] of [
      ['desiredHistory', 'DesiredTaskCount'],
      ['runningHistory', 'RunningTaskCount'],
    ]) {
      expect(byId[id].MetricStat.Metric).toEqual({
        Namespace: 'ECS/ContainerInsights',
        MetricName: name,
        Dimensions: [
          { Name: 'ClusterName', Value: 'temporal-dsql' },
          { Name: 'ServiceName', Value: 'temporal-history' },
        ],
      });
      expect(byId[id].ReturnData).toBe(false);
    }
  });

  test('an envName prefixes the stack, dashboard, topic and alarm names', () => {
    const copy = synthObservability({ scenario: 'temporal-150wps', envName: 'perf2' });
    expect(copy.artifact.stackName).toBe('perf2-TemporalDsqlObservability');
    copy.template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: 'perf2-temporal-dsql' });
    copy.template.hasResourceProperties('AWS::SNS::Topic', { TopicName: 'perf2-temporal-dsql-alarms' });
    copy.template.hasResourceProperties('AWS::CloudWatch::Alarm', { AlarmName: 'perf2-temporal-dsql-OccConflicts' });
    expect(alarmByName(copy.json, 'perf2-temporal-dsql-HistoryCpuHigh').Metrics[0].MetricStat.Metric.Dimensions).toContainEqual({
      Name: 'ClusterName',
      Value: 'perf2-temporal-dsql',
    });
  });
});

describe('one catalog for dashboards, alarms and the report', () => {
  test.each([...FOLIO_PHASE_NAMES.slice(0, 1), ...TEMPORAL_SCENARIO_NAMES.slice(-1)])("%s: the dashboard draws exactly the catalog's metrics", (name) => {
    const scenario = resolveScenario({ scenario: name });
    const catalog = catalogFor(scenario, { dsqlClusterId: 'TOKEN' });
    const expected = catalog.panels
      .flatMap((p) => p.series.flatMap((id) => metricsOf(catalog, id)))
      .map((m) => metricKey(m.namespace, m.metricName, m.dimensions));
    expect(new Set(drawnMetrics(dashboardBody(synthObservability({ scenario: name }).json)))).toEqual(new Set(expected));
  });

  test('every alarm of the catalog is deployed, and no other', () => {
    for (const name of ['test10', 'temporal-150wps']) {
      const catalog = catalogFor(resolveScenario({ scenario: name }), { dsqlClusterId: 'x' });
      const prefix = name === 'test10' ? 'folio-hybrid-aurora' : 'temporal-dsql';
      const deployed = resources(synthObservability({ scenario: name }).json, 'AWS::CloudWatch::Alarm').map(([, r]) => r.Properties.AlarmName);
      expect(deployed.sort()).toEqual(catalog.alarms.map((a) => `${prefix}-${a.id}`).sort());
    }
  });
});

describe('snapshots', () => {
  test.each(['test10', 'temporal-150wps'])('%s observability template', (name) => {
    expect(synthObservability({ scenario: name }).json).toMatchSnapshot();
  });
});

describe('Temporal observability on the Aurora store', () => {
  const { json, artifact } = synthObservability({ scenario: 'temporal-aurora-150wps' });
  const body = dashboardBody(json);
  const drawn = drawnMetrics(body);
  const writer = 'DBClusterIdentifier temporal-history Role WRITER';

  test("graphs the writer in the DSQL graphs' places: commits, commit latency, CPU, connections, DB load; nothing of DSQL or its limiter", () => {
    expect(drawn).toEqual(
      expect.arrayContaining([
        `AWS/RDS CommitThroughput ${writer}`,
        `AWS/RDS CommitLatency ${writer}`,
        `AWS/RDS CPUUtilization ${writer}`,
        `AWS/RDS DatabaseConnections ${writer}`,
        'AWS/RDS DBLoad DBInstanceIdentifier temporal-history-writer',
      ]),
    );
    expect(drawn.filter((m) => m.startsWith('AWS/AuroraDSQL') || m.startsWith('AWS/DynamoDB') || m.startsWith('AWS/Usage'))).toEqual([]);
    const conn = body.widgets.find((w: any) => w.properties.title === 'Aurora connections');
    expect(conn.properties.annotations.horizontal).toEqual([{ value: 1000, label: 'pools full: 20 tasks x 50', yAxis: 'left' }]);
    const load = body.widgets.find((w: any) => w.properties.title === 'Aurora DB load (average active sessions)');
    expect(load.properties.annotations.horizontal).toEqual([{ value: 8, label: 'writer vCPUs (8)', yAxis: 'left' }]);
  });

  test("alarms on the writer's CPU instead of OCC conflicts and limiter throttles; needs nothing from the data stack but its order", () => {
    const names = resources(json, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties.AlarmName);
    expect(names).toContain('temporal-dsql-StoreCpuHigh');
    expect(names.filter((n: string) => /OccConflicts|LimiterThrottled/.test(n))).toEqual([]);
    expect(alarmByName(json, 'temporal-dsql-StoreCpuHigh')).toMatchObject({
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: 90,
      EvaluationPeriods: 10,
    });
    expect(artifact.dependencies).toEqual(['TemporalDsql']);
    expect(JSON.stringify(json)).not.toContain('Fn::GetStackOutput');
  });

  test('a Serverless v2 writer adds its capacity graph with the ACU range', () => {
    const catalog = editedCatalog(
      (c) => (c.temporal.scenarios.find((s: any) => s.name === 'temporal-aurora-150wps').store.writer = { serverlessAcu: { min: 2, max: 64 } }),
    );
    const acu = dashboardBody(synthObservability({ scenario: 'temporal-aurora-150wps' }, catalog).json).widgets.find(
      (w: any) => w.properties.title === 'Serverless v2 capacity (ACU)',
    );
    expect(acu.properties.metrics[0].slice(0, 4)).toEqual(['AWS/RDS', 'ServerlessDatabaseCapacity', 'DBClusterIdentifier', 'temporal-history']);
    expect(acu.properties.annotations.horizontal.map((h: any) => h.value)).toEqual([64, 2]);
  });
});
