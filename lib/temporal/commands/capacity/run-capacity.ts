import { ConfigError } from '../../../../config';
import { resolveTargetOf } from '../../../commands/shared/target';
import { loadPrices } from '../../../../config/prices';
import { temporalHibernatedNow } from '../shared/hibernated';
import { loadAwsClients } from '../../../commands/aws/load-clients';
import { type CommandDeps, type CommandOutput, EXIT_USAGE } from '../../../commands/shared/cli';
import { capacityReport, renderCapacity } from './pool-capacity';
import { type ProposalOptions, runProposal, smallestThatFits } from './run-proposal';

/* `npm run capacity`: a Temporal preset's pools packed, offline unless the vCPU quota is read from AWS. */

export interface CapacityOptions extends Partial<Omit<ProposalOptions, 'rate'>> {
  readonly rate?: string;
  readonly scenario?: string;
  readonly envName?: string;
  readonly json?: boolean;
  readonly quotaFromAws?: boolean;
  readonly endpointUrl?: string;
}

export async function runCapacity(o: CapacityOptions, deps: Pick<CommandDeps, 'aws'> = {}): Promise<CommandOutput> {
  const proposing = { '--rate': o.rate, '--store': o.store, '--write': o.write };
  if (o.rate !== undefined) {
    const withRate = Object.entries({ '--scenario': o.scenario, '--quota-from-aws': o.quotaFromAws, '--endpoint-url': o.endpointUrl }).find(
      ([, v]) => v !== undefined,
    );
    if (withRate)
      throw new ConfigError(
        `${withRate[0]} does not go with --rate, which proposes a preset from config alone (valid: --rate with --store, --write, --env-name, --json)`,
      );
    return runProposal({ ...o, rate: o.rate });
  }
  const stray = Object.entries(proposing).find(([, v]) => v !== undefined);
  if (stray) throw new ConfigError(`${stray[0]} applies to --rate only (valid: --rate <workflows/s> ${stray[0]} ...)`);
  if (!o.scenario) throw new ConfigError('no scenario given: pass --scenario <a Temporal preset>, or --rate <workflows/s> for a preset proposed for that rate');
  if (o.endpointUrl !== undefined && !o.quotaFromAws)
    throw new ConfigError(
      '--endpoint-url applies to --quota-from-aws only: without it, capacity calls no AWS API (valid: --quota-from-aws --endpoint-url <url>, or neither)',
    );
  let resolved: ReturnType<typeof resolveTargetOf<'temporal'>>;
  try {
    resolved = resolveTargetOf('temporal', 'capacity', o);
  } catch (e) {
    // A preset config refuses for its pools or limits: the smallest change that fits, when one does.
    const fits = e instanceof ConfigError ? await smallestThatFits(o.scenario, e.message, o) : undefined;
    if (fits) return { stdout: fits, exitCode: EXIT_USAGE };
    throw e;
  }
  const { scenario, aws: target } = resolved;
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
