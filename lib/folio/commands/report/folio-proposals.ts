import { CATALOG, ConfigError, describeOffload, type FolioScenario } from '../../../../config';
import type { CatalogInput } from '../../../../config/catalog-schema';
import type { FolioFigure, FolioProposalRule } from '../../../../config/observability-schema';
import { type FolioPhaseInput, splitReadAcks } from '../../../../config/folio-schema';
import { accepted, type Proposal } from '../../../commands/report/proposals';
import { cite, holds, round } from '../../../commands/shared/figure';
import type { WaitReading } from './wait-events';

/*
 * "What to try next" for a FOLIO window: the rules in config (observability.proposals) applied
 * to the window's figures, the first that holds proposing one change to the phase that ran, as
 * the phase entry a user would add to config/folio-phases.ts, validated by config before it is
 * shown. A window too short, with a series missing or thin, or of another configuration than
 * the phase has now proposes nothing and says why; a figure that could not be read (Performance
 * Insights) leaves its rules unjudged and is said as a caveat.
 */

type Figures = Readonly<Record<FolioFigure, number | null>>;

interface PeakAverage {
  readonly peak: number | null;
}

/** What a proposal reads of a FOLIO report (folio-summary.ts's FolioReport has it all). */
export interface ProposalInput {
  readonly scenario: string;
  readonly window: { readonly minutes: number; readonly run?: { readonly start: string; readonly end: string } };
  readonly coverage: Readonly<Record<string, { readonly points: number; readonly expected: number }>>;
  readonly configured: {
    readonly primaryInstanceClass: string;
    readonly offload: string;
    readonly acu: { readonly min: number; readonly max: number } | null;
    readonly routedToOffload: readonly string[];
  };
  readonly metrics: {
    readonly acu: (PeakAverage & { readonly peakShareOfMax: number | null; readonly shareOfWindowAtCeiling: number | null }) | null;
    readonly cpu: { readonly primary: PeakAverage; readonly offload: PeakAverage };
  };
  readonly waits: WaitReading;
}

/** The window's figures; null where the window has no data for one, or where it does not apply (a provisioned offload cluster has no ACU). */
function folioFigures(report: ProposalInput): Figures {
  const m = report.metrics;
  const acu = m.acu;
  const min = report.configured.acu?.min ?? null;
  return {
    primaryCpuPeakPercent: m.cpu.primary.peak,
    offloadCpuPeakPercent: m.cpu.offload.peak,
    acuPeakShareOfMax: acu?.peakShareOfMax ?? null,
    acuShareOfWindowAtCeiling: acu?.shareOfWindowAtCeiling ?? null,
    acuPeakOverMin: acu?.peak == null || min === null ? null : min > 0 ? acu.peak / min : Number.POSITIVE_INFINITY,
    offloadIoWaitShare: report.waits.offload?.ioShare ?? null,
  };
}

/** The series each figure is read from (coverage is checked on them). */
const SERIES: Readonly<Record<FolioFigure, readonly string[]>> = {
  primaryCpuPeakPercent: ['cpuPrimary'],
  offloadCpuPeakPercent: ['cpuOffload'],
  acuPeakShareOfMax: ['acu'],
  acuShareOfWindowAtCeiling: ['acu'],
  acuPeakOverMin: ['acu'],
  offloadIoWaitShare: [],
};

export function proposeNext(report: ProposalInput, scenario: FolioScenario, catalog: CatalogInput = CATALOG): Proposal {
  const config = scenario.environment.observability.proposals;
  const unjudged = (says: string): Proposal => ({ status: 'unjudged', says, evidence: [], caveats: [] });
  if (report.scenario !== scenario.name)
    return unjudged(`the window is ${report.scenario}'s, not ${scenario.name}'s: it proposes nothing for ${scenario.name}`);
  const ran = report.configured;
  // The offload cluster in words says its kind and size: a Serverless range, or a provisioned class and readers.
  const now = {
    primary: scenario.phase.primaryInstanceClass,
    offload: describeOffload(scenario.phase.offload),
    routed: scenario.routes.filter((r) => r.cluster === 'offload').map((r) => r.module),
  };
  if (ran.primaryInstanceClass !== now.primary || ran.offload !== now.offload || ran.routedToOffload.join() !== now.routed.join())
    return unjudged(
      `the window ran another configuration than ${scenario.name} has now (writer ${ran.primaryInstanceClass}, offload ${ran.offload}, routed ${ran.routedToOffload.length}): its figures say nothing about the phase as configured`,
    );
  const minutes = report.window.run ? (Date.parse(report.window.run.end) - Date.parse(report.window.run.start)) / 60_000 : report.window.minutes;
  if (minutes < config.minimumMinutes)
    return unjudged(`the window is ${round(minutes)} minutes long, shorter than the ${config.minimumMinutes} a phase is judged on: it proposes nothing`);

  const figures = folioFigures(report);
  const thin = [...new Set(Object.values(SERIES).flat())].filter((id) => {
    const c = report.coverage[id];
    return c !== undefined && c.points / c.expected < config.minimumCoverage;
  });
  if (thin.length)
    return unjudged(
      `${thin.join(', ')} ${thin.length > 1 ? 'have' : 'has'} fewer than ${Math.round(config.minimumCoverage * 100)}% of the window's points: it proposes nothing`,
    );
  // A figure the window should have and does not: nothing is proposed from half a picture.
  const applies = (f: FolioFigure) => !(f.startsWith('acu') && ran.acu === null);
  const missing = (Object.keys(figures) as FolioFigure[]).filter((f) => f !== 'offloadIoWaitShare' && applies(f) && figures[f] === null);
  if (missing.length) return unjudged(`no data for ${missing.join(', ')}: it proposes nothing`);

  const caveats =
    figures.offloadIoWaitShare === null
      ? [`I/O waits not judged (${report.waits.unread ?? 'no Performance Insights data'}): an I/O bottleneck is not ruled out`]
      : [];
  for (const rule of config.rules) {
    const values = rule.when.map((c) => figures[c.figure]);
    if (values.some((v) => v === null) || !rule.when.every((c, i) => holds(c, values[i]!))) continue;
    const evidence = rule.when.map((c, i) => cite(c, values[i]!));
    const next = rule.propose.kind === 'none' ? undefined : nextPhase(rule, report, scenario, catalog);
    if (next instanceof ConfigError)
      return { status: 'blocked', rule: rule.id, says: `${rule.says}; config refuses that change as it stands: ${next.message}`, evidence, caveats };
    return { status: 'proposed', rule: rule.id, says: rule.says, evidence, caveats, ...(next ? { next } : {}) };
  }
  const shown = (Object.keys(figures) as FolioFigure[]).filter((f) => figures[f] !== null).map((f) => `${f} ${round(figures[f]!)}`);
  return { status: 'unchanged', says: `no rule holds: nothing in this window asks for a change to ${scenario.name}`, evidence: shown, caveats };
}

/** Sizes of an instance family, smallest first (Aurora's r/m/x classes). */
const SIZES = ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge'];

const nextPowerOfTwo = (n: number) => 2 ** Math.ceil(Math.log2(Math.max(1, n)));

/** The phase the rule proposes, in config's own terms, and accepted by config; or config's refusal. */
function nextPhase(rule: FolioProposalRule, report: ProposalInput, scenario: FolioScenario, catalog: CatalogInput): Proposal['next'] | ConfigError {
  const ran = catalog.folio.phases.find((p) => p.name === scenario.name);
  if (!ran) return new ConfigError(`phase ${scenario.name} is not in the catalog`);
  const phase = structuredClone(ran) as FolioPhaseInput & Record<string, unknown>;
  const serverless = phase.offload.serverless as { min: number; max: number; autoPause?: string } | undefined;
  const peak = report.metrics.acu?.peak ?? 0;
  const p = rule.propose;
  switch (p.kind) {
    case 'writer-size': {
      const [, family, size] = /^(db\.[a-z0-9]+)\.(\w+)$/.exec(phase.primaryInstanceClass) ?? [];
      const to = SIZES[SIZES.indexOf(size) + p.steps];
      if (!family || !to) return new ConfigError(`${phase.primaryInstanceClass} has no size ${p.steps > 0 ? 'above' : 'below'} it to propose`);
      phase.primaryInstanceClass = `${family}.${to}`;
      break;
    }
    case 'acu-max-times':
      serverless!.max = Math.ceil(serverless!.max * p.factor);
      break;
    case 'acu-max-to-peak':
      serverless!.max = Math.max(nextPowerOfTwo(peak * p.headroom), Math.ceil(serverless!.min), 1);
      break;
    case 'acu-min-share-of-peak':
      serverless!.min = Math.max(Math.ceil(peak * p.share), serverless!.min);
      delete serverless!.autoPause;
      break;
    case 'route-next-module':
      return routeNextModule(rule, ran, phase, scenario, catalog);
  }
  return acceptedAsNext(rule, ran, phase, scenario, catalog);
}

/** The proposed phase named and described as proposed, if config accepts it. */
function acceptedAsNext(rule: FolioProposalRule, ran: FolioPhaseInput, phase: FolioPhaseInput, scenario: FolioScenario, catalog: CatalogInput) {
  const next = { ...phase, name: `${scenario.name}-next`, title: `proposed after ${scenario.name} (${rule.id})` };
  Object.assign(next, { observation: `Proposed by npm run report from ${scenario.name}'s window: ${rule.says}. Not run yet.`, recorded: {} });
  return accepted(catalog, ran, next, (c) => (c.folio.phases as FolioPhaseInput[]).push(next));
}

/**
 * The first routable module not yet routed, as PTF moved them, its split reads acknowledged again
 * for the new routing by the modules that accepted them in the phase that ran and for their
 * reasons: an acknowledgement the move made moot is dropped, and a split no module accepted is
 * config's to refuse, until a person acknowledges it.
 */
function routeNextModule(rule: FolioProposalRule, ran: FolioPhaseInput, phase: FolioPhaseInput, scenario: FolioScenario, catalog: CatalogInput) {
  const routed = new Set(phase.routedToOffload);
  const module = catalog.folio.modules.find((m) => m.routable && !routed.has(m.name));
  if (!module) return new ConfigError('every routable module is on the offload cluster already');
  const routedToOffload = [...phase.routedToOffload, module.name];
  const reasonOf = (m: string) => (ran.crossSchemaAcks ?? []).find((a) => a.module === m)?.reason;
  return acceptedAsNext(
    rule,
    ran,
    { ...phase, routedToOffload, crossSchemaAcks: splitReadAcks(catalog.folio.modules, routedToOffload, reasonOf) },
    scenario,
    catalog,
  );
}
