import { CATALOG, ConfigError, loadCatalog, resolveScenario, type TemporalEnvironment, type TemporalScenario } from '../../../../../config';
import type { CatalogInput } from '../../../../../config/catalog-schema';
import { changesFrom } from '../../../../../lib/temporal/commands/capacity/preset-entry';
import type { PresetInput } from '../../../../../lib/temporal/commands/capacity/preset-rule';
import { highestRate, limitProblems, proposePreset } from '../../../../../lib/temporal/commands/capacity/propose-preset';
import { rateNoPresetHas } from '../../../../support/free-rate';
import { synthScenario } from '../../../../support/synth';

/* A whole preset for a rate: the rule's counts held to the packing model and to config's limits, then checked as synth checks it. */

const catalog = loadCatalog();
const env: TemporalEnvironment = catalog.temporal.environment;
const PRESETS = CATALOG.temporal.scenarios as readonly PresetInput[];
const strip = ({ name: _n, title: _t, recorded: _r, ...body }: PresetInput) => body;
const withPreset = (p: PresetInput): CatalogInput => ({ ...CATALOG, temporal: { ...CATALOG.temporal, scenarios: [...PRESETS, p] } });
const storeOf = (p: PresetInput) => (p.store.engine === 'dsql' ? 'dsql' : 'aurora');

test('the rule reproduces every shipped preset, field for field, at its rate and store', () => {
  expect.hasAssertions();
  for (const p of PRESETS) {
    const proposal = proposePreset(p.benchmark.targetRate, storeOf(p), p.name, PRESETS, env);
    expect([p.name, changesFrom(strip(p), strip(proposal.preset))]).toEqual([p.name, {}]);
    expect(proposal.moved).toEqual([]);
  }
});

describe.each([50, 500, 3000])('%i workflows/s', (rate) => {
  const proposal = proposePreset(rate, 'dsql', `temporal-${rate}wps-proposed`, PRESETS, env);
  const scenario = () => resolveScenario({ scenario: proposal.preset.name }, withPreset(proposal.preset)) as TemporalScenario;

  test('passes every check config makes of a preset, the synth-time packing and limits included', () => {
    expect(scenario().preset.benchmark.targetRate).toBe(rate);
    expect(limitProblems(proposal.preset.name, proposal.preset, env)).toEqual([]);
  });
});

test('a proposal synthesizes', () => {
  const proposal = proposePreset(rateNoPresetHas(), 'dsql', 'proposal-wps', PRESETS, env);
  const { template } = synthScenario({ scenario: proposal.preset.name }, withPreset(proposal.preset));
  // The history service runs the proposal's count when awake.
  const services = Object.values(template.findResources('AWS::ECS::Service')).map((r) => r.Properties.DesiredCount?.['Fn::If']?.[2]);
  expect(services).toContain(proposal.preset.services.history.replicas);
});

test('past what the quota holds, the benchmark fleet is cut to it, and the line says the quota binds and what quota holds all', () => {
  const top = Math.max(...PRESETS.map((p) => p.benchmark.targetRate));
  const proposal = proposePreset(top * 1.5, 'dsql', 'x-proposed', PRESETS, env);
  expect(proposal.moved.join('\n')).toMatch(
    /^benchmark: \d+ instances and \d+ of the \d+ workers the rule gives: the vCPU quota binds .*a quota of \d+ holds them all\)$/m,
  );
  expect(proposal.preset.benchmark.workers.replicas).toBeLessThan(proposal.counts.benchmarkWorkers);
});

test('a rate whose main pool alone is past the quota is refused in one line, with the highest rate the rule can propose', () => {
  const small = { ...env, limits: { ...env.limits, ec2VcpuQuota: 100 } };
  expect(() => proposePreset(2000, 'dsql', 'x', PRESETS, small)).toThrow(
    /^the main pool alone needs \d+ vCPUs at 2000\/s, past the 90 of limits.ec2VcpuQuota 100/,
  );
  const fits = (r: number) => {
    try {
      return !!proposePreset(r, 'dsql', 'x', PRESETS, small);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      return false;
    }
  };
  const highest = highestRate(2000, fits)!;
  expect([fits(highest), fits(highest + 1)]).toEqual([true, false]);
});

test("an Aurora proposal is refused past its writer's max_connections", () => {
  const aurora = PRESETS.find((p) => p.store.engine === 'aurora-postgresql')!;
  const big = { ...strip(aurora), pools: Object.fromEntries(Object.entries(aurora.pools).map(([r]) => [r, { maxConns: 1000, maxIdleConns: 1000 }])) };
  expect(limitProblems('x', big as PresetInput, env)).toEqual([
    expect.stringMatching(/^x may hold [\d,]+ connections to its Aurora writer at a rolling deploy's peak, over 4,500/),
  ]);
});
