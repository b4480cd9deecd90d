import { AWS_NAME_RULES, type AwsNameKind, awsNameProblem, resolvedNameProblem } from '../../config/aws-names';

/* Each naming rule at its edges: the longest name AWS takes and one more, and each kind of character or shape it refuses. */

const x = (n: number, c = 'a') => c.repeat(n);

const EDGES: Record<AwsNameKind, { readonly valid: readonly string[]; readonly invalid: readonly string[] }> = {
  stackName: { valid: ['A', `a${x(127, '1')}`, 'Folio-Hybrid-2'], invalid: ['', `a${x(128)}`, '1stack', 'stack_name', 'stack.name'] },
  dbClusterIdentifier: {
    valid: ['a', x(63), 'folio-hybrid-2'],
    invalid: ['', x(64), '1folio', 'folio-', 'folio--hybrid', 'Folio', 'folio_hybrid'],
  },
  dbInstanceIdentifier: { valid: ['a', x(63), 'folio-hybrid-writer'], invalid: [x(64), 'folio-writer-', 'folio--writer', '9writer'] },
  secretName: { valid: ['a', x(512), 'folio/db/admin', 'a+b=c.d@e-f_g'], invalid: ['', x(513), 'folio db', 'folio#db', 'folio/db/ädmin'] },
  ssmParameterName: {
    valid: ['/folio/db/routing', 'routing', `/${Array.from({ length: 15 }, () => 'l').join('/')}`, '/team-aws/x'],
    invalid: ['/aws/folio', '/AWS1/x', 'ssm-x', '/SSMx', '/folio db', '/folio//db', `/${Array.from({ length: 16 }, () => 'l').join('/')}`, `/${x(950)}`],
  },
  dynamoDbTable: { valid: ['abc', x(255), 'Temporal.conn_limiter-1'], invalid: ['ab', x(256), 'table name', 'table/name'] },
  openSearchDomain: { valid: ['abc', x(28), 'temporal-visibility'], invalid: ['ab', x(29), '1domain', 'Domain', 'temporal_visibility'] },
  ecsCluster: { valid: ['a', x(255), 'Temporal_dsql-1'], invalid: ['', x(256), 'temporal.dsql', 'temporal dsql'] },
  prometheusAlias: { valid: ['a', x(100)], invalid: ['', x(101)] },
  dnsName: {
    valid: ['folio-db.internal', `${x(63)}.internal`, `${Array.from({ length: 63 }, () => 'abc').join('.')}`],
    invalid: [
      'internal',
      `${x(64)}.internal`,
      'folio_db.internal',
      '-folio.internal',
      'folio-.internal',
      'folio..internal',
      'Folio.internal',
      `${Array.from({ length: 64 }, () => 'abc').join('.')}`,
    ],
  },
  dashboard: { valid: ['a', x(255), 'temporal_dsql-1'], invalid: ['', x(256), 'temporal dsql', 'temporal.dsql'] },
  snsTopic: { valid: ['a', x(256), 'temporal_dsql-alarms'], invalid: ['', x(257), 'alarms.fifo.x', 'alarm topic'] },
  ecrRepository: {
    valid: ['ab', x(256), 'temporal-dsql', 'team/temporal_dsql.bench'],
    invalid: ['a', x(257), 'Temporal', 'temporal--dsql', '-temporal', 'temporal/', 'team//temporal'],
  },
};

test('every rule has its edge cases in the table', () => {
  expect(Object.keys(EDGES).sort()).toEqual(Object.keys(AWS_NAME_RULES).sort());
});

describe.each(Object.entries(EDGES) as [AwsNameKind, (typeof EDGES)[AwsNameKind]][])('%s', (kind, { valid, invalid }) => {
  test.each(valid.map((n) => [n.length > 40 ? `${n.slice(0, 20)}… (${n.length})` : n, n]))('takes %s', (_, name) => {
    expect(awsNameProblem(kind, name)).toBeUndefined();
  });
  test.each(invalid.map((n) => [n.length > 40 ? `${n.slice(0, 20)}… (${n.length})` : JSON.stringify(n), n]))(
    'refuses %s, naming the name and AWS rule',
    (_, name) => {
      expect(awsNameProblem(kind, name)).toBe(`"${name}" is not a valid ${AWS_NAME_RULES[kind].what} (AWS: ${AWS_NAME_RULES[kind].rule})`);
    },
  );
});

describe('resolvedNameProblem', () => {
  test('names the first name AWS would refuse, and nothing when all are valid', () => {
    expect(
      resolvedNameProblem(
        [
          ['stackName', 'A'],
          ['dashboard', 'b'],
        ],
        undefined,
      ),
    ).toBeUndefined();
    expect(
      resolvedNameProblem(
        [
          ['stackName', 'A'],
          ['dashboard', 'b c'],
          ['snsTopic', 'd e'],
        ],
        undefined,
      ),
    ).toMatch(/^"b c" is not a valid CloudWatch dashboard name/);
  });

  test('a name envName made too long says how long an envName may be', () => {
    expect(resolvedNameProblem([['openSearchDomain', 'perf-team-temporal-visibility']], 'perf-team')).toBe(
      'envName "perf-team" makes the OpenSearch domain name "perf-team-temporal-visibility" longer than 28 characters (AWS: 3-28 lowercase letters, digits and hyphens, starting with a letter); valid: an envName of at most 8 characters',
    );
  });

  test('when no envName could make it fit, it says to shorten the configured name', () => {
    expect(resolvedNameProblem([['openSearchDomain', `p-${x(27)}`]], 'p')).toMatch(/valid: a shorter OpenSearch domain name in config$/);
  });

  test('a problem other than length, with an envName, says which envName', () => {
    expect(resolvedNameProblem([['ssmParameterName', '/awsx/folio']], 'awsx')).toMatch(
      /^with envName "awsx", "\/awsx\/folio" is not a valid SSM parameter name/,
    );
  });
});
