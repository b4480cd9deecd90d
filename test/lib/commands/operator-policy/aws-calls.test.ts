import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AwsCallScanner, commandsProgram } from '../../../../lib/commands/operator-policy/aws-calls';
import { IAM_PREFIX } from '../../../../lib/commands/aws/iam-prefixes';
import { tempDir } from '../../../support/temp-dir';

/*
 * The scanner over small programs written for each case: what a command reaches is what it
 * calls; what it does not reach is not; a call it cannot name is refused.
 */

function scan(files: Record<string, string>, entry = 'bin/cmd.ts', fn?: string) {
  const root = tempDir('aws-calls-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return new AwsCallScanner(commandsProgram([join(root, entry)]), root).callsFrom(join(root, entry), fn);
}
const actions = (calls: { action: string }[]) => calls.map((c) => c.action);

test('a command built in a function it calls is its action, with the file and line that builds it', () => {
  const calls = scan({
    'bin/cmd.ts': "import { stop } from '../lib/tasks';\nvoid stop();\n",
    'lib/tasks.ts':
      "import { ECSClient, StopTaskCommand, ListTasksCommand } from '@aws-sdk/client-ecs';\n" +
      'export async function stop() {\n  await new ECSClient({}).send(new StopTaskCommand({ task: "t" }));\n}\n' +
      'export async function list() {\n  await new ECSClient({}).send(new ListTasksCommand({}));\n}\n',
  });
  expect(calls).toEqual([{ action: 'ecs:StopTask', where: 'lib/tasks.ts:3' }]);
});

test("an interface's method stands for each object that implements it, and only that method", () => {
  const calls = scan({
    'bin/cmd.ts': "import { pick } from '../lib/family';\nvoid pick('a').hibernate();\n",
    'lib/family.ts': [
      "import { UpdateServiceCommand, RunTaskCommand } from '@aws-sdk/client-ecs';",
      "import { StopDBClusterCommand } from '@aws-sdk/client-rds';",
      'export interface Family { hibernate(): Promise<unknown>; bench(): Promise<unknown> }',
      'const A: Family = { async hibernate() { return new UpdateServiceCommand({ service: "s" }); }, async bench() { return new RunTaskCommand({ taskDefinition: "t" }); } };',
      'const B: Family = { async hibernate() { return new StopDBClusterCommand({ DBClusterIdentifier: "c" }); }, async bench() { return undefined; } };',
      'export const pick = (n: string): Family => (n === "a" ? A : B);',
    ].join('\n'),
  });
  expect(actions(calls)).toEqual(['ecs:UpdateService', 'rds:StopDBCluster']);
});

test("an interface's method stands for objects typed as a wider interface too, and for a function given by name", () => {
  const calls = scan({
    'bin/cmd.ts': "import { pick } from '../lib/family';\nvoid pick('a').hibernate();\n",
    'lib/family.ts': [
      "import { UpdateServiceCommand } from '@aws-sdk/client-ecs';",
      "import { StopDBClusterCommand } from '@aws-sdk/client-rds';",
      'export interface Part { hibernate(): Promise<unknown> }',
      'interface Whole extends Part { bench(): Promise<unknown> }',
      'async function stopServices() { return new UpdateServiceCommand({ service: "s" }); }',
      'const A: Whole = { hibernate: stopServices, async bench() { return undefined; } };',
      'const B: Part = { async hibernate() { return new StopDBClusterCommand({ DBClusterIdentifier: "c" }); } };',
      'export const pick = (n: string): Part => (n === "a" ? A : B);',
    ].join('\n'),
  });
  expect(actions(calls).sort()).toEqual(['ecs:UpdateService', 'rds:StopDBCluster']);
});

test("a module loaded lazily (const { f }: typeof import('./m') = require('./m')) and a paginator are followed", () => {
  const calls = scan({
    'bin/cmd.ts': [
      'function report() {',
      "  const { fetch }: typeof import('../lib/fetch') = require('../lib/fetch');",
      '  return fetch();',
      '}',
      'void report();',
    ].join('\n'),
    'lib/fetch.ts':
      "import { CloudWatchClient, paginateGetMetricData } from '@aws-sdk/client-cloudwatch';\n" +
      'export async function fetch() {\n  for await (const page of paginateGetMetricData({ client: new CloudWatchClient({}) }, { MetricDataQueries: [], StartTime: new Date(), EndTime: new Date() })) void page;\n}\n',
  });
  expect(actions(calls)).toEqual(['cloudwatch:GetMetricData']);
});

test("a request signed by hand is refused unless its function's @iamActions tag names the action", () => {
  const signer = (tag: string) => ({
    'bin/cmd.ts': "import { query } from '../lib/query';\nvoid query();\n",
    'lib/query.ts': `import { SignatureV4 } from '@smithy/signature-v4';\n${tag}export function query() {\n  return new SignatureV4({ service: 'aps', region: 'r', credentials: { accessKeyId: '', secretAccessKey: '' }, sha256: undefined as never });\n}\n`,
  });
  expect(() => scan(signer(''))).toThrow(/^lib\/query\.ts:3: a request signed by hand, with no @iamActions tag on its function/);
  expect(scan(signer('/** @iamActions aps:QueryMetrics */\n'))).toEqual([{ action: 'aps:QueryMetrics', where: 'lib/query.ts:3' }]);
});

test('a tag may name its resource, with the region and account left to the policy', () => {
  const calls = scan(
    {
      'lib/deploy.ts': '/**\n * @iamActions sts:AssumeRole arn:aws:iam::${Account}:role/deploy-${Region}\n */\nexport function deploy() {}\n',
    },
    'lib/deploy.ts',
    'deploy',
  );
  expect(calls).toEqual([{ action: 'sts:AssumeRole', resource: 'arn:aws:iam::${Account}:role/deploy-${Region}', where: 'lib/deploy.ts:4' }]);
});

test('a client the scanner has no IAM prefix for, and a waiter, are refused by name', () => {
  const call = (what: string, pkg: string) => ({
    'bin/cmd.ts': `import { ${what.split('(')[0].replace('new ', '')} } from '${pkg}';\nexport function f() { return ${what}; }\nvoid f();\n`,
  });
  expect(() => scan(call('new PublishCommand({})', '@aws-sdk/client-sns'))).toThrow(/bin\/cmd\.ts:2: client-sns has no IAM prefix in IAM_PREFIX/);
  expect(() => scan(call('waitUntilTasksStopped({} as never, {} as never)', '@aws-sdk/client-ecs'))).toThrow(/waitUntilTasksStopped is a waiter/);
});

test('every SDK client the project depends on has its IAM prefix', () => {
  const deps = Object.keys(require('../../../../package.json').dependencies as Record<string, string>).filter((d) => d.startsWith('@aws-sdk/client-'));
  expect(deps.length).toBeGreaterThan(10);
  expect(deps.map((d) => d.replace('@aws-sdk/', '')).filter((d) => !IAM_PREFIX[d])).toEqual([]);
});
