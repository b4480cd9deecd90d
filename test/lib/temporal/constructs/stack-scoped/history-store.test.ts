import type { Stack } from 'aws-cdk-lib/core';
import { Template } from 'aws-cdk-lib/assertions';
import { temporalScaffold } from '../../../../support/temporal-scaffold';

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
    expect(store.wiring).toEqual({
      engine: 'dsql',
      rateLimiterTable: store.limiter!.table.tableName,
      connectionLeaseTable: store.lease!.table.tableName,
      tokenEndpoint: store.dsql!.endpoint,
      connections: { limiter: { kind: 'counter', perSecond: 100, maxWait: '30s' } },
    });
    template.resourceCountIs('AWS::DSQL::Cluster', 1);
    template.resourceCountIs('AWS::RDS::DBCluster', 0);
  });

  test('every server waits for the limiter and lease tables and the route to DynamoDB', () => {
    expect(store.ready).toEqual(expect.arrayContaining([store.limiter, store.lease, dynamoDbEndpoint]));
  });

  test("the check records the fork's release and the DSQL schema version it brings the store to", () => {
    template.hasResourceProperties('Custom::TemporalHistoryStore', { Store: 'dsql', ServerRelease: '1.30.0', SchemaVersion: '1.1' });
  });

  test("its resources sit in the scope it is given, so a stack's logical IDs stay those of deployed environments", () => {
    expect(topLevel(stack)).toEqual(expect.arrayContaining(['HistoryStore', 'Dsql', 'RateLimiter', 'ConnectionLease']));
  });

  test("DSQL connect and the limiter's counter go to the servers' task role", () => {
    const policies = JSON.stringify(template.findResources('AWS::IAM::Policy'));
    expect(policies).toContain('dsql:DbConnectAdmin');
    expect(policies).toContain('dynamodb:UpdateItem');
  });
});

describe('aurora-postgresql', () => {
  const { stack, store, template } = storeOf('temporal-aurora-150wps');

  test('one Aurora writer, guarded, its password for the schema task only (the servers sign IAM tokens); no DSQL and no limiter', () => {
    expect(store.aurora).toBeDefined();
    expect(store.dsql).toBeUndefined();
    expect(store.limiter).toBeUndefined();
    expect(store.wiring).toEqual({ engine: 'aurora-postgresql' });
    expect(store.secrets).toEqual({});
    expect(Object.keys(store.schemaSecrets)).toEqual(['SQL_PASSWORD']);
    expect(store.password).toBeUndefined();
    expect(store.ready).toEqual([store.aurora!.cluster]);
    template.resourceCountIs('AWS::RDS::DBCluster', 1);
    template.resourceCountIs('AWS::DSQL::Cluster', 0);
    template.resourceCountIs('AWS::DynamoDB::Table', 0);
    expect(topLevel(stack)).toEqual(expect.arrayContaining(['HistoryStore', 'Aurora']));
  });

  test("the check records upstream's release and its PostgreSQL schema, and may read its own stack's status only (a rollback)", () => {
    template.hasResourceProperties('Custom::TemporalHistoryStore', { Store: 'aurora-postgresql', ServerRelease: '1.32.2', SchemaVersion: '1.19' });
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((p: any) => p.Properties.PolicyDocument.Statement);
    const describe = statements.filter((st: any) => [st.Action].flat().includes('cloudformation:DescribeStacks'));
    expect(describe).toEqual([expect.objectContaining({ Resource: { Ref: 'AWS::StackId' } })]);
  });
});
