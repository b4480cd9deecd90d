import { type CampaignInput, resolveCampaign } from '../../config/campaign-schema';
import { CAMPAIGNS } from '../../config/campaigns';

/* Campaigns are data: the shipped ones resolve, and each kind of mistake is one line naming it. */

test("the shipped campaigns: seed 002's fourteen phases in order, and the Temporal presets' scaling study", () => {
  const ptf = resolveCampaign('ptf-hybrid', CAMPAIGNS);
  expect(ptf.family).toBe('folio');
  expect(ptf.steps.map((s) => ('scenario' in s ? s.scenario : 'follow'))).toEqual(['baseline', ...Array.from({ length: 13 }, (_, i) => `test${i + 1}`)]);
  const scaling = resolveCampaign('temporal-scaling', CAMPAIGNS);
  expect(scaling.family).toBe('temporal');
  expect(scaling.steps.map((s) => ('scenario' in s ? `${s.scenario} ${s.load.kind}` : ''))).toEqual([
    'temporal-150wps bench-ladder',
    'temporal-800wps bench-ladder',
    'temporal-1200wps bench-ladder',
  ]);
});

/** The first campaign's name with its last two letters swapped. */
const TYPO = CAMPAIGNS[0].name.replace(/(.)(.)$/, '$2$1');

const base: CampaignInput = {
  name: 'c',
  title: 'a campaign',
  steps: [{ scenario: 'test10', load: { kind: 'wait', duration: '30m' } }],
  onEnd: 'hibernate',
  estimates: { deploy: '20m', ready: '5m', report: '5m' },
};
const edit = (change: (c: any) => void) => {
  const c = structuredClone(base) as any;
  change(c);
  return c as CampaignInput;
};

test.each([
  // Counted from config: a campaign added changes no line here.
  [
    'an unknown campaign',
    TYPO,
    [],
    new RegExp(`^unknown campaign "${TYPO}" \\(did you mean "${CAMPAIGNS[0].name}"\\?\\); valid: ${CAMPAIGNS.map((c) => c.name).join(', ')}$`),
  ],
  ['an unknown scenario', 'c', [edit((c) => (c.steps[0].scenario = 'test99'))], /^campaign c, steps\[0\]: unknown scenario "test99"/],
  [
    'two families',
    'c',
    [edit((c) => c.steps.push({ scenario: 'temporal-150wps', load: { kind: 'bench-run' } }))],
    /^campaign c, steps\[1\]: temporal-150wps is a temporal scenario, the campaign's first is folio \(valid: one family's scenarios: one environment\)$/,
  ],
  [
    'a load the family cannot run',
    'c',
    [edit((c) => (c.steps[0].load = { kind: 'bench-ladder' }))],
    /^campaign c, steps\[0\]: load bench-ladder does not run on a folio scenario \(valid: command, wait\)$/,
  ],
  [
    'a follow step first',
    'c',
    [edit((c) => (c.steps = [{ followProposal: { times: 1 }, load: { kind: 'wait', duration: '1h' } }]))],
    /^campaign c, steps\[0\]: followProposal has no report before it to follow \(valid: a scenario step first\)$/,
  ],
  ['an empty command', 'c', [edit((c) => (c.steps[0].load = { kind: 'command', command: [], timeout: '1h' }))], /steps\.0\.load\.command.*an empty command/],
  [
    'a wait past two days',
    'c',
    [edit((c) => (c.steps[0].load.duration = '49h'))],
    /"49h" is not valid \(valid: 2m or more, a load the report's 1-minute points fit in whole, and at most 48h: one step of a campaign/,
  ],
  ['a wait of a minute', 'c', [edit((c) => (c.steps[0].load.duration = '1m'))], /"1m" is not valid \(valid: 2m or more, a load the report's/],
  ['a duration that is not one', 'c', [edit((c) => (c.steps[0].load.duration = '1 hour'))], /"1 hour" is not a duration/],
  [
    'an unknown load kind',
    'c',
    [edit((c) => (c.steps[0].load = { kind: 'sleep' }))],
    /load kind "sleep" is not valid \(valid: bench-run, bench-ladder, command, wait\)/,
  ],
  ['a misspelt field', 'c', [edit((c) => ((c.onEnd = undefined), (c.onend = 'hibernate')))], /onend/],
  [
    "a ladder's rates and its from",
    'c',
    [edit((c) => (c.steps = [{ scenario: 'temporal-150wps', load: { kind: 'bench-ladder', rates: [100, 200], from: 100 } }]))],
    /^campaign c, steps\[0\]\.load: a ladder's rates and its from\/upTo both say which rates to offer \(valid: one of them\)$/,
  ],
  ['a name that is no name', 'Bad Name', [edit((c) => (c.name = 'Bad Name'))], /name.*valid: lower case letters, digits and dashes/],
  [
    "a run's ramp-up as long as the run",
    'c',
    [edit((c) => (c.steps = [{ scenario: 'temporal-150wps', load: { kind: 'bench-run', duration: '2m', rampUp: '2m' } }]))],
    /^campaign c, steps\[0\]: ramp-up 2m is not shorter than the run's duration 2m \(valid: a ramp-up shorter than the run, e\.g\. 0s\)$/,
  ],
  [
    'a run too short to hold a whole minute of the report',
    'c',
    [edit((c) => (c.steps = [{ scenario: 'temporal-150wps', load: { kind: 'bench-run', duration: '90s' } }]))],
    /steps\.0\.load\.duration: "90s" is not valid \(valid: 2m or more, a run the report's 1-minute points fit in whole, and at most 24h: the generator/,
  ],
  [
    'a negative ramp-up',
    'c',
    [edit((c) => (c.steps = [{ scenario: 'temporal-150wps', load: { kind: 'bench-run', rampUp: '-1s' } }]))],
    /"-1s" is not a duration \(valid: a duration in h, m and s, in that order, such as 90s, 30m, 2h or 1h30m\)/,
  ],
  [
    'a ladder step bench ladder would refuse (under 10 s)',
    'c',
    [edit((c) => (c.steps = [{ scenario: 'temporal-150wps', load: { kind: 'bench-ladder', step: '1s' } }]))],
    /steps\.0\.load\.step: "1s" is not valid \(valid: 10s or more, the generator's start and a scrape are most of a shorter step, and at most 24h/,
  ],
  [
    'a ladder capped below its first rate, named as the step writes it',
    'c',
    [edit((c) => (c.steps = [{ scenario: 'temporal-800wps', load: { kind: 'bench-ladder', upTo: 150 } }]))],
    /^campaign c, steps\[0\]\.load: upTo 150 is below from \(temporal-800wps's targetRate\) 800 \(valid: a cap at or above the first rate\)$/,
  ],
  [
    'a load command whose program does not exist',
    'c',
    [edit((c) => (c.steps[0].load = { kind: 'command', command: ['no-such-load-tool-xyz', '--tenants', '30'], timeout: '1h' }))],
    /^campaign c, steps\[0\]\.load\.command\[0\]: "no-such-load-tool-xyz" is not a program on PATH \(valid: a program on PATH, or a path to an executable file/,
  ],
  [
    'a load command that is a path to nothing',
    'c',
    [edit((c) => (c.steps[0].load = { kind: 'command', command: ['./load.sh'], timeout: '1h' }))],
    /^campaign c, steps\[0\]\.load\.command\[0\]: "\.\/load\.sh" is not an executable file/,
  ],
  ['a deploy estimated at a millisecond', 'c', [edit((c) => (c.estimates.deploy = '1ms'))], /estimates\.deploy: "1ms" is not a duration/],
  [
    'a deploy estimated at a second',
    'c',
    [edit((c) => (c.estimates.deploy = '1s'))],
    /estimates\.deploy: "1s" is not valid \(valid: 1m or more, a stage takes minutes/,
  ],
  ['a wait in milliseconds', 'c', [edit((c) => (c.steps[0].load.duration = '120000ms'))], /"120000ms" is not a duration/],
])('%s is refused in one line', (_, name, campaigns, expected) => {
  let message = '';
  try {
    resolveCampaign(name as string, (campaigns as CampaignInput[]).length ? (campaigns as CampaignInput[]) : CAMPAIGNS);
  } catch (e) {
    message = (e as Error).message;
  }
  expect(message).toMatch(expected as RegExp);
  expect(message).not.toContain('\n');
});

test('a run with no ramp-up, as bench run --ramp-up 0s, is a campaign step', () => {
  const c = edit((x) => (x.steps = [{ scenario: 'temporal-150wps', load: { kind: 'bench-run', rate: 5, duration: '2m', rampUp: '0s' } }]));
  expect(resolveCampaign('c', [c]).steps[0].load).toEqual({ kind: 'bench-run', rate: 5, duration: '2m', rampUp: '0s' });
});

test('a campaigns module that is not a list of uniquely named campaigns is one line, not a TypeError', () => {
  expect(() => resolveCampaign('c', undefined as never)).toThrow(
    'config/campaigns.ts: CAMPAIGNS is not exported (valid: export const CAMPAIGNS: CampaignInput[] = [...], an array of campaigns)',
  );
  expect(() => resolveCampaign('c', { c: CAMPAIGNS[0] } as never)).toThrow('config/campaigns.ts: CAMPAIGNS is object, not a list (valid:');
  expect(() => resolveCampaign(CAMPAIGNS[0].name, [CAMPAIGNS[0], CAMPAIGNS[1], { ...CAMPAIGNS[1], name: CAMPAIGNS[0].name }])).toThrow(
    `config/campaigns.ts: two campaigns are named ${CAMPAIGNS[0].name} (valid: a name each; the second could never be run)`,
  );
});

test('durations are written as on the command line: 1h30m is a wait, and a program on PATH is found', () => {
  expect(resolveCampaign('c', [edit((c) => (c.steps[0].load.duration = '1h30m'))]).steps[0].load).toEqual({ kind: 'wait', duration: '1h30m' });
  const command = edit((c) => (c.steps[0].load = { kind: 'command', command: ['sh', '-c', 'true'], timeout: '1h30m' }));
  expect(resolveCampaign('c', [command]).steps[0].load).toMatchObject({ command: ['sh', '-c', 'true'] });
});
