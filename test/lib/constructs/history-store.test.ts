import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { temporalScaffold } from '../../support/temporal-scaffold';

function storeOf(name: string) {
  const { stack, store, taskRole, dynamoDbEndpoint } = temporalScaffold(name);
  return { stack, store, template: Template.fromStack(stack), taskRole, dynamoDbEndpoint };
}

const topLevel = (stack: Stack) => stack.node.children.map((c) => c.node.id);

describe('dsql', () => {
  const { stack, store, template, dynamoDbEndpoint } = storeOf('temporal-150wps');

  test('the cluster and its limiter, guarded, with no Aurora and no secret', () => {
    expect(store.dsql).toBeDefined();
    expect(store.limiter).toBeDefined();
    expect(store.aurora).toBeUndefined();
    expect(store.secrets).toEqual({});
    expect(store.password).toBeUndefined();
    expect(store.wiring).toEqual({ engine: 'dsql', rateLimiterTable: store.limiter!.table.tableName, tokenEndpoint: store.dsql!.endpoint });
    template.resourceCountIs('AWS::DSQL::Cluster', 1);
    template.resourceCountIs('AWS::RDS::DBCluster', 0);
  });

  test('every server waits for the limiter table and the route to DynamoDB', () => {
    expect(store.ready).toEqual(expect.arrayContaining([store.limiter, dynamoDbEndpoint]));
  });

  test("its resources sit in the scope it is given, so a stack's logical IDs stay those of deployed environments", () => {
    expect(topLevel(stack)).toEqual(expect.arrayContaining(['HistoryStore', 'Dsql', 'RateLimiter']));
  });

  test("DSQL connect and the limiter's counter go to the servers' task role", () => {
    const policies = JSON.stringify(template.findResources('AWS::IAM::Policy'));
    expect(policies).toContain('dsql:DbConnectAdmin');
    expect(policies).toContain('dynamodb:UpdateItem');
  });
});

describe('aurora-postgresql', () => {
  const { stack, store, template } = storeOf('temporal-aurora-150wps');

  test('one Aurora writer, guarded, its password as the one secret; no DSQL and no limiter', () => {
    expect(store.aurora).toBeDefined();
    expect(store.dsql).toBeUndefined();
    expect(store.limiter).toBeUndefined();
    expect(store.wiring).toEqual({ engine: 'aurora-postgresql' });
    expect(Object.keys(store.secrets)).toHaveLength(1);
    expect(store.password).toBeDefined();
    expect(store.ready).toEqual([store.aurora!.cluster]);
    template.resourceCountIs('AWS::RDS::DBCluster', 1);
    template.resourceCountIs('AWS::DSQL::Cluster', 0);
    template.resourceCountIs('AWS::DynamoDB::Table', 0);
    expect(topLevel(stack)).toEqual(expect.arrayContaining(['HistoryStore', 'Aurora']));
  });
});
