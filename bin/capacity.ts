#!/usr/bin/env node
import { ConfigError, resolveScenarioOf } from '../config';
import { loadPrices } from '../config/prices';
import { capacityReport, renderCapacity } from '../lib/commands/capacity/pool-capacity';
import { endpointUrl, newCommand, runCommand } from '../lib/commands/shared/cli';

const program = newCommand('capacity')
  .description(
    "Packs a Temporal preset's tasks (CPU, memory, awsvpc ENI slots with and without ENI trunking) onto its capacity providers'\n" +
      'instances: how full each ASG is, the smallest ASG that fits with room for a rolling deploy, and what it costs per day.\n' +
      'The same model refuses an undersized preset at synth time. Offline.',
  )
  .option('-s, --scenario <name>', 'a Temporal preset')
  .option('--env-name <name>', 'the envName the stacks are deployed with, if any')
  .option('--quota-from-aws', "read the account's On-Demand standard vCPU quota from Service Quotas (servicequotas:GetServiceQuota) instead of config")
  .option('--endpoint-url <url>', 'an AWS-compatible endpoint for --quota-from-aws (a local emulator)', endpointUrl)
  .option('--json', 'print the plan as JSON')
  .addHelpText('after', '\nExample:\n  npm run capacity -- --scenario temporal-150wps');

interface Options {
  scenario?: string;
  envName?: string;
  json?: boolean;
  quotaFromAws?: boolean;
  endpointUrl?: string;
}

void runCommand(async () => {
  const o = program.parse().opts<Options>();
  if (!o.scenario) throw new ConfigError('no scenario given: pass --scenario <a Temporal preset>');
  if (o.endpointUrl !== undefined && !o.quotaFromAws) throw new ConfigError('--endpoint-url applies to --quota-from-aws only: without it, capacity calls no AWS API (valid: --quota-from-aws --endpoint-url <url>, or neither)');
  const scenario = resolveScenarioOf('temporal', { scenario: o.scenario, envName: o.envName }, { option: '--scenario', command: 'capacity' });
  const prices = loadPrices(scenario.env.region);
  // Loaded only when asked for: the SDK client is most of the start-up.
  const vcpuQuota = o.quotaFromAws
    ? await (require('../lib/commands/aws/quotas') as typeof import('../lib/commands/aws/quotas')).onDemandVcpuQuota(
        (require('../lib/commands/aws/clients') as typeof import('../lib/commands/aws/clients')).serviceQuotasClient({ region: scenario.env.region, endpoint: o.endpointUrl }),
      )
    : undefined;
  const report = capacityReport(scenario, prices, { vcpuQuota });
  if (o.json) {
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
    process.stdout.write(`${JSON.stringify({ scenario: scenario.name, headroom: report.headroom, quotaSource: report.quotaSource, perVcpu: report.perVcpu, pools }, null, 2)}\n`);
  } else process.stdout.write(renderCapacity(report));
});
