import { synthScenario } from '../../../../support/synth';

/*
 * The groups in lib/temporal/constructs/stack-scoped/ add their resources to the stack itself, so the
 * logical IDs below are those of every deployed environment. Made into constructs (a scope of
 * their own), each ID would gain the group's prefix, and CloudFormation would replace the DSQL
 * cluster, the Aurora store and its secret, the rate-limiter tables, and the named ECS services
 * (whose replacement fails on the name). This test pins them, group by group.
 */

const GROUPS: Readonly<Record<string, Readonly<Record<string, readonly [type: string, scenario: 'dsql' | 'aurora' | 'both']>>>> = {
  HistoryStore: {
    Dsql0E3171D0: ['AWS::DSQL::Cluster', 'dsql'],
    RateLimiterTable49E600DA: ['AWS::DynamoDB::Table', 'dsql'],
    ConnectionLeaseTable2402DD07: ['AWS::DynamoDB::Table', 'dsql'],
    HistoryStoreAE31E0F5: ['Custom::TemporalHistoryStore', 'both'],
    AuroraClusterD4EFE71C: ['AWS::RDS::DBCluster', 'aurora'],
    AuroraClusterWriter398336D3: ['AWS::RDS::DBInstance', 'aurora'],
    AuroraSecret7ACECA7F: ['AWS::SecretsManager::Secret', 'aurora'],
  },
  TemporalSecurityGroups: {
    ServerSecurityGroup11086851: ['AWS::EC2::SecurityGroup', 'both'],
    BenchmarkSecurityGroup5F296DF8: ['AWS::EC2::SecurityGroup', 'both'],
  },
  TemporalServices: {
    HistoryService20AF61D1: ['AWS::ECS::Service', 'both'],
    MatchingService17B31299: ['AWS::ECS::Service', 'both'],
    FrontendServiceE3ABA99B: ['AWS::ECS::Service', 'both'],
    WorkerService3F60922A: ['AWS::ECS::Service', 'both'],
    FrontendServiceCloudmapService4B805249: ['AWS::ServiceDiscovery::Service', 'both'],
    HistoryLogsD715A285: ['AWS::Logs::LogGroup', 'both'],
  },
  BenchmarkFleet: {
    BenchmarkWorkerService77214CA9: ['AWS::ECS::Service', 'both'],
    Generator170C31BE: ['AWS::ECS::TaskDefinition', 'both'],
    StoreProbeFBAB2D80: ['AWS::ECS::TaskDefinition', 'both'],
    GeneratorLogs1B29DEE5: ['AWS::Logs::LogGroup', 'both'],
    BenchmarkTaskRole0FA0EA19: ['AWS::IAM::Role', 'both'],
  },
};

const SCENARIOS = { dsql: 'temporal-150wps', aurora: 'temporal-aurora-150wps' } as const;

describe.each(Object.keys(SCENARIOS) as (keyof typeof SCENARIOS)[])('%s store', (store) => {
  const resources: Record<string, { Type: string }> = synthScenario({ scenario: SCENARIOS[store] }).template.toJSON().Resources;
  test.each(Object.keys(GROUPS))('%s keeps the logical IDs of every deployed environment', (group) => {
    const expected = Object.entries(GROUPS[group]).filter(([, [, on]]) => on === 'both' || on === store);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.map(([id]) => `${id}: ${resources[id]?.Type ?? 'missing'}`)).toEqual(expected.map(([id, [type]]) => `${id}: ${type}`));
  });
});
