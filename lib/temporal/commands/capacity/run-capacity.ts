import { ConfigError } from '../../../../config';
import { resolveTargetOf } from '../../../commands/shared/target';
import { loadPrices } from '../../../../config/prices';
import { temporalHibernatedNow } from '../shared/hibernated';
import { loadAwsClients } from '../../../commands/aws/load-clients';
import type { CommandDeps, CommandOutput } from '../../../commands/shared/cli';
import { capacityReport, renderCapacity } from './pool-capacity';

/* `npm run capacity`: a Temporal preset's pools packed, offline unless the vCPU quota is read from AWS. */

export interface CapacityOptions {
  readonly scenario?: string;
  readonly envName?: string;
  readonly json?: boolean;
  readonly quotaFromAws?: boolean;
  readonly endpointUrl?: string;
}

export async function runCapacity(o: CapacityOptions, deps: Pick<CommandDeps, 'aws'> = {}): Promise<CommandOutput> {
  if (!o.scenario) throw new ConfigError('no scenario given: pass --scenario <a Temporal preset>');
  if (o.endpointUrl !== undefined && !o.quotaFromAws)
    throw new ConfigError(
      '--endpoint-url applies to --quota-from-aws only: without it, capacity calls no AWS API (valid: --quota-from-aws --endpoint-url <url>, or neither)',
    );
  const { scenario, aws: target } = resolveTargetOf('temporal', 'capacity', o);
  const prices = loadPrices(scenario.env.region);
  // Loaded only when asked for: the SDK client is most of the start-up.
  const aws = o.quotaFromAws ? (deps.aws ?? loadAwsClients)() : undefined;
  const vcpuQuota = aws
    ? await (require('../../../commands/aws/quotas') as typeof import('../../../commands/aws/quotas')).onDemandVcpuQuota(aws.serviceQuotas(target))
    : undefined;
  // Against the account, the deployed environment's state too: a hibernated one runs none of this now.
  const hibernated = aws ? await temporalHibernatedNow(aws, target, scenario) : undefined;
  const report = capacityReport(scenario, prices, { vcpuQuota });
  const now = hibernated ? `\nNow: ${hibernated}. The pools above are what waking it starts, and the vCPUs it needs.\n` : '';
  if (!o.json) return { stdout: renderCapacity(report) + now };
  const pools = report.pools.map((p) => ({
    pool: p.plan.spec.pool,
    instanceType: p.plan.spec.instanceTypeName,
    instances: p.plan.spec.instances,
    trunking: p.plan.spec.trunking,
    capacityPerInstance: p.plan.capacity,
    fits: p.plan.fits,
    problem: p.plan.problem ?? null,
    tightest: p.plan.peak.during,
    smallestFitting: p.plan.smallestFitting ?? null,
    usdPerDay: p.usdPerDay,
    otherTrunking: p.otherTrunking,
    alternatives: p.alternatives,
    placement: p.plan.steady.instances.map((l) => l.tasks),
  }));
  return {
    stdout: `${JSON.stringify({ scenario: scenario.name, hibernated: hibernated ?? null, headroom: report.headroom, quotaSource: report.quotaSource, perVcpu: report.perVcpu, pools }, null, 2)}\n`,
  };
}
