import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG } from '../../../config';
import { type CampaignInput, resolveCampaign } from '../../../config/campaign-schema';
import type { CatalogInput } from '../../../config/catalog-schema';
import { projectCampaign } from '../../../lib/campaign/campaign-plan';
import { type CampaignRecord, judgeRecord, readRecord, STAGES, type Stage } from '../../../lib/campaign/campaign-record';
import { type CampaignActions, recordPath, runCampaign, type Target } from '../../../lib/campaign/campaign-run';
import { CommandFailure } from '../../../lib/commands/shared/cli';
import { AwsNoAnswer } from '../../../lib/commands/aws/deadline';
import { type RecordingIO, recordingIO } from '../../support/command-io';
import { tempDir } from '../../support/temp-dir';

/*
 * The campaign engine against an environment kept in memory: what each stage did is counted, so
 * a run, a failure, a refusal and a resume after a kill at every stage can be compared.
 */

const FOLIO: CampaignInput = {
  name: 'three-phases',
  title: 'three phases',
  steps: [
    { scenario: 'test10', load: { kind: 'wait', duration: '30m' } },
    { scenario: 'test11', load: { kind: 'wait', duration: '30m' } },
    { followProposal: { times: 2 }, load: { kind: 'wait', duration: '30m' } },
  ],
  onEnd: 'hibernate',
  estimates: { deploy: '20m', ready: '5m', report: '5m' },
};

class Killed extends Error {}

/** An environment in memory: what is deployed and hibernated, and every stage's call, in order. */
function environment(
  o: { kill?: { step: string; stage: Stage; at: number }; fail?: { scenario: string; stage: Stage }; proposals?: Record<string, string | null> } = {},
) {
  const state = { deployed: undefined as string | undefined, hibernated: false, calls: [] as string[] };
  let seen = 0;
  const call = (stage: Stage | 'hibernate', scenario: string) => {
    if (o.kill && o.kill.stage === stage && o.kill.step === scenario && seen++ === o.kill.at) throw new Killed(`killed in ${stage} of ${scenario}`);
    if (o.fail && o.fail.stage === stage && o.fail.scenario === scenario) throw new Error(`${stage} of ${scenario} failed: the line says why`);
    state.calls.push(`${stage} ${scenario}`);
  };
  // Each report proposes the scenario named here (null: nothing), as a FOLIO report's "What to try next" does.
  const proposals = o.proposals ?? { test11: 'test12', test12: 'test13', test13: null };
  const actions: CampaignActions = {
    deployedScenario: async () => state.deployed,
    plan: async (from, to) => {
      call('plan', to.name);
      return { unsafe: to.name === 'unsafe' ? ['Cluster (AWS::RDS::DBCluster)'] : [], moves: true, note: `${from} -> ${to.name}` };
    },
    move: async (from, to) => (call('move', to.name), `moved ${from} -> ${to.name}`),
    deploy: async (to) => {
      call('deploy', to.name);
      state.deployed = to.name;
      return `deployed ${to.name}`;
    },
    ready: async (to) => {
      call('ready', to.name);
      state.hibernated = false;
      return 'awake';
    },
    load: async (to) => (call('load', to.name), { start: '2026-11-27T10:00:00.000Z', end: '2026-11-27T10:30:00.000Z' }),
    report: async (to) => (call('report', to.name), `reports/${to.name}.json`),
    proposal: async (file, base: CatalogInput) => {
      const next = proposals[/reports\/(.*)\.json/.exec(file)![1]];
      return next ? ({ name: next, catalog: base } as Target) : { none: 'no rule holds' };
    },
    hibernate: async (to) => {
      call('hibernate', to.name);
      state.hibernated = true;
      return 'hibernated';
    },
  };
  return { state, actions };
}

function run(
  definition: CampaignInput,
  dir: string,
  actions: CampaignActions,
  existing = readRecord(recordPath(dir)),
  dailyUsd?: number,
  io: RecordingIO = recordingIO(),
) {
  const catalog = structuredClone(CATALOG) as CatalogInput;
  if (dailyUsd !== undefined) (catalog.folio.environment as { spending: { budget: { dailyUsd: number } } }).spending.budget.dailyUsd = dailyUsd;
  const campaign = resolveCampaign(definition.name, [definition], catalog);
  // A clock that moves 10 minutes a reading: stages take time, so spent money adds up.
  let t = Date.parse('2026-11-27T08:00:00Z');
  return runCampaign({
    campaign,
    definition,
    actions,
    dir,
    existing,
    project: (r) => projectCampaign(campaign, r, { resolve: (name) => ({ name, family: 'folio' }) as never, usdPerDay: () => 48 }),
    io,
    now: () => new Date((t += 600_000)),
    catalog,
  });
}

const stepsOf = (r: CampaignRecord) => r.steps.map((s) => `${s.scenario}${s.proposedBy ? ` (proposed by ${s.proposedBy})` : ''}: ${s.report}`);

test('a campaign runs every step through every stage, follows the proposals until one proposes nothing, and ends hibernated', async () => {
  const dir = tempDir('campaign-');
  const env = environment();
  const record = await run(FOLIO, dir, env.actions);
  expect(stepsOf(record)).toEqual([
    'test10: reports/test10.json',
    'test11: reports/test11.json',
    'test12 (proposed by reports/test11.json): reports/test12.json',
    'test13 (proposed by reports/test12.json): reports/test13.json',
  ]);
  expect(env.state.calls.filter((c) => c.startsWith('deploy'))).toEqual(['deploy test10', 'deploy test11', 'deploy test12', 'deploy test13']);
  // The first deploy moves nothing: nothing was deployed before it.
  expect(env.state.calls.filter((c) => c.startsWith('move'))).toEqual(['move test11', 'move test12', 'move test13']);
  expect(env.state.calls.at(-1)).toBe('hibernate test13');
  expect(record).toMatchObject({ status: 'done', deployed: 'test13', ended: { environment: 'hibernated' } });
  expect(readRecord(recordPath(dir))).toEqual(record);
  for (const s of record.steps) expect(Object.keys(s.stages)).toEqual([...STAGES]);
});

test('a follow step stops at its number of times, and one whose report proposes nothing is said and skipped', async () => {
  const once = { ...FOLIO, steps: [FOLIO.steps[0], FOLIO.steps[1], { followProposal: { times: 1 }, load: { kind: 'wait' as const, duration: '30m' } }] };
  expect(stepsOf(await run(once, tempDir('campaign-'), environment().actions)).length).toBe(3);
  const none = await run(FOLIO, tempDir('campaign-'), environment({ proposals: { test11: null } }).actions);
  expect(stepsOf(none)).toEqual(['test10: reports/test10.json', 'test11: reports/test11.json']);
  expect(none.stopped).toEqual({ 2: "test11's report proposes nothing: no rule holds" });
  expect(none.status).toBe('done');
});

describe('killed at any stage of any step, run again: it resumes at that stage, redoes nothing finished, and ends as an uninterrupted run', () => {
  const cases: [string, Stage][] = [];
  for (const step of ['test10', 'test11', 'test12', 'test13'])
    for (const stage of STAGES) if (!(step === 'test10' && stage === 'move')) cases.push([step, stage]);
  test.each(cases)('%s, %s', async (step, stage) => {
    const dir = tempDir('campaign-');
    const env = environment({ kill: { step, stage, at: 0 } });
    // The record as the kill left it: the file written before the stage began (what a dead process leaves).
    let snapshot = '';
    const kill = env.actions[stage === 'plan' ? 'plan' : stage] as (...a: unknown[]) => Promise<unknown>;
    (env.actions as unknown as Record<string, unknown>)[stage] = async (...args: unknown[]) => {
      snapshot = readFileSync(recordPath(dir), 'utf8');
      return kill(...args);
    };
    await expect(run(FOLIO, dir, env.actions)).rejects.toThrow(/killed in/);
    writeFileSync(recordPath(dir), snapshot);
    env.state.hibernated = false;
    const before = env.state.calls.length;
    (env.actions as unknown as Record<string, unknown>)[stage] = kill;
    const resumed = await run(FOLIO, dir, env.actions);
    expect(stepsOf(resumed)).toEqual(stepsOf(await run(FOLIO, tempDir('campaign-'), environment().actions)));
    expect(resumed.status).toBe('done');
    // Everything finished before the kill ran once: the second run starts with the stage killed.
    expect(env.state.calls[before]).toBe(`${stage} ${step}`);
    for (const what of ['deploy', 'load'])
      for (const s of ['test10', 'test11', 'test12', 'test13'])
        expect(`${what} ${s}: ${env.state.calls.filter((c) => c === `${what} ${s}`).length}`).toBe(`${what} ${s}: 1`);
  });
});

test('a failed stage stops the campaign in one line, hibernates the environment, and the next run resumes at that stage', async () => {
  const dir = tempDir('campaign-');
  const env = environment({ fail: { scenario: 'test11', stage: 'load' } });
  const error = await run(FOLIO, dir, env.actions).catch((e) => e);
  expect(error).toBeInstanceOf(CommandFailure);
  expect(error.message).toBe(
    'campaign three-phases stopped at step 2 (test11), load: load of test11 failed: the line says why; the environment is hibernated (hibernated)',
  );
  expect(env.state.hibernated).toBe(true);
  expect(readRecord(recordPath(dir))).toMatchObject({ status: 'failed', failure: { step: 1, stage: 'load' } });
  const fixed = environment();
  fixed.state.deployed = 'test11';
  const resumed = await run(FOLIO, dir, fixed.actions);
  expect(fixed.state.calls.slice(0, 2)).toEqual(['load test11', 'report test11']);
  expect(resumed.status).toBe('done');
});

test('a stage whose AWS call got no answer is recorded failed with that line, exits 2 as any command does, and lets go of the lock', async () => {
  const dir = tempDir('campaign-');
  const env = environment();
  env.actions.deploy = async () => {
    throw new AwsNoAnswer('AWS did not answer cloudformation:DescribeStacks at http://127.0.0.1:9 within 60 s');
  };
  const error = await run(FOLIO, dir, env.actions).catch((e) => e);
  expect(error).toBeInstanceOf(CommandFailure);
  expect(error.exitCode).toBe(2);
  expect(error.message).toMatch(
    /^campaign three-phases stopped at step 1 \(test10\), deploy: AWS did not answer cloudformation:DescribeStacks at http:\/\/127.0.0.1:9 within 60 s; /,
  );
  expect(readRecord(recordPath(dir))).toMatchObject({
    status: 'failed',
    failure: { step: 0, stage: 'deploy', reason: 'AWS did not answer cloudformation:DescribeStacks at http://127.0.0.1:9 within 60 s' },
  });
  expect(existsSync(join(dir, 'campaign.lock'))).toBe(false);
  // A stage that failed for its own reason is still exit 5.
  const own = await run(FOLIO, tempDir('campaign-'), environment({ fail: { scenario: 'test10', stage: 'ready' } }).actions).catch((e) => e);
  expect(own.exitCode).toBe(5);
});

test('Ctrl-C in a stage: the stage recorded as interrupted, the lock let go, and the line says where it stopped and how to resume', async () => {
  const dir = tempDir('campaign-');
  const io = recordingIO();
  const env = environment();
  let said: string | undefined;
  let left: CampaignRecord | undefined;
  env.actions.load = async () => {
    said = io.interrupted();
    // What the process leaves as it exits, before the stage's own failure would be written.
    left = readRecord(recordPath(dir));
    throw new Killed('the process exits here');
  };
  await expect(run(FOLIO, dir, env.actions, undefined, undefined, io)).rejects.toThrow();
  expect(said).toBe(
    `campaign three-phases stopped at step 1 (test10), load; what that stage started in AWS goes on without it; resume: npm run campaign -- run three-phases --out ${dir}`,
  );
  expect(existsSync(join(dir, 'campaign.lock'))).toBe(false);
  expect(left).toMatchObject({ status: 'failed', failure: { step: 0, stage: 'load', reason: 'interrupted (Ctrl-C or SIGTERM)' } });
  expect(left!.running).toBeUndefined();
});

test('a switch that would replace a stateful resource stops the campaign before anything is deployed', async () => {
  const dir = tempDir('campaign-');
  const env = environment({ proposals: { test11: 'unsafe' } });
  await expect(run(FOLIO, dir, env.actions)).rejects.toThrow(
    /stopped at step 3 \(unsafe\), plan: the switch from test11 would replace stateful resources: Cluster \(AWS::RDS::DBCluster\)/,
  );
  expect(env.state.calls).not.toContain('deploy unsafe');
});

describe('a record is resumed only as it was left', () => {
  test('another definition of the campaign is refused, naming both fingerprints', async () => {
    const dir = tempDir('campaign-');
    await run(FOLIO, dir, environment({ fail: { scenario: 'test11', stage: 'deploy' } }).actions).catch(() => undefined);
    const changed = { ...FOLIO, steps: [FOLIO.steps[0], { scenario: 'test12', load: { kind: 'wait' as const, duration: '30m' } }] };
    await expect(run(changed, dir, environment().actions)).rejects.toThrow(
      /: written for another definition of campaign three-phases \(fingerprint [0-9a-f]{16}, now [0-9a-f]{16}\)/,
    );
  });

  test('stacks deployed with another scenario since are refused', async () => {
    const dir = tempDir('campaign-');
    await run(FOLIO, dir, environment({ fail: { scenario: 'test11', stage: 'load' } }).actions).catch(() => undefined);
    const env = environment();
    env.state.deployed = 'test4';
    await expect(run(FOLIO, dir, env.actions)).rejects.toThrow(
      'the stacks were deployed with test4 since campaign three-phases deployed test11: its record no longer describes them (valid: deploy test11 again, or start over with another --out)',
    );
    expect(env.state.calls).toEqual([]);
  });

  test("a deploy stopped in flight that finished on its own is the record's own: resumed, the deploy run again; a third scenario is still refused", async () => {
    /** A run stopped in test11's deploy: failed while waiting, or killed (its record as the process left it, the stage running). */
    const stoppedInDeploy = async (how: 'failed' | 'killed'): Promise<string> => {
      const dir = tempDir('campaign-');
      await run(FOLIO, dir, environment({ fail: { scenario: 'test11', stage: 'deploy' } }).actions).catch(() => undefined);
      const { failure, ...left } = readRecord(recordPath(dir))!;
      if (how === 'killed')
        writeFileSync(
          recordPath(dir),
          JSON.stringify({ ...left, status: 'running', running: { step: failure!.step, stage: failure!.stage, since: failure!.at } }),
        );
      expect(readRecord(recordPath(dir))).toMatchObject({ deployed: 'test10', [how === 'killed' ? 'running' : 'failure']: { step: 1, stage: 'deploy' } });
      return dir;
    };
    for (const how of ['failed', 'killed'] as const) {
      const dir = await stoppedInDeploy(how);
      // CloudFormation went on after the process stopped waiting: the stacks hold the step's scenario.
      const finished = environment();
      finished.state.deployed = 'test11';
      expect((await run(FOLIO, dir, finished.actions)).status).toBe('done');
      expect(finished.state.calls[0]).toBe('deploy test11');
    }
    const other = environment();
    other.state.deployed = 'test4';
    await expect(run(FOLIO, await stoppedInDeploy('killed'), other.actions)).rejects.toThrow(
      'the stacks were deployed with test4 since campaign three-phases deployed test10',
    );
    expect(other.state.calls).toEqual([]);
  });

  test('a finished campaign runs nothing again', async () => {
    const dir = tempDir('campaign-');
    await run(FOLIO, dir, environment().actions);
    const env = environment();
    env.state.deployed = 'test13';
    expect((await run(FOLIO, dir, env.actions)).status).toBe('done');
    expect(env.state.calls).toEqual([]);
  });
});

describe('the budget', () => {
  test('a step that would take the spend past the month is refused before it starts, saying by how much', async () => {
    // $48 a day for each of 4 steps of 1 hour: $8 in all; a month's budget of $6 (0.2 × 30) refuses the first step.
    const dir = tempDir('campaign-');
    const env = environment();
    const error = await run(FOLIO, dir, env.actions, undefined, 0.2).catch((e) => e);
    expect(error.message).toMatch(
      /^campaign three-phases stopped at step 1 \(test10\), plan: the budget refuses it: spent \$0\.00 and the rest projected at \$8\.00 make \$8\.00, \$2\.00 past the budget of \$6\.00 \(the environment's spending\.budget\.dailyUsd, \$0\.20, × 30 days: the month AWS Budgets forecasts\); nothing of step 1 \(test10\) was started; the environment is left as it is/,
    );
    expect(env.state.calls).toEqual([]);
  });

  test("a day's spend past the daily budget is refused", async () => {
    const error = await run(FOLIO, tempDir('campaign-'), environment().actions, undefined, 7).catch((e) => e);
    expect(error.message).toMatch(/spend \$8\.00 in their 1st 24 hours, \$1\.00 past the environment's daily budget of \$7\.00/);
  });

  test('what was spent counts: the projection takes the stages that ran at their recorded times', async () => {
    const dir = tempDir('campaign-');
    await run(FOLIO, dir, environment({ fail: { scenario: 'test11', stage: 'load' } }).actions).catch(() => undefined);
    const record = readRecord(recordPath(dir))!;
    const campaign = resolveCampaign(FOLIO.name, [FOLIO]);
    const p = projectCampaign(campaign, record, { resolve: (name) => ({ name, family: 'folio' }) as never, usdPerDay: () => 48 });
    // Step 1's six stages and step 2's first four, 10 minutes each at $2 an hour.
    expect(p.spent).toBeCloseTo(((6 + 4) * 10 * 2) / 60, 6);
    expect(p.steps.map((s) => s.done)).toEqual([true, false, false, false]);
  });
});

test('the record on disk after each stage says where the campaign is', async () => {
  const dir = tempDir('campaign-');
  const seen: string[] = [];
  const env = environment();
  const deploy = env.actions.deploy;
  env.actions.deploy = async (to) => {
    const r = JSON.parse(readFileSync(recordPath(dir), 'utf8'));
    seen.push(`${r.running.step}:${r.running.stage} ${Object.keys(r.steps[r.running.step].stages).join(',')}`);
    return deploy(to, dir);
  };
  await run(FOLIO, dir, env.actions);
  expect(seen).toEqual(['0:deploy plan,move', '1:deploy plan,move', '2:deploy plan,move', '3:deploy plan,move']);
  expect(join(dir, 'campaign.json')).toBe(recordPath(dir));
});

describe('one run at a time per record', () => {
  test('a second run on a record whose run is alive is refused, naming its process', async () => {
    const dir = tempDir('campaign-');
    // This test's own process holds it, as a run in another terminal would.
    writeFileSync(join(dir, 'campaign.lock'), `${process.pid}\n`);
    const env = environment();
    await expect(run(FOLIO, dir, env.actions)).rejects.toThrow(
      `campaign three-phases is running already in ${dir} (process ${process.pid}, ${join(dir, 'campaign.lock')}) (valid: let it finish, or stop that process and run this again)`,
    );
    expect(env.state.calls).toEqual([]);
  });

  test('a lock whose PID a later process got is taken over; one naming that process as it started is not', async () => {
    const started = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[19];
    const reused = tempDir('campaign-');
    // This process's PID with another start time: the run that held it was killed and its PID given again.
    writeFileSync(join(reused, 'campaign.lock'), `${process.pid} ${Number(started) - 1}\n`);
    await run(FOLIO, reused, environment().actions);
    expect(existsSync(join(reused, 'campaign.lock'))).toBe(false);
    const held = tempDir('campaign-');
    writeFileSync(join(held, 'campaign.lock'), `${process.pid} ${started}\n`);
    await expect(run(FOLIO, held, environment().actions)).rejects.toThrow(/is running already/);
  });

  test("a killed run's lock is taken over, and the lock is gone when a run ends, whichever way", async () => {
    const dir = tempDir('campaign-');
    // A pid no process has: the run that held it was killed.
    writeFileSync(join(dir, 'campaign.lock'), '4194303\n');
    await run(FOLIO, dir, environment().actions);
    expect(existsSync(join(dir, 'campaign.lock'))).toBe(false);
    const failed = tempDir('campaign-');
    await run(FOLIO, failed, environment({ fail: { scenario: 'test10', stage: 'deploy' } }).actions).catch(() => undefined);
    expect(existsSync(join(failed, 'campaign.lock'))).toBe(false);
  });
});

test('a record that is a symbolic link looping on itself is refused by name, not read as no record', () => {
  const dir = tempDir('campaign-');
  symlinkSync(recordPath(dir), recordPath(dir));
  expect(() => readRecord(recordPath(dir))).toThrow(`${recordPath(dir)}: cannot read it (a symbolic link that loops)`);
});

describe('a record is judged from its data, whole, before it is resumed, projected or reported', () => {
  /** A finished run's record, edited. */
  const damaged = async (edit: (r: any) => void) => {
    const dir = tempDir('campaign-');
    await run(FOLIO, dir, environment().actions);
    const record = JSON.parse(readFileSync(recordPath(dir), 'utf8'));
    edit(record);
    writeFileSync(recordPath(dir), JSON.stringify(record));
    return { dir, record: readRecord(recordPath(dir))! };
  };
  const campaign = () => resolveCampaign(FOLIO.name, [FOLIO], CATALOG as CatalogInput);
  const refusal = async (edit: (r: any) => void) => {
    const { dir, record } = await damaged(edit);
    try {
      judgeRecord(record, campaign(), FOLIO, recordPath(dir));
    } catch (e) {
      return (e as Error).message.replace(recordPath(dir), '<record>');
    }
    return 'accepted';
  };

  test.each<[string, (r: any) => void, RegExp]>([
    [
      "another campaign's",
      (r) => (r.campaign = 'ptf-hybrid'),
      /^<record>: campaign ptf-hybrid's record, not three-phases's \(valid: another --out for three-phases\)$/,
    ],
    [
      'a step past the definition',
      (r) => (r.steps[3].definition = 99),
      /^<record>: step 4 \(test13\) runs definition step 100, which campaign three-phases does not have \(it has 3\)/,
    ],
    [
      "a scenario step's scenario changed (another family's)",
      (r) => (r.steps[0].scenario = 'temporal-150wps'),
      /^<record>: step 1 \(temporal-150wps\) is not definition step 1's scenario, test10/,
    ],
    [
      'a scenario step recorded twice',
      (r) => r.steps.splice(1, 0, structuredClone(r.steps[0])),
      /^<record>: step 1 \(test10\) is recorded 2 times; a scenario step runs once/,
    ],
    [
      'a follow with no report behind it',
      (r) => delete r.steps[2].proposedBy,
      /^<record>: step 3 \(test12\) is not a followed proposal definition step 3 allows/,
    ],
    ['steps out of order', (r) => r.steps.reverse(), /runs before a step it follows in the definition|is not definition step/],
    [
      'a stage that ends before it starts',
      (r) => (r.steps[1].stages.load.ended = '2020-01-01T00:00:00.000Z'),
      /^<record>: step 2 \(test11\), load ends \(2020-01-01T00:00:00\.000Z\) before it starts/,
    ],
    [
      'a stage a year long',
      (r) => (r.steps[1].stages.deploy.started = '2025-11-27T00:00:00.000Z'),
      /^<record>: step 2 \(test11\), deploy lasts 3\d\d days, longer than the budget's month/,
    ],
  ])('%s is refused in one line', async (_, edit, expected) => {
    const said = await refusal(edit);
    expect(said).toMatch(expected);
    expect(said).not.toContain('\n');
  });

  test('the record as the run left it is accepted', async () => {
    expect(await refusal(() => undefined)).toBe('accepted');
  });
});
