import { GetAWSDefaultServiceQuotaCommand, GetServiceQuotaCommand, type ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { CommandFailure, EXIT_FAILED } from '../shared/cli';

/** EC2's "Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances" quota, in vCPUs: m7g and m8g count against it. */
const ON_DEMAND_STANDARD_VCPUS = { ServiceCode: 'ec2', QuotaCode: 'L-1216C47A' } as const;

/**
 * The account's applied On-Demand standard vCPU quota in the client's region; where the
 * account has never had it changed, Service Quotas has no applied value and the AWS default applies.
 */
export async function onDemandVcpuQuota(client: ServiceQuotasClient): Promise<{ value: number; source: string }> {
  const region = await client.config.region();
  const read = async (applied: boolean) => {
    const out = await client.send(
      applied ? new GetServiceQuotaCommand(ON_DEMAND_STANDARD_VCPUS) : new GetAWSDefaultServiceQuotaCommand(ON_DEMAND_STANDARD_VCPUS),
    );
    const value = out.Quota?.Value;
    if (value === undefined) throw new CommandFailure(`Service Quotas returned no value for ${ON_DEMAND_STANDARD_VCPUS.QuotaCode} in ${region}`, EXIT_FAILED);
    return value;
  };
  try {
    return { value: await read(true), source: `Service Quotas, ${ON_DEMAND_STANDARD_VCPUS.QuotaCode} in ${region}` };
  } catch (e) {
    if (!(e instanceof Error && e.name === 'NoSuchResourceException')) throw e;
    return {
      value: await read(false),
      source: `Service Quotas, the AWS default of ${ON_DEMAND_STANDARD_VCPUS.QuotaCode} in ${region} (none applied to the account)`,
    };
  }
}
