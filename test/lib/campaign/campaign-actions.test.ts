import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG } from '../../../config';
import { resolveCampaign } from '../../../config/campaign-schema';
import { CAMPAIGNS } from '../../../config/campaigns';
import { awsCampaignActions, loadWindow, proposedTarget } from '../../../lib/campaign/campaign-actions';
import { recordingIO } from '../../support/command-io';
import { tempDir } from '../../support/temp-dir';
import { runBench } from '../../../lib/temporal/commands/bench/run-bench';
import { runEnvironment } from '../../../lib/commands/environment/run-environment';

// What the bench and hibernate stages ask those commands: their own tests cover what they do then.
jest.mock('../../../lib/temporal/commands/bench/run-bench', () => ({ runBench: jest.fn() }));
jest.mock('../../../lib/commands/environment/run-environment', () => ({ runEnvironment: jest.fn() }));

/* The stages a campaign runs against a real environment: the parts that need no deployed stack, run for real. */

const ROOT = join(__dirname, '../../..');
const cfn = mockClient(CloudFormationClient);
beforeEach(() => cfn.reset());

const actions = (slept: number[] = []) =>
  awsCampaignActions(
    { interval: '15s' },
    { io: recordingIO(), toolkit: async () => Promise.reject(new Error('no deploy here')), sleep: async (ms) => void slept.push(ms) },
  );

test("the deployed scenario is the data stack's own output; a stack not deployed is none", async () => {
  const ptf = resolveCampaign('ptf-hybrid', CAMPAIGNS);
  cfn.on(DescribeStacksCommand).resolves({
    Stacks: [
      { StackName: 'FolioHybridAurora', CreationTime: new Date(), StackStatus: 'UPDATE_COMPLETE', Outputs: [{ OutputKey: 'Phase', OutputValue: 'test4' }] },
    ],
  });
  expect(await actions().deployedScenario(ptf)).toBe('test4');
  cfn.reset();
  cfn.on(DescribeStacksCommand).rejects(Object.assign(new Error('Stack with id FolioHybridAurora does not exist'), { name: 'ValidationError' }));
  expect(await actions().deployedScenario(ptf)).toBeUndefined();
});

test('plan refuses a step whose config would change what the deployed environment keeps for life, before anything is deployed', async () => {
  const outputs = (shards: string) => [
    { OutputKey: 'Scenario', OutputValue: 'temporal-150wps' },
    { OutputKey: 'HistoryShards', OutputValue: shards },
    { OutputKey: 'HistoryStoreEngine', OutputValue: 'dsql' },
  ];
  cfn
    .on(DescribeStacksCommand)
    .resolves({ Stacks: [{ StackName: 'TemporalDsql', CreationTime: new Date(), StackStatus: 'UPDATE_COMPLETE', Outputs: outputs('8192') }] });
  // The same scenario again too: config may have changed since it was deployed.
  for (const to of ['temporal-400wps', 'temporal-150wps'])
    await expect(actions().plan('temporal-150wps', { name: to, catalog: CATALOG })).rejects.toThrow(
      /^persistence\.numHistoryShards \(config\/temporal-environment\.ts\) is 8192 in the deployed TemporalDsql and 4096 in config: it can never change/,
    );
  cfn.reset();
  cfn
    .on(DescribeStacksCommand)
    .resolves({ Stacks: [{ StackName: 'TemporalDsql', CreationTime: new Date(), StackStatus: 'UPDATE_COMPLETE', Outputs: outputs('4096') }] });
  expect(await actions().plan('temporal-150wps', { name: 'temporal-400wps', catalog: CATALOG })).toMatchObject({ unsafe: [] });
});

test("plan's verdict on a switch: what moves, and the first deploy", async () => {
  const a = actions();
  expect(await a.plan(undefined, { name: 'baseline', catalog: CATALOG })).toEqual({
    unsafe: [],
    moves: false,
    note: 'the first deploy: nothing to switch from',
  });
  expect(await a.plan('test11', { name: 'test12', catalog: CATALOG })).toMatchObject({ unsafe: [], moves: false });
  expect(await a.plan('test12', { name: 'test12', catalog: CATALOG })).toEqual({
    unsafe: [],
    moves: false,
    note: 'test12 is deployed already: nothing to switch',
  });
  expect(await a.plan('test4', { name: 'test5', catalog: CATALOG })).toMatchObject({
    unsafe: [],
    moves: true,
    note: expect.stringMatching(/^test4 -> test5: \d+ resource changes?, none stateful replaced$/),
  });
}, 60_000);

test("a followed proposal: the report's proposed phase added to the catalog it follows; a report that proposes nothing says why", () => {
  const next = proposedTarget(join(ROOT, 'docs/report-example/test10/report.json'), CATALOG);
  expect('name' in next && next.name).toBe('test10-next');
  const phase = 'catalog' in next ? next.catalog.folio.phases.find((p) => p.name === 'test10-next') : undefined;
  expect(phase?.offload).toMatchObject({ serverless: { max: 64 } });
  // The catalog it follows is left as it was.
  expect(CATALOG.folio.phases.some((p) => p.name === 'test10-next')).toBe(false);
  expect(proposedTarget(join(ROOT, 'docs/report-example/temporal-150wps/report.json'), CATALOG)).toEqual({ none: expect.any(String) });
});

describe('the load', () => {
  const to = { name: 'test10', catalog: CATALOG };

  test('a wait sleeps its length and returns its window', async () => {
    const slept: number[] = [];
    const r = await actions(slept).load(to, { kind: 'wait', duration: '45m' }, tempDir('load-'));
    expect(slept).toEqual([45 * 60_000]);
    expect(Date.parse(r.end)).toBeGreaterThanOrEqual(Date.parse(r.start));
  });

  test("the user's command runs with the step's scenario and directory; its exit code is honoured", async () => {
    const dir = tempDir('load-');
    const file = join(dir, 'seen');
    await actions().load(to, { kind: 'command', command: ['sh', '-c', `echo "$CAMPAIGN_SCENARIO $CAMPAIGN_STEP_DIR" > ${file}`], timeout: '1m' }, dir);
    expect(readFileSync(file, 'utf8')).toBe(`test10 ${dir}\n`);
    await expect(actions().load(to, { kind: 'command', command: ['sh', '-c', 'exit 3'], timeout: '1m' }, dir)).rejects.toThrow('the load command exited 3');
    await expect(actions().load(to, { kind: 'command', command: ['no-such-load-tool'], timeout: '1m' }, dir)).rejects.toThrow(
      /^the load command no-such-load-tool could not start: .*ENOENT.* \(valid: a program on PATH or a path to one\)$/,
    );
  });

  test('a command past its timeout is ended, and the step fails saying so', async () => {
    await expect(actions().load(to, { kind: 'command', command: ['sleep', '30'], timeout: '1s' }, tempDir('load-'))).rejects.toThrow(
      'the load command ran past its timeout, 1s, and was ended',
    );
  }, 10_000);
});

test("a load's report reads its run record, or the whole minutes inside it; a load holding none is refused before the report is asked", () => {
  expect(loadWindow({ start: '2026-11-27T10:00:30Z', end: '2026-11-27T10:05:00Z', runRecord: 'run.json' })).toEqual({ run: 'run.json' });
  // The wait began mid-minute: the report starts at the next whole one, as CloudWatch's points do.
  expect(loadWindow({ start: '2026-11-27T10:00:30.250Z', end: '2026-11-27T11:00:30.400Z' })).toEqual({
    start: '2026-11-27T10:01:00.000Z',
    end: '2026-11-27T11:00:00.000Z',
  });
  expect(loadWindow({ start: '2026-11-27T10:00:00Z', end: '2026-11-27T10:02:00Z' })).toEqual({
    start: '2026-11-27T10:00:00.000Z',
    end: '2026-11-27T10:02:00.000Z',
  });
  expect(() => loadWindow({ start: '2026-11-27T10:00:30Z', end: '2026-11-27T10:01:50Z' })).toThrow(
    "the load ran from 2026-11-27T10:00:30Z to 2026-11-27T10:01:50Z, which holds no whole minute for the report's 1-minute points (valid: a load of 2 minutes or more)",
  );
});

test("a campaign's bench load stops a generator an interrupted run left, and its hibernation stops one a failed step left", async () => {
  const ran = jest.mocked(runBench).mockRejectedValue(new Error('stop here'));
  const hibernated = jest.mocked(runEnvironment).mockResolvedValue({ stdout: 'hibernated\n' });
  const to = { name: 'temporal-150wps', catalog: CATALOG };
  await expect(actions().load(to, { kind: 'bench-run' }, tempDir('load-'))).rejects.toThrow('stop here');
  await expect(actions().load(to, { kind: 'bench-ladder' }, tempDir('load-'))).rejects.toThrow('stop here');
  expect(ran.mock.calls.map(([command, o]) => [command, o.stopRunning])).toEqual([
    ['run', true],
    ['ladder', true],
  ]);
  expect(await actions().hibernate(to)).toBe('hibernated');
  // A FOLIO phase has no generator to stop, and hibernate refuses --force for it: none is passed.
  await actions().hibernate({ name: 'test12', catalog: CATALOG });
  expect(hibernated.mock.calls.map(([command, o]) => [command, o.scenario, o.force])).toEqual([
    ['hibernate', 'temporal-150wps', true],
    ['hibernate', 'test12', false],
  ]);
});
