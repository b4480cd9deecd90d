import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetServiceQuotaCommand, ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { mockClient } from 'aws-sdk-client-mock';
import { runCapacity } from '../../../../../lib/temporal/commands/capacity/run-capacity';

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
