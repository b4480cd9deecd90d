import { CATALOG, ConfigError, TEMPORAL_ROLES, type TemporalScenario } from '../../../../config';
import type { CatalogInput } from '../../../../config/catalog-schema';
import type { BottleneckComponent, TemporalRemedy } from '../../../../config/observability-schema';
import type { TemporalScenarioInput } from '../../../../config/temporal-schema';
import { fitPools } from '../shared/fit-preset';
import { accepted, type Proposal } from '../../../commands/report/proposals';
import { round } from '../../../commands/shared/figure';

/*
 * "What to try next" for a Temporal window: the remedy config names for the component the
 * bottleneck rules ranked first, applied to the preset that ran.
 */

/** What a proposal reads of a Temporal report (temporal-summary.ts's TemporalReport has it all). */
export interface TemporalProposalInput {
  readonly scenario: string;
  readonly window: { readonly minutes: number; readonly run?: { readonly start: string; readonly end: string } };
  readonly configured: { readonly targetRate: number; readonly serverTasks: number };
  readonly server: { readonly unread: string | null };
  readonly bottlenecks: {
    readonly ranked: readonly { readonly component: BottleneckComponent; readonly says: string; readonly evidence: readonly string[] }[];
    readonly unjudged: readonly string[];
  };
}

/**
 * A Temporal run's next preset: the remedy config names for the component the bottleneck rules
 * ranked first, applied to the preset that ran, and accepted by config (its packing into the
 * pools, DSQL's connection limit and the vCPU headroom), or blocked with config's reason.
 */
export function proposeNextPreset(report: TemporalProposalInput, scenario: TemporalScenario, catalog: CatalogInput = CATALOG): Proposal {
  const config = scenario.environment.observability.proposals;
  const unjudged = (says: string): Proposal => ({ status: 'unjudged', says, evidence: [], caveats: [] });
  if (report.scenario !== scenario.name)
    return unjudged(`the window is ${report.scenario}'s, not ${scenario.name}'s: it proposes nothing for ${scenario.name}`);
  const serverTasks = TEMPORAL_ROLES.reduce((n, r) => n + scenario.preset.services[r].replicas, 0);
  if (report.configured.targetRate !== scenario.preset.benchmark.targetRate || report.configured.serverTasks !== serverTasks)
    return unjudged(
      `the window ran another configuration than ${scenario.name} has now (${report.configured.serverTasks} server tasks, ${report.configured.targetRate}/s): its figures say nothing about the preset as configured`,
    );
  const minutes = report.window.run ? (Date.parse(report.window.run.end) - Date.parse(report.window.run.start)) / 60_000 : report.window.minutes;
  if (minutes < config.minimumMinutes)
    return unjudged(`the window is ${round(minutes)} minutes long, shorter than the ${config.minimumMinutes} a run is judged on: it proposes nothing`);
  if (report.server.unread) return unjudged(`the servers' own metrics were not read (${report.server.unread}): where the run was held back is not known`);
  const caveats = report.bottlenecks.unjudged.length ? [`not judged for want of data: ${report.bottlenecks.unjudged.join(', ')}`] : [];
  const top = report.bottlenecks.ranked[0];
  // Nothing held the run back among the figures judged; with some not judged, that is not "fine".
  if (!top && caveats.length)
    return unjudged(
      `no bottleneck rule holds among the figures judged, and ${report.bottlenecks.unjudged.join(', ')} had no data: whether the run was held back there is not known`,
    );
  if (!top) return { status: 'unchanged', says: `no bottleneck rule holds: nothing in this run asks for a change to ${scenario.name}`, evidence: [], caveats };
  const remedy = config.remedies[top.component];
  const next = nextPreset(remedy, top.component, scenario, catalog);
  const says = `${top.says} (${describeRemedy(remedy)})`;
  if (next instanceof ConfigError)
    return {
      status: 'blocked',
      rule: top.component,
      says: `${says}; config refuses that change as it stands: ${next.message}`,
      evidence: top.evidence,
      caveats,
    };
  return { status: 'proposed', rule: top.component, says, evidence: top.evidence, caveats, next };
}

function describeRemedy(r: TemporalRemedy): string {
  switch (r.kind) {
    case 'replicas':
      return `${r.service} replicas times ${r.factor}`;
    case 'dynamic-config':
      return `${r.keys.join(' and ')} times ${r.factor}`;
    case 'pools':
      return `every role's connection pool times ${r.factor}`;
    case 'generator':
      return `the load generator's vCPU and memory times ${r.factor}`;
  }
}

function nextPreset(r: TemporalRemedy, component: BottleneckComponent, scenario: TemporalScenario, catalog: CatalogInput): Proposal['next'] | ConfigError {
  const ran = catalog.temporal.scenarios.find((p) => p.name === scenario.name);
  if (!ran) return new ConfigError(`preset ${scenario.name} is not in the catalog`);
  const preset = structuredClone(ran) as TemporalScenarioInput & Record<string, any>;
  const up = (n: number, f: number) => Math.ceil(n * f);
  switch (r.kind) {
    case 'replicas': {
      const size = r.service === 'benchmark-workers' ? preset.benchmark.workers : preset.services[r.service];
      size.replicas = up(size.replicas, r.factor);
      break;
    }
    case 'dynamic-config':
      for (const key of r.keys) {
        const value = preset.dynamicConfig?.[key];
        if (typeof value !== 'number') return new ConfigError(`${scenario.name} sets no number for ${key} to raise`);
        preset.dynamicConfig = { ...preset.dynamicConfig, [key]: up(value, r.factor) };
      }
      break;
    case 'pools':
      preset.pools = Object.fromEntries(
        Object.entries(preset.pools).map(([role, pool]: [string, any]) => [
          role,
          { ...pool, maxConns: up(pool.maxConns, r.factor), maxIdleConns: up(pool.maxIdleConns, r.factor) },
        ]),
      ) as typeof preset.pools;
      break;
    case 'generator':
      preset.benchmark.generator = { vcpu: preset.benchmark.generator.vcpu * r.factor, memoryGiB: preset.benchmark.generator.memoryGiB * r.factor };
      break;
  }
  // The pools grow to what the change needs (the packing model's smallest fit); config's headroom
  // (vCPUs, DSQL connections) still judges the whole.
  fitPools(preset, scenario.environment);
  preset.name = `${scenario.name}-next`;
  preset.title = `proposed after ${scenario.name} (${component})`;
  delete preset.recorded;
  return accepted(catalog, ran, preset, (c) => (c.temporal.scenarios as TemporalScenarioInput[]).push(preset));
}
