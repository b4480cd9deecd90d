import { CATALOG, ConfigError, type TemporalScenario } from '../../../../config';
import type { CatalogInput } from '../../../../config/catalog-schema';
import { loadPrices } from '../../../../config/prices';
import { costOf } from '../../../families';
import { resolveTargetOf } from '../../../commands/shared/target';
import { type CommandOutput } from '../../../commands/shared/cli';
import { numberOption } from '../../../commands/shared/option-values';
import { capacityReport } from './pool-capacity';
import { changesFrom, entrySource, presetEntry, writeEntry } from './preset-entry';
import type { PresetInput } from './preset-rule';
import { fitPools } from '../shared/fit-preset';
import { fitQuota, highestRate, limitProblems, PROPOSAL_STORES, proposalNote, proposePreset, type Proposal, type ProposalStore } from './propose-preset';
import { renderProposal } from './render-proposal';

/* `npm run capacity -- --rate <n>`: a whole preset proposed for the rate, checked as synth checks it, priced as `cost` prices it. */

export interface ProposalOptions {
  readonly rate: string;
  readonly store?: string;
  readonly write?: string;
  readonly envName?: string;
  readonly json?: boolean;
  /** The catalog to size from and check against: config's, or a test's. */
  readonly catalog?: CatalogInput;
  /** The file --write adds the preset to. */
  readonly scenariosFile?: string;
}

const SCENARIOS_FILE = 'config/temporal-scenarios.ts';

export async function runProposal(o: ProposalOptions): Promise<CommandOutput> {
  const rate = numberOption('--rate', o.rate, { min: 1, max: 100_000, integer: true })!;
  const store = (o.store ?? 'dsql') as ProposalStore;
  if (!PROPOSAL_STORES.includes(store))
    throw new ConfigError(`--store ${o.store} is not a history store a preset can have (valid: ${PROPOSAL_STORES.join(', ')})`);
  const catalog = o.catalog ?? CATALOG;
  const presets = catalog.temporal.scenarios as readonly PresetInput[];
  const name = o.write ?? `temporal-${store === 'dsql' ? '' : 'aurora-'}${rate}wps`;
  const existing = presets.find((p) => p.name === name);
  if (o.write !== undefined && existing)
    throw new ConfigError(`--write ${o.write}: config already has a preset of that name (valid: a name no preset has, e.g. ${name}-proposed)`);
  // The environment, validated the one way every command validates config, through a shipped preset.
  const anyPreset = presets.find((p) => p.store.engine === (store === 'dsql' ? 'dsql' : 'aurora-postgresql')) ?? presets[0];
  const env = resolveTargetOf('temporal', 'capacity', { scenario: anyPreset?.name, envName: o.envName, catalog }).scenario.environment;
  const proposal = proposeOrLimit(rate, store, existing ? `${name}-proposed` : name, presets, env);
  const entry = presetEntry(proposal.preset, proposal.from, proposalNote(rate, store));
  const withIt = { ...catalog, temporal: { ...catalog.temporal, scenarios: [...presets, proposal.preset] } } as CatalogInput;
  // Checked as synth checks it: the whole catalog with the proposal in it, through config's one path.
  const scenario = resolveTargetOf('temporal', 'capacity', { scenario: proposal.preset.name, envName: o.envName, catalog: withIt }).scenario;
  const file = o.scenariosFile ?? SCENARIOS_FILE;
  const source = entrySource(entry, file);
  const estimate = costOf(scenario, loadPrices(scenario.env.region));
  if (o.write !== undefined) writeEntry(file, source);
  if (o.json) return { stdout: `${JSON.stringify({ proposal: entry, preset: proposal.preset, moved: proposal.moved, estimate }, null, 2)}\n` };
  const headroom = capacityReport(scenario as TemporalScenario, loadPrices(scenario.env.region));
  return { stdout: renderProposal({ proposal, existing, source, headroom, estimate, written: o.write === undefined ? undefined : file }) };
}

/** The proposal, or the limit that stops it, with the highest rate the rule can propose for. */
function proposeOrLimit(...args: Parameters<typeof proposePreset>): Proposal {
  try {
    return proposePreset(...args);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    const [rate, store, name, presets, env] = args;
    const fits = (r: number) => {
      try {
        return !!proposePreset(r, store, name, presets, env);
      } catch {
        return false;
      }
    };
    const highest = highestRate(rate, fits);
    throw new ConfigError(
      `no preset the sizing rule gives for ${rate}/s on ${store} passes config's limits: ${e.message}${highest ? `; the highest rate it gives one for is ${highest}/s` : ''}`,
    );
  }
}

/**
 * For a preset config refuses: config's line, then the change to its entry that makes it fit
 * (its pools grown to the fewest instances that hold them, its fleet cut to what the vCPU quota
 * leaves), checked as synth checks it; undefined when no such change does.
 */
export async function smallestThatFits(
  name: string | undefined,
  refusal: string,
  o: { envName?: string; catalog?: CatalogInput },
): Promise<string | undefined> {
  const catalog = o.catalog ?? CATALOG;
  const presets = catalog.temporal.scenarios as readonly PresetInput[];
  const written = presets.find((p) => p.name === name);
  if (!written) return undefined;
  const fixed = structuredClone(written);
  const withIt = { ...catalog, temporal: { ...catalog.temporal, scenarios: presets.map((p) => (p === written ? fixed : p)) } } as CatalogInput;
  let moved: string[];
  try {
    // The environment through config's one path (another preset's; this one is refused).
    const other = presets.find((p) => p !== written)?.name;
    const env = resolveTargetOf('temporal', 'capacity', { scenario: other, envName: o.envName, catalog }).scenario.environment;
    moved = [...fitPools(fixed, env), ...fitQuota(fixed, env)];
    if (!moved.length || limitProblems(written.name, fixed, env).length) return undefined;
    resolveTargetOf('temporal', 'capacity', { scenario: written.name, envName: o.envName, catalog: withIt });
  } catch {
    return undefined;
  }
  const source = entrySource(changesFrom(written, fixed), SCENARIOS_FILE);
  return [
    `Config refuses ${written.name}: ${refusal}`,
    '',
    `## The smallest ${written.name} that fits`,
    '',
    ...moved.map((m) => `- ${m}`),
    '',
    `Change ${written.name}'s entry in ${SCENARIOS_FILE} by this, then run \`npm run capacity -- --scenario ${written.name}\` again:`,
    '',
    '```ts',
    source,
    '```',
    '',
  ].join('\n');
}
