import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { isCampaignFile, readCampaignFile } from '../../config/campaign-file';
import { resolveCampaign } from '../../config/campaign-schema';
import { CAMPAIGNS } from '../../config/campaigns';
import { tempDir } from '../support/temp-dir';

/* A campaign kept as the user's own file: the same schema and rules as config/campaigns.ts, errors naming the file. */

const [shipped] = CAMPAIGNS;
const file = (name: string, text: string) => {
  const path = join(tempDir('campaign-file-'), name);
  writeFileSync(path, text);
  return path;
};

test('a campaign name is never a path, and a path is never a name', () => {
  expect(CAMPAIGNS.map((c) => isCampaignFile(c.name))).toEqual(CAMPAIGNS.map(() => false));
  expect(['./plan.yaml', 'plans/x', 'x.json', 'x.yml'].map(isCampaignFile)).toEqual([true, true, true, true]);
});

test.each([
  ['YAML', 'mine.yaml', stringify(shipped)],
  ['JSON', 'mine.json', JSON.stringify(shipped, null, 2)],
])('a %s file of a shipped campaign resolves to what config/campaigns.ts resolves it to, named by its path', (_, name, text) => {
  const path = file(name, text);
  const { campaign, definition } = readCampaignFile(path);
  expect(campaign).toEqual({ ...resolveCampaign(shipped.name, CAMPAIGNS), file: path });
  expect(definition).toEqual(JSON.parse(JSON.stringify(shipped)));
});

describe('a bad file is one line naming it', () => {
  const step = { scenario: 'temporal-150wps', load: { kind: 'bench-run', duration: '10m' } };
  const mine = { name: 'mine', title: 'Mine', steps: [step], onEnd: 'hibernate', estimates: { deploy: '40m', ready: '10m', report: '5m' } };
  test.each([
    ['not YAML', 'name: [unclosed\n', /^campaign file .*x\.yaml: not YAML or JSON \(.*\) \(valid: one campaign as YAML or JSON/],
    ['a key twice', 'name: a\nname: b\n', /^campaign file .*x\.yaml: not YAML or JSON \(Map keys must be unique/],
    ['a list', stringify([mine]), /^campaign file .*x\.yaml: holds a list, not one campaign \(valid: /],
    ['nothing', '', /^campaign file .*x\.yaml: holds nothing, not one campaign \(valid: /],
    ['no name', stringify({ ...mine, name: undefined }), /^campaign file .*x\.yaml: has no name \(valid: /],
    ['a bad name', stringify({ ...mine, name: 'My Plan' }), /^campaign file .*x\.yaml: .*name.*lower case letters/],
    [
      'an unknown scenario',
      stringify({ ...mine, steps: [{ ...step, scenario: 'temporal-150' }] }),
      /^campaign file .*x\.yaml: steps\[0\]: unknown scenario "temporal-150"/,
    ],
    ['a misspelt field', stringify({ ...mine, steps: [{ ...step, laod: step.load, load: undefined }] }), /^campaign file .*x\.yaml: .*steps\.0.*laod/],
    [
      'a run too short for a report',
      stringify({ ...mine, steps: [{ ...step, load: { kind: 'bench-run', duration: '1m' } }] }),
      /^campaign file .*x\.yaml: steps\.0\.load\.duration: "1m" is not valid \(valid: 2m or more/,
    ],
  ])('%s', (_, text, message) => {
    const path = file('x.yaml', text);
    expect(() => readCampaignFile(path)).toThrow(message);
    try {
      readCampaignFile(path);
    } catch (e) {
      expect((e as Error).message.split('\n')).toHaveLength(1);
    }
  });

  test('a missing file, or a directory', () => {
    const dir = tempDir('campaign-file-');
    expect(() => readCampaignFile(join(dir, 'none.yaml'))).toThrow(/^campaign file .*none\.yaml: cannot read it \(no such file or directory\)$/);
    mkdirSync(join(dir, 'd.yaml'));
    expect(() => readCampaignFile(join(dir, 'd.yaml'))).toThrow(/^campaign file .*d\.yaml: cannot read it \(a directory, not a file\)$/);
  });
});
