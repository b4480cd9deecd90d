import { DescribeDBEngineVersionsCommand, DescribeOrderableDBInstanceOptionsCommand, RDSClient } from '@aws-sdk/client-rds';
import { mockClient } from 'aws-sdk-client-mock';
import { ConfigError } from '../../../../config';
import { engineVersionFileSchema, engineVersionProblem, loadEngineVersions } from '../../../../config/engine-versions';
import { readEngineVersions, runEngineVersions } from '../../../../lib/commands/engine-versions/run-engine-versions';

const rds = mockClient(RDSClient);
beforeEach(() => rds.reset());

/** RDS's answers as pages: versions on two pages, orderable options on two, with repeats (one per storage type and zone set). */
function recordedRds() {
  rds
    .on(DescribeDBEngineVersionsCommand, { Marker: undefined })
    .resolves({
      DBEngineVersions: [{ EngineVersion: '16.2', ServerlessV2FeaturesSupport: { MinCapacity: 0.5, MaxCapacity: 256 } }, { EngineVersion: '16.10' }],
      Marker: 'v2',
    })
    .on(DescribeDBEngineVersionsCommand, { Marker: 'v2' })
    .resolves({ DBEngineVersions: [{ EngineVersion: '17.4', ServerlessV2FeaturesSupport: { MinCapacity: 0, MaxCapacity: 256 } }] });
  rds
    .on(DescribeOrderableDBInstanceOptionsCommand, { Marker: undefined })
    .resolves({
      OrderableDBInstanceOptions: [
        { EngineVersion: '16.2', DBInstanceClass: 'db.r7g.large' },
        { EngineVersion: '16.2', DBInstanceClass: 'db.serverless' },
        { EngineVersion: '16.2', DBInstanceClass: 'db.r7g.large' },
        { EngineVersion: '16.10', DBInstanceClass: 'db.serverless' },
        { EngineVersion: '12.22', DBInstanceClass: 'db.r5.large' },
      ],
      Marker: 'o2',
    })
    .on(DescribeOrderableDBInstanceOptionsCommand, { Marker: 'o2' })
    .resolves({
      OrderableDBInstanceOptions: [
        { EngineVersion: '17.4', DBInstanceClass: 'db.r8g.large' },
        { EngineVersion: '16.2', DBInstanceClass: 'db.r6g.large' },
      ],
    });
}

test('reads every page of both answers into the file: classes once each and sorted, Serverless v2 only where db.serverless is orderable', async () => {
  recordedRds();
  const file = await readEngineVersions(new RDSClient({ region: 'eu-west-1' }), 'eu-west-1', '2026-11-25');
  expect(engineVersionFileSchema.parse(file)).toEqual(file);
  expect(file.versions).toEqual({
    '16.2': { serverlessV2: { minCapacity: 0.5, maxCapacity: 256 }, instanceClasses: ['db.r6g.large', 'db.r7g.large', 'db.serverless'] },
    // No ServerlessV2FeaturesSupport: the limits every version had before the field.
    '16.10': { serverlessV2: { minCapacity: 0.5, maxCapacity: 128 }, instanceClasses: ['db.serverless'] },
    // Not orderable as db.serverless: no Serverless v2, whatever the features say.
    '17.4': { instanceClasses: ['db.r8g.large'] },
  });
  // Numeric order: 16.2 before 16.10.
  expect(Object.keys(file.versions)).toEqual(['16.2', '16.10', '17.4']);
  expect(file).toMatchObject({ region: 'eu-west-1', engine: 'aurora-postgresql', asOf: '2026-11-25' });
  expect(rds.commandCalls(DescribeOrderableDBInstanceOptionsCommand).every((c) => c.args[0].input.Engine === 'aurora-postgresql')).toBe(true);
});

test('an answer with no versions is refused, and nothing is written from it', async () => {
  rds.on(DescribeDBEngineVersionsCommand).resolves({ DBEngineVersions: [] }).on(DescribeOrderableDBInstanceOptionsCommand).resolves({});
  await expect(readEngineVersions(new RDSClient({ region: 'eu-west-1' }), 'eu-west-1', '2026-11-25')).rejects.toThrow(
    new ConfigError('RDS lists no aurora-postgresql versions in eu-west-1; the file is left as it was'),
  );
});

test('without --refresh it prints what the file holds, and calls nothing', async () => {
  const { stdout: out } = await runEngineVersions(
    { region: 'us-east-1' },
    {
      aws: () => {
        throw new Error('no client without --refresh');
      },
    },
  );
  expect(out).toMatch(/^## us-east-1: Aurora PostgreSQL, as of \d{4}-\d\d-\d\d\n/);
  expect(out).toContain('| 16.8 | 0-256 ACU (pauses) | r6g, r6i, r7g, r7i, r8g, t4g |');
  expect(out).toContain('| 15.4 | 0.5-128 ACU | r6g, r6i, r7g, r7i, t4g |');
});

test('--json prints the files themselves', async () => {
  const files = JSON.parse((await runEngineVersions({ region: 'us-east-1', json: true })).stdout);
  expect(files).toEqual([loadEngineVersions('us-east-1')]);
});

describe('the checks config makes against the file', () => {
  const file = loadEngineVersions('us-east-1');
  test('a version, a range and classes it offers pass', () => {
    expect(
      engineVersionProblem(file, '16.8', { where: 'w', serverless: { min: 0, max: 256 }, instanceClasses: ['db.r8g.2xlarge', 'db.r7g.4xlarge'] }),
    ).toBeUndefined();
  });
  test.each([
    ['16.7', { where: 'w' }, 'version', /^Aurora PostgreSQL 16.7 is not offered in us-east-1 \(w; valid: 16.x: 16.1, /],
    ['11.9', { where: 'w' }, 'version', /^Aurora PostgreSQL 11.9 is not offered in us-east-1 \(w; valid: majors 13, 14, 15, 16, 17;/],
    [
      '16.2',
      { where: 'w', serverless: { min: 0, max: 8 } },
      'min',
      /^w has min 0 ACU, which Aurora PostgreSQL 16.2 cannot pause to: its Serverless v2 starts at 0.5 ACU/,
    ],
    ['14.9', { where: 'w', serverless: { min: 0.5, max: 129 } }, 'max', /^w has max 129 ACU, above the 128 ACU Aurora PostgreSQL 14.9 allows/],
    [
      '16.3',
      { where: 'w', instanceClasses: ['db.r8g.large'] },
      'instanceClass',
      /^db.r8g.large cannot be ordered with Aurora PostgreSQL 16.3 in us-east-1 \(w; valid: db.r8g.large from 13.16, 14.13, 15.8, 16.4, 17.4;/,
    ],
    [
      '16.8',
      { where: 'w', instanceClasses: ['db.r5.large'] },
      'instanceClass',
      /^db.r5.large cannot be ordered with Aurora PostgreSQL 16.8 in us-east-1 \(w; valid: a class of r6g, r6i, r7g, r7i, r8g, serverless, t4g;/,
    ],
  ] as const)('%s for %j is refused at %s', (version, use, at, message) => {
    const p = engineVersionProblem(file, version, use);
    expect(p?.at).toBe(at);
    expect(p?.message).toMatch(message);
    expect(p?.message).toMatch(/config\/engine-versions\/us-east-1.json, as of \d{4}-\d\d-\d\d\)$/);
  });
  test('a version that cannot run Serverless v2 at all is refused for a range', () => {
    const without = { ...file, versions: { ...file.versions, '16.8': { instanceClasses: ['db.r7g.large'] } } };
    expect(engineVersionProblem(without, '16.8', { where: 'w', serverless: { min: 0.5, max: 8 } })).toMatchObject({
      at: 'serverless',
      message: expect.stringMatching(/^Aurora PostgreSQL 16.8 cannot run Serverless v2 in us-east-1/),
    });
  });
});
