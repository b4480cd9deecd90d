import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetServiceQuotaCommand, ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { mockClient } from 'aws-sdk-client-mock';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG } from '../../../../../config';
import type { CatalogInput } from '../../../../../config/catalog-schema';
import { type CostOptions, runCost } from '../../../../../lib/commands/cost/run-cost';
import type { PresetInput } from '../../../../../lib/temporal/commands/capacity/preset-rule';
import { runCapacity } from '../../../../../lib/temporal/commands/capacity/run-capacity';
import { rateNoPresetHas } from '../../../../support/free-rate';
import { tempDir } from '../../../../support/temp-dir';

/* The capacity command's flow, called as its entry point calls it; its model: pool-capacity.test.ts. */

const quotas = mockClient(ServiceQuotasClient);
const cfn = mockClient(CloudFormationClient);
/** The deployed stack, with its Hibernated parameter at `value`. */
const deployed = (value: string) =>
  cfn.on(DescribeStacksCommand).resolves({
    Stacks: [
      {
        StackName: 'TemporalDsql',
        CreationTime: new Date(),
        StackStatus: 'UPDATE_COMPLETE',
        Parameters: [{ ParameterKey: 'Hibernated', ParameterValue: value }],
      },
    ],
  });
beforeEach(() => {
  quotas.reset();
  cfn.reset();
  deployed('false');
});

test('--json returns every pool as data, and calls no AWS API', async () => {
  const r = JSON.parse((await runCapacity({ scenario: 'temporal-150wps', json: true })).stdout);
  expect(r.scenario).toBe('temporal-150wps');
  expect(r.pools.map((p: { pool: string; instances: number; fits: boolean }) => [p.pool, p.instances, p.fits])).toEqual([
    ['main', 10, true],
    ['benchmark', 4, true],
  ]);
  expect(quotas.calls()).toHaveLength(0);
});

test("--quota-from-aws reads the account's applied quota and counts against it", async () => {
  quotas.on(GetServiceQuotaCommand).resolves({ Quota: { Value: 96 } });
  const r = await runCapacity({ scenario: 'temporal-150wps', quotaFromAws: true });
  expect(quotas.commandCalls(GetServiceQuotaCommand)[0].args[0].input).toEqual({ ServiceCode: 'ec2', QuotaCode: 'L-1216C47A' });
  expect(r.stdout).toMatch(/\| EC2 vCPUs \(On-Demand standard\) \| 112 \| 96 \| 117% \|/);
  expect(r.stdout).not.toContain('hibernated');
});

test('--quota-from-aws on a hibernated environment says so: nothing runs now, and what waking it needs', async () => {
  quotas.on(GetServiceQuotaCommand).resolves({ Quota: { Value: 96 } });
  deployed('true');
  const r = await runCapacity({ scenario: 'temporal-150wps', quotaFromAws: true });
  expect(r.stdout).toMatch(
    /\nNow: TemporalDsql is hibernated: no server or instance runs \(npm run wake -- --scenario temporal-150wps brings the preset back\)\. The pools above are what waking it starts, and the vCPUs it needs\.\n$/,
  );
  const json = JSON.parse((await runCapacity({ scenario: 'temporal-150wps', quotaFromAws: true, json: true })).stdout);
  expect(json.hibernated).toMatch(/^TemporalDsql is hibernated/);
});

test('--endpoint-url without --quota-from-aws is refused before anything runs', async () => {
  await expect(runCapacity({ scenario: 'temporal-150wps', endpointUrl: 'http://127.0.0.1:5000' })).rejects.toThrow(
    /^--endpoint-url applies to --quota-from-aws only/,
  );
});

describe('--rate: a preset proposed for the rate', () => {
  const FREE = String(rateNoPresetHas());
  const PRESETS = CATALOG.temporal.scenarios as readonly PresetInput[];
  const withPreset = (p: PresetInput): CatalogInput => ({ ...CATALOG, temporal: { ...CATALOG.temporal, scenarios: [...PRESETS, p] } });

  test("prints the entry to paste, the limits and the day's cost, the same cost `cost` prints once the entry is in config", async () => {
    const out = (await runCapacity({ rate: FREE })).stdout;
    expect(out).toMatch(new RegExp(`^## A preset for ${Number(FREE).toLocaleString('en-US')} workflows/s on Aurora DSQL\\n\\nBetween \\S+ and \\S+: `));
    expect(out).toContain('### Scaling Headroom');
    const written = JSON.parse((await runCapacity({ rate: FREE, json: true })).stdout).preset as PresetInput;
    const cost = await runCost({ scenario: written.name, catalog: withPreset(written) } as CostOptions);
    expect(out.slice(out.indexOf('## Daily Cost Estimate'))).toBe(cost.stdout);
  });

  test('at a shipped rate it says the rule reproduces that preset', async () => {
    const p = PRESETS.find((x) => x.store.engine === 'dsql')!;
    expect((await runCapacity({ rate: String(p.benchmark.targetRate) })).stdout).toContain(`The rule reproduces ${p.name}: no field differs.`);
  });

  test('--write adds the entry to the file, and refuses a name config already has', async () => {
    const file = join(tempDir('capacity-write-'), 'temporal-scenarios.ts');
    writeFileSync(file, readFileSync('config/temporal-scenarios.ts', 'utf8'));
    const out = (await runCapacity({ rate: FREE, write: 'my-preset', scenariosFile: file })).stdout;
    expect(out).toContain(`Added at the end of the chain in ${file}.`);
    expect(readFileSync(file, 'utf8')).toMatch(/\n {4}name: 'my-preset',\n {4}from: '\S+',\n/);
    await expect(runCapacity({ rate: '500', write: PRESETS[0].name, scenariosFile: file })).rejects.toThrow(
      new RegExp(`^--write ${PRESETS[0].name}: config already has a preset of that name`),
    );
  });

  test.each([
    [{ rate: '500', scenario: 'temporal-150wps' }, /^--scenario does not go with --rate/],
    [{ rate: '500', quotaFromAws: true }, /^--quota-from-aws does not go with --rate/],
    [{ rate: 'fast' }, /^--rate "fast" is not valid \(valid: a whole number from 1 to 100000\)$/],
    [{ rate: '0' }, /^--rate "0" is not valid/],
    [{ rate: '500', store: 'mysql' }, /^--store mysql is not a history store a preset can have \(valid: dsql, aurora\)$/],
    [{ scenario: 'temporal-150wps', write: 'x' }, /^--write applies to --rate only/],
    [{ scenario: 'temporal-150wps', store: 'aurora' }, /^--store applies to --rate only/],
  ])('%j is refused in one line', async (o, message) => {
    await expect(runCapacity(o)).rejects.toThrow(message);
  });

  test('a rate no preset of the rule fits is refused with the bound and the highest rate that fits', async () => {
    await expect(runCapacity({ rate: '5000', store: 'aurora' })).rejects.toThrow(
      /^no preset the sizing rule gives for 5000\/s on aurora passes config's limits: .*; the highest rate it gives one for is \d+\/s$/,
    );
  });
});

test('a preset config refuses for its pools prints the smallest change that fits, and exits 1', async () => {
  const PRESETS = CATALOG.temporal.scenarios as readonly PresetInput[];
  const tight = { ...structuredClone(PRESETS.find((p) => p.name === 'temporal-150wps')!), name: 'hand-sized' };
  tight.capacity.benchmark.maxInstances = 1;
  const catalog: CatalogInput = { ...CATALOG, temporal: { ...CATALOG.temporal, scenarios: [...PRESETS, tight] } };
  const r = await runCapacity({ scenario: 'hand-sized', catalog });
  expect(r.exitCode).toBe(1);
  expect(r.stdout).toMatch(/^Config refuses hand-sized: .*the smallest benchmark pool that fits is (\d+) instances\n\n## The smallest hand-sized that fits\n/);
  const fewest = r.stdout.match(/the smallest benchmark pool that fits is (\d+) instances/)![1];
  expect(r.stdout).toContain(`  { capacity: { benchmark: { maxInstances: ${fewest} } } }`);
});
