import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveScenario } from '../../../config';
import type { CampaignInput } from '../../../config/campaign-schema';
import { CAMPAIGNS } from '../../../config/campaigns';
import { loadPrices } from '../../../config/prices';
import { costOf } from '../../../lib/families';
import type { CampaignActions } from '../../../lib/campaign/campaign-run';
import { runCampaignCommand } from '../../../lib/campaign/run-campaign';
import { usd } from '../../../lib/commands/shared/money';
import { cloudListPrice } from '../../../lib/temporal/commands/shared/temporal-cloud';
import { ACTIONS_PER_WORKFLOW } from '../../../lib/temporal/contract/benchmark-actions';
import { recordingIO } from '../../support/command-io';
import { tempDir } from '../../support/temp-dir';

/* `npm run campaign`: plan's projection from config and cost, and run's campaign report from the steps' reports. */

const ROOT = join(__dirname, '../../..');
const options = (out: string) => ({ out });

test("plan: each step's hours and cost from its load and its scenario's day, the budget, and each switch", async () => {
  const out = tempDir('campaign-plan-');
  const { stdout } = await runCampaignCommand('plan', 'temporal-scaling', options(out), { io: recordingIO(), switchLine: (from, to) => `${from} to ${to}` });
  const day = (name: string) => usd(costOf(resolveScenario({ scenario: name }), loadPrices('eu-west-1')).total);
  // A ladder of up to 8 steps of 5 minutes, each with 5 minutes to place and drain its task, and 55 minutes of deploy, wake and report.
  expect(stdout).toContain(`| 1 | temporal-150wps | bench ladder | 2.25 | ${day('temporal-150wps')} |`);
  expect(stdout).toContain(`| 2 | temporal-800wps | bench ladder | 2.25 | ${day('temporal-800wps')} |`);
  expect(stdout).toContain('| temporal-150wps to temporal-800wps |');
  expect(stdout).toMatch(/against a budget of \$9,000\.00 \(the environment's spending\.budget\.dailyUsd, \$300\.00, × 30 days/);
  expect(existsSync(join(out, 'campaign.json'))).toBe(false);
});

test('report: a campaign that has not run there is one line', async () => {
  await expect(runCampaignCommand('report', 'ptf-hybrid', options(tempDir('campaign-')), { io: recordingIO() })).rejects.toThrow(
    /^no record at .*campaign\.json: campaign ptf-hybrid has not run there \(valid: npm run campaign -- run ptf-hybrid, or the --out it ran with\)$/,
  );
});

/** Actions whose every stage succeeds, and whose report is a recorded one. */
function recorded(report: string): CampaignActions {
  let deployed: string | undefined;
  return {
    deployedScenario: async () => deployed,
    plan: async () => ({ unsafe: [], moves: false, note: '' }),
    move: async () => 'moved',
    deploy: async (to) => ((deployed = to.name), `deployed ${to.name}`),
    ready: async () => 'awake',
    load: async () => ({ start: '2026-01-21T10:00:00.000Z', end: '2026-01-21T11:00:00.000Z' }),
    report: async (to, _load, dir) => {
      mkdirSync(dir, { recursive: true });
      // The recorded report, as the step's own: a report names the scenario it was read for.
      const json = JSON.parse(readFileSync(join(ROOT, report), 'utf8'));
      writeFileSync(join(dir, 'report.json'), JSON.stringify({ ...json, scenario: to.name }));
      return join(dir, 'report.json');
    },
    proposal: async () => ({ none: 'no rule holds' }),
    hibernate: async () => 'hibernated',
  };
}

test("run: the campaign report sets the steps side by side, seed 002's columns for FOLIO, with a chart per figure", async () => {
  const out = tempDir('campaign-');
  const campaign: CampaignInput = {
    name: 'two-phases',
    title: 'two phases',
    steps: ['test10', 'test11'].map((scenario) => ({ scenario, load: { kind: 'wait', duration: '60m' } })),
    onEnd: 'hibernate',
    estimates: { deploy: '20m', ready: '5m', report: '5m' },
  };
  const io = recordingIO();
  const { stdout } = await runCampaignCommand('run', 'two-phases', options(out), {
    io,
    campaigns: [campaign],
    actions: recorded('docs/report-example/test10/report.json'),
  });
  const day = usd(costOf(resolveScenario({ scenario: 'test10' }), loadPrices('us-east-1')).total);
  expect(stdout).toContain(
    '| Step | Phase | Writer | Offload cluster | Routed to it | Window | Writer CPU peak | Offload CPU peak | ACU peak / average | Connections peak (primary / offload) | Per day |',
  );
  expect(stdout).toContain(`| 1 | test10 | db.r7g.2xlarge | Serverless v2 0.5-32 ACU | 7 | 60 min | 65% | 80% | 32 / 25.62 ACU | 400 / 180 | ${day} |`);
  expect(stdout).toMatch(/^# Campaign report: two-phases\n\ntwo phases\. Started .*; done, ended .* \(hibernated\)\. 2 steps reported\./);
  expect(readFileSync(join(out, 'report.md'), 'utf8')).toBe(stdout);
  for (const n of [1, 2, 3, 4]) expect(readFileSync(join(out, 'charts', `campaign-${n}.svg`), 'utf8')).toMatch(/^<svg/);
  expect(stdout).toContain('![Cost per day (USD)](charts/campaign-1.svg)');
  expect(io.notes).toContain(`wrote ${join(out, 'report.md')} and 4 charts`);
});

test("run: a Temporal step's row, the rate it completed, its P99, and a million workflows' cost at that rate", async () => {
  const out = tempDir('campaign-');
  const campaign: CampaignInput = {
    name: 'one-preset',
    title: 'one preset',
    steps: [{ scenario: 'temporal-150wps', load: { kind: 'bench-run' } }],
    onEnd: 'leave',
    estimates: { deploy: '40m', ready: '10m', report: '5m' },
  };
  const { stdout } = await runCampaignCommand('run', 'one-preset', options(out), {
    io: recordingIO(),
    campaigns: [campaign],
    actions: recorded('docs/report-example/temporal-150wps/report.json'),
  });
  const e = costOf(resolveScenario({ scenario: 'temporal-150wps' }), loadPrices('eu-west-1'));
  // 41,052 workflows over the example's 5-minute window.
  const rate = 41_052 / 300;
  const perMillion = (e.perMillionWorkflows!.usd * e.perMillionWorkflows!.workflowsPerSecond) / rate;
  // Temporal Cloud's list price for the same workflows at that rate: the month's actions priced tier by tier, over its workflows.
  const hours = e.perMillionWorkflows!.workflowsPerDay / (e.perMillionWorkflows!.workflowsPerSecond * 3600);
  const actions = ACTIONS_PER_WORKFLOW.simple.actions;
  const monthWorkflows = rate * 3600 * hours * 30;
  const cloud = cloudListPrice((monthWorkflows * actions) / 1e6).usd / (monthWorkflows / 1e6);
  expect(stdout).toContain(`| 1 | temporal-150wps | 136.84 workflows/s | no data | not judged | ${usd(e.total)} | ${usd(perMillion)} | ${usd(cloud)} |`);
  expect(stdout).toMatch(/done, ended .* \(left as it is\)\./);
  // A day's and a million workflows' cost against the rate held: a point per preset, labelled.
  const cloudTitle = "Temporal Cloud's list price per million workflows at that rate (USD)";
  const title = `Cost per day (USD) and Cost per million workflows at the rate held (USD) and ${cloudTitle} against Highest rate held (workflows/s)`;
  expect(stdout).toContain(`![${title}](charts/campaign-against.svg)`);
  const svg = readFileSync(join(out, 'charts', 'campaign-against.svg'), 'utf8');
  expect(svg.match(/>temporal-150wps</g)).toHaveLength(3);
  for (const text of ['Cost per day (USD)', 'Cost per million workflows at the rate held (USD)', cloudTitle.replace("'", '&#39;')]) expect(svg).toContain(text);
});

test('--out that is a file: run and report refuse it in one line before anything runs, plan too', async () => {
  const file = join(tempDir('campaign-'), 'a-file');
  writeFileSync(file, '');
  for (const command of ['run', 'report'] as const)
    await expect(runCampaignCommand(command, 'ptf-hybrid', options(file), { io: recordingIO(), actions: recorded('x') })).rejects.toThrow(
      `--out "${file}": cannot write there (a part of the path is a file)`,
    );
  await expect(runCampaignCommand('plan', 'ptf-hybrid', options(file), { io: recordingIO() })).rejects.toThrow(
    `--out "${file}": not a directory (valid: the campaign's record directory)`,
  );
});

/** ptf-hybrid under another name, run until its first step's ready stage fails: a record on disk, and no report beside it. */
async function stoppedAtReady(name: string): Promise<{ out: string; campaign: CampaignInput }> {
  const out = tempDir('campaign-');
  const campaign: CampaignInput = { ...CAMPAIGNS.find((c) => c.name === 'ptf-hybrid')!, name };
  const actions = { ...recorded('x'), ready: async () => Promise.reject(new Error('stop here')) };
  await runCampaignCommand('run', name, options(out), { io: recordingIO(), campaigns: [campaign], actions }).catch(() => undefined);
  rmSync(join(out, 'report.md'));
  return { out, campaign };
}

test('a second run refused (the first holds the lock) writes nothing: no report beside the record', async () => {
  const { out, campaign } = await stoppedAtReady('locked');
  // A live process (this one) holds the lock.
  writeFileSync(join(out, 'campaign.lock'), `${process.pid}\n`);
  await expect(runCampaignCommand('run', 'locked', options(out), { io: recordingIO(), campaigns: [campaign], actions: recorded('x') })).rejects.toThrow(
    /^campaign locked is running already in /,
  );
  expect(existsSync(join(out, 'report.md'))).toBe(false);
});

test("plan and report judge the record as run does: another campaign's is refused, and nothing is written", async () => {
  const { out } = await stoppedAtReady('other');
  for (const command of ['plan', 'report'] as const)
    await expect(runCampaignCommand(command, 'ptf-hybrid', options(out), { io: recordingIO() })).rejects.toThrow(
      `${join(out, 'campaign.json')}: campaign other's record, not ptf-hybrid's (valid: another --out for ptf-hybrid)`,
    );
  expect(existsSync(join(out, 'report.md'))).toBe(false);
});

test("a step whose report is another scenario's (another family's) is refused in one line, not drawn as the step's", async () => {
  const out = tempDir('campaign-');
  const campaign: CampaignInput = {
    ...CAMPAIGNS.find((c) => c.name === 'ptf-hybrid')!,
    name: 'swapped',
    steps: [{ scenario: 'test10', load: { kind: 'wait', duration: '60m' } }],
  };
  const actions = recorded('docs/report-example/test10/report.json');
  await runCampaignCommand('run', 'swapped', options(out), { io: recordingIO(), campaigns: [campaign], actions });
  const record = JSON.parse(readFileSync(join(out, 'campaign.json'), 'utf8'));
  copyFileSync(join(ROOT, 'docs/report-example/temporal-150wps/report.json'), record.steps[0].report);
  await expect(runCampaignCommand('report', 'swapped', options(out), { io: recordingIO(), campaigns: [campaign] })).rejects.toThrow(
    `step 1's report ${record.steps[0].report} is temporal-150wps's, not test10's (valid: the report.json that step's report stage wrote)`,
  );
});
