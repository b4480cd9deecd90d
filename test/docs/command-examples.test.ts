import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveScenario, resolveScenarioOf, type TemporalScenario } from '../../config';
import { loadPrices } from '../../config/prices';
import { renderRun, renderStatus } from '../../lib/temporal/commands/bench/render-bench';
import { findResult, type RunRecord } from '../../lib/commands/shared/run-record';
import { capacityReport, renderCapacity } from '../../lib/temporal/commands/capacity/pool-capacity';
import { temporalHeadroom } from '../../config/headroom';
import { costOf } from '../../lib/families';
import { renderCost } from '../../lib/commands/shared/render-cost';
import { usd } from '../../lib/commands/shared/money';
import { planTransition, renderPlan } from '../../lib/commands/plan/transition-plan';
import { runCliInProcess } from '../support/cli';
import { expectDocFile } from '../support/docs';
import { MANUAL, page, README, section } from '../support/manual';
import { tempDir } from '../support/temp-dir';

/*
 * docs/command-examples/ holds what plan, cost, capacity and bench print, and the manual's
 * pages quote them. The offline commands are run for real; bench renders the recorded generator
 * log (test/fixtures/bench). After an intended change: UPDATE_DOCS=1 npx jest test/docs
 */

const ROOT = join(__dirname, '../..');
const DIR = join(ROOT, 'docs/command-examples');

function benchExamples(): Record<string, string> {
  const scenario = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
  const targets = { cluster: 'temporal-dsql', workerService: 'benchmark-worker', asgName: 'TemporalDsql-CapacityBenchmarkAsgASG-1' } as const;
  const status = renderStatus(
    { tasks: { desired: 6, running: 6, pending: 0 }, instances: { inService: 2, starting: 0, stopping: 0, desired: 2, max: 4 }, lastEvent: '(service benchmark-worker) has reached a steady state.' },
    targets as any,
    scenario,
  );
  const pages = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/bench/generator-log.json'), 'utf8')).pages;
  const result = findResult(pages.flatMap((p: { events: { message: string }[] }) => p.events.map((e) => e.message)));
  const record: RunRecord = {
    scenario: 'temporal-150wps',
    start: '2026-01-21T10:00:03.000Z',
    end: '2026-01-21T10:05:11.000Z',
    workflowsCompleted: result!.results.workflowsCompleted,
    targetRate: 150,
    duration: '5m',
    rampUp: '30s',
    taskArn: 'arn:aws:ecs:eu-west-1:111122223333:task/temporal-dsql/0f1e2d3c4b5a69788796a5b4c3d2e1f0',
    exitCode: 0,
    stoppedReason: 'Essential container in task exited',
    result,
    // Illustrative: the probe's output shape (test/integration checks it against the program); no AWS run is recorded yet.
    storeRoundTrip: { host: 'kqabc123dsqlcluster.dsql-fnh4.eu-west-1.on.aws', queries: 100, connectMs: 41.3, medianMs: 0.92, p99Ms: 1.87, minMs: 0.71, maxMs: 2.4 },
  };
  return { 'bench-status.md': `${status}\n`, 'bench-run.md': renderRun(record, 'reports/runs/temporal-150wps-20260121T100003Z.json') };
}

const temporalPreset = (scenario: string) => resolveScenarioOf('temporal', { scenario }, { option: '--scenario', command: 'capacity' });

/** Each example computed once, whichever test asks first (the plan synthesizes two scenarios). */
const once = <T extends string | Promise<string>>(make: () => T) => {
  let text: T | undefined;
  return () => (text ??= make());
};

/** `npm run cost -- <args>` through its own entry point, in process, as a reader runs it: what it prints. */
async function cost(...args: string[]): Promise<string> {
  const r = await runCliInProcess('cost.ts', args);
  if (r.status !== 0) throw new Error(`cost ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** `npm run campaign -- plan <campaign>` through its own entry point: the projection from a fresh start (no record). */
async function campaignPlan(name: string): Promise<string> {
  const r = await runCliInProcess('campaign.ts', ['plan', name, '--out', join(tempDir('campaign-'), name)]);
  if (r.status !== 0) throw new Error(`campaign plan ${name} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

const EXAMPLES: Record<string, () => string | Promise<string>> = {
  'plan-test11-test12.md': once(() => renderPlan(planTransition('test11', 'test12'))),
  // What the commands beside them in the pages print, from the same arguments.
  'cost-temporal-150wps.md': () => cost('--scenario', 'temporal-150wps'),
  'cost-test10.md': () => cost('--scenario', 'test10', '--report', 'docs/report-example/test10/report.json'),
  'campaign-plan-temporal-scaling.md': once(() => campaignPlan('temporal-scaling')),
  'capacity-temporal-150wps.md': () => renderCapacity(capacityReport(temporalPreset('temporal-150wps'), loadPrices('eu-west-1'))),
  'capacity-temporal-800wps.md': () => renderCapacity(capacityReport(temporalPreset('temporal-800wps'), loadPrices('eu-west-1'))),
  'capacity-temporal-1200wps.md': () => renderCapacity(capacityReport(temporalPreset('temporal-1200wps'), loadPrices('eu-west-1'))),
  ...Object.fromEntries(Object.entries(benchExamples()).map(([k, v]) => [k, () => v])),
};

test.each(Object.keys(EXAMPLES))('docs/command-examples/%s is what the command prints', async (name) => {
  expectDocFile(join(DIR, name), await EXAMPLES[name](), name);
}, 30_000);

test('every figure is printed as a person reads it: no float noise such as 25.618181818181817, no NaN, Infinity or undefined', () => {
  for (const name of Object.keys(EXAMPLES)) expect({ name, noise: readFileSync(join(DIR, name), 'utf8').match(/\d\.\d{8,}|\bNaN\b|\bundefined\b|Infinity/g) }).toEqual({ name, noise: null });
});

test("every table row the commands' pages quote from a command example is in that example", () => {
  const examples = Object.keys(EXAMPLES).map((n) => readFileSync(join(DIR, n), 'utf8')).join('\n');
  // The commands' own sections (the command and exit-code tables above them are not examples).
  const commands = page('docs/commands.md');
  const sections = [commands.slice(commands.indexOf('## bench: run the benchmark')), section(page('docs/cost-and-capacity.md'), '## cost: what a scenario costs per day'), section(page('docs/cost-and-capacity.md'), '## capacity: how full the pools are')];
  const quoted = sections.join('\n').split('\n').filter((l) => l.startsWith('| '));
  expect(quoted.length).toBeGreaterThanOrEqual(15);
  for (const line of quoted) expect(examples).toContain(line);
});

test('every markdown block the manual quotes from a command example is in that example, whole', () => {
  const examples = Object.keys(EXAMPLES).map((n) => readFileSync(join(DIR, n), 'utf8'));
  const blocks = [...MANUAL.matchAll(/```markdown\n([\s\S]*?)```/g)].map((m) => m[1]);
  expect(blocks.length).toBeGreaterThan(0);
  for (const block of blocks) expect(examples.some((e) => e.includes(block)) ? "quoted whole" : `not in any example:\n${block}`).toBe("quoted whole");
});

test("the README's first-screen cost table is what `npm run cost` gives for each scenario, running and hibernated", () => {
  const table = README.slice(README.indexOf('| Scenario | Running, per day |'), README.indexOf('One Temporal experiment'));
  const rows = [...table.matchAll(/^\| `([a-z0-9-]+)`[^|]*\| (\$[\d,.]+) \| (\$[\d,.]+) \|$/gm)].map((m) => [m[1], m[2], m[3]]);
  expect(rows.length).toBeGreaterThanOrEqual(4);
  for (const [name, running, hibernated] of rows) {
    const scenario = resolveScenario({ scenario: name });
    const md = renderCost(costOf(scenario, loadPrices(scenario.env.region)));
    const total = /\| \*\*Total\*\* \| \*\*(\$[\d,.]+)\*\* \|/.exec(md)![1];
    const asleep = /^\| (?:Hibernated|Stopped \(hibernated\)) \| (\$[\d,.]+) \|/m.exec(md)![1];
    expect(`${name} ${running} ${hibernated}`).toBe(`${name} ${total} ${asleep}`);
  }
});

describe("figures the pages state in prose are what cost prints for the scenario beside them", () => {
  const estimate = (name: string) => {
    const scenario = resolveScenario({ scenario: name });
    return costOf(scenario, loadPrices(scenario.env.region));
  };
  const variant = (e: ReturnType<typeof estimate>, label: string) => e.variants.find((v) => v.label === label)!.total;
  const perMillion = (name: string) => usd(estimate(name).perMillionWorkflows!.usd);
  /** A page's text with its line breaks as spaces: a sentence may wrap anywhere. */
  const prose = (path: string) => page(path).replace(/\s+/g, ' ');

  test('docs/cost-and-capacity.md: temporal-150wps running, parked and idle, and temporal-aurora-150wps', () => {
    const e = estimate('temporal-150wps');
    expect(prose('docs/cost-and-capacity.md')).toContain(
      `${usd(e.total)} with the benchmark fleet running all day under the seed's load (${usd(e.perMillionWorkflows!.usd)} per million workflows), ` +
        `${usd(variant(e, 'Benchmark fleet parked'))} with the fleet parked, and ${usd(variant(e, 'Parked and idle'))} with the cluster idle.`,
    );
    const aurora = estimate('temporal-aurora-150wps');
    const writer = aurora.sections.flatMap((s) => s.lines).find((l) => l.cells[0] === 'Writer')!;
    const dsql = e.sections.find((s) => s.category === 'Aurora DSQL')!;
    expect(prose('docs/cost-and-capacity.md')).toContain(
      `\`temporal-aurora-150wps\` (\`--scenario temporal-aurora-150wps\`) is ${usd(aurora.total)} a day: its db.r7g.2xlarge writer bills ${usd(writer.usdPerDay)} a day by the hour, ` +
        `load or not (Aurora I/O is not estimated), where DSQL's lines under the seed's load come to ${usd(dsql.subtotal)}.`,
    );
  });

  test("docs/cost-and-capacity.md: the idle states' table, running, parked and hibernated", () => {
    const [t, f] = [estimate('temporal-150wps'), estimate('test12')];
    const rows = [
      `| running | \`npx cdk deploy\`, \`npm run wake\` | ${usd(t.total)} | ${usd(f.total)} |`,
      `| fleet parked | \`npm run bench -- down\`, or the idle rule | ${usd(variant(t, 'Benchmark fleet parked'))} | (no fleet) |`,
      `| hibernated (FOLIO: stopped) | \`npm run hibernate\` | ${usd(variant(t, 'Hibernated'))} | ${usd(variant(f, 'Stopped (hibernated)'))} and Aurora storage |`,
    ];
    for (const row of rows) expect(page('docs/cost-and-capacity.md').split('\n')).toContain(row);
  });

  test("docs/temporal.md: the larger presets' connections and vCPUs, as the capacity model counts them", () => {
    const headroom = (name: string, edit: (p: TemporalScenario['preset']) => TemporalScenario['preset'] = (p) => p) => {
      const s = temporalPreset(name);
      return temporalHeadroom(s.environment, edit(s.preset));
    };
    const n = (v: number) => v.toLocaleString('en-US');
    const [h400, h800, h1200, h2000] = ['temporal-400wps', 'temporal-800wps', 'temporal-1200wps', 'temporal-2000wps'].map((p) => headroom(p));
    // At the environment's 150% (the preset's own deployment left out), what a rolling deploy of history would add.
    const at150 = headroom('temporal-800wps', (p) => ({ ...p, deployment: undefined })).connections!.rolling;
    const text = prose('docs/temporal.md');
    for (const said of [
      `(${n(h800.connections!.steady.used)} of DSQL's ${n(h800.connections!.steady.limit)})`,
      `open ${n(at150.extra)} more connections (${n(at150.used)} in all)`,
      `the capacity model's bound of ${n(h1200.connections!.steady.used)} covers`,
      `(${h2000.vcpus.used} of the ${h2000.vcpus.limit}-vCPU quota)`,
      `(${n(h400.connections!.steady.used)} connections)`,
    ])
      expect(text.includes(said) ? said : `docs/temporal.md does not say: ${said}`).toBe(said);
  });

  test('docs/temporal.md: hibernated against running, and the cost per million of the larger presets', () => {
    const e = estimate('temporal-150wps');
    expect(prose('docs/temporal.md')).toContain(
      `A hibernated environment costs ${usd(variant(e, 'Hibernated'))} a day instead of ${usd(e.total)} (\`npm run cost -- --scenario temporal-150wps\`)`,
    );
    expect(prose('docs/temporal.md')).toContain(
      `puts it at ${perMillion('temporal-2000wps')} per million workflows, against ${perMillion('temporal-800wps')} for \`temporal-800wps\` and ${perMillion('temporal-1200wps')} for \`temporal-1200wps\``,
    );
  });
});
