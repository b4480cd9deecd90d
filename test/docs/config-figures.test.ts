import { resolveScenario, type FolioScenario, type TemporalScenario } from '../../config';
import type { FolioFigure, FolioProposalRule } from '../../config/observability-schema';
import { loadPrices } from '../../config/prices';
import { costOf } from '../../lib/families';
import { percent } from '../../lib/commands/shared/figure';
import { ladderRates } from '../../config/bench-load';
import { usd } from '../../lib/commands/shared/money';
import { page } from '../support/manual';

/*
 * The figures the pages take from config (the report's rules and alarms, the ladder's, the schema
 * mover's size and timeouts) are config's: each is written here from config's value, so a value
 * changed in config fails until the page says the new one.
 */

const reports = page('docs/reports.md');
/** The page's text with its line breaks as spaces: a sentence may wrap anywhere. */
const prose = reports.replace(/\s+/g, ' ');
const test10 = resolveScenario({ scenario: 'test10' }) as FolioScenario;
const folio = test10.environment.observability;
const temporal = (resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario).environment.observability;

const share = (v: number) => percent(v * 100);
const op = (c: { above?: number }) => (c.above !== undefined ? 'above' : 'under');

/** Each FOLIO figure as the rules table words it, with its threshold in its own unit. */
const FIGURE: Record<FolioFigure, (c: { above?: number; below?: number }, v: number) => string> = {
  offloadIoWaitShare: (c, v) => `I/O waits ${op(c)} ${share(v)} of the offload writer's load`,
  offloadCpuPeakPercent: (c, v) => `the offload writer's peak CPU ${op(c)} ${v}%`,
  primaryCpuPeakPercent: (c, v) => `the provisioned writer's peak CPU ${op(c)} ${v}%`,
  acuShareOfWindowAtCeiling: (c, v) => `${c.above !== undefined ? 'more' : 'less'} than ${share(v)} of the window at the Serverless ceiling`,
  acuPeakShareOfMax: (c, v) => `the Serverless peak ${op(c)} ${share(v)} of its ceiling`,
  acuPeakOverMin: (c, v) => `the peak ${op(c)} ${v} times the floor`,
};

function proposes(p: FolioProposalRule['propose']): string {
  switch (p.kind) {
    case 'none':
      return 'nothing to deploy: more ACU will not help';
    case 'writer-size':
      return `the writer ${['one', 'two', 'three'][Math.abs(p.steps) - 1]} size${Math.abs(p.steps) > 1 ? 's' : ''} ${p.steps < 0 ? 'down' : 'up'}`;
    case 'acu-max-times':
      return `the ceiling × ${p.factor}`;
    case 'acu-max-to-peak':
      return `the ceiling cut to the power of two at or above ${p.headroom} × the peak`;
    case 'acu-min-share-of-peak':
      return `the floor raised to ${share(p.share)} of the peak`;
    case 'route-next-module':
      return 'the next routable module moved';
  }
}

test("the FOLIO proposal rules' table is config's rules, in config's order, with config's thresholds", () => {
  const rows = reports.split('\n').filter((l) => /^\| `[a-z-]+` \|/.test(l) && !l.includes('Alarm'));
  const expected = folio.proposals.rules.map(
    (r) => `| \`${r.id}\` | ${r.when.map((c) => FIGURE[c.figure](c, (c.above ?? c.below)!)).join(', ')} | ${proposes(r.propose)} |`,
  );
  expect(rows.map((r) => r.slice(0, r.lastIndexOf(' |', r.length - 3) + 2))).toEqual(expected);
});

test("the proposals' minimum window and coverage are config's", () => {
  expect(prose).toContain(`a window under \`minimumMinutes\` (${folio.proposals.minimumMinutes}), a series with under \`minimumCoverage\` (${share(folio.proposals.minimumCoverage)}) of its points`);
});

test("the alarms' table states config's thresholds", () => {
  const f = folio.alarms;
  const t = temporal.alarms;
  for (const row of [
    `| \`ServerlessAtCeiling\` | (a Serverless v2 offload cluster only) its capacity stays at or above ${f.serverlessAtCeiling.percentOfMax}% of the phase's max ACU for ${f.serverlessAtCeiling.minutes} minutes`,
    `| \`PrimaryCpuHigh\`, \`OffloadCpuHigh\` | a writer's CPU stays at or above ${f.cpuHigh.percent}% for ${f.cpuHigh.minutes} minutes |`,
    `| \`OccConflicts\` | DSQL aborts more than ${t.occConflicts.perMinute} transactions a minute on OCC conflicts, ${t.occConflicts.minutes} minutes running |`,
    `| \`<Service>CpuHigh\` | a Temporal or benchmark service's CPU stays at or above ${t.cpuHigh.percent}% for ${t.cpuHigh.minutes} minutes |`,
    `| \`<Service>TasksBelowDesired\` | a service runs fewer tasks than desired for ${t.tasksBelowDesired.minutes} minutes |`,
    `| \`LimiterThrottled\` | the connection rate limiter's table throttles ${t.limiterThrottles.perMinute === 1 ? 'writes' : `more than ${t.limiterThrottles.perMinute} writes a minute`} for ${t.limiterThrottles.minutes} minutes |`,
  ])
    expect(reports).toContain(row);
});

test("the bottleneck rules the page gives as examples are config's", () => {
  const rule = (figure: string) => temporal.bottlenecks.find((b) => b.when.figure === figure)!;
  const workers = rule('workerScheduleToStartP50Ms');
  const matching = rule('matchingBacklogPeak');
  const slots = (r: typeof workers) => r.and.find((c) => c.figure === 'workerSlotsFreeLowestShare')!;
  expect(prose).toContain(
    `schedule-to-start P50 above ${workers.when.above} ms *with under ${share(slots(workers).below!)} of the worker slots free* is the workers`,
  );
  expect(prose).toContain(
    `a backlog above ${matching.when.above!.toLocaleString('en-US')} *with more than ${share(slots(matching).above!)} of the slots free* is matching`,
  );
});

test("the ladder's rules the pages state are config's", () => {
  const l = temporal.ladder;
  const commands = page('docs/commands.md').replace(/\s+/g, ' ');
  expect(commands).toContain(`at most \`observability.ladder.maxSteps\` (${l.maxSteps}) of them`);
  expect(commands).toContain(`(default \`observability.ladder.step\`, ${l.step})`);
  expect(commands).toContain(`at least \`completedShareMin\` (${share(l.held.completedShareMin)}) of the workflows it offered completed`);
  expect(commands).toContain(`at or under \`p99MaxMs\` (${l.held.p99MaxMs.toLocaleString('en-US')} ms`);
  expect(commands).toContain(`by more than \`openGrowthShareMax\` (${share(l.held.openGrowthShareMax)}) of the starts in it`);
  expect(page('docs/local-cluster.md').replace(/\s+/g, ' ')).toContain(
    `(at least ${share(l.held.completedShareMin)} of what it offered completed, P99 at or under ${l.held.p99MaxMs.toLocaleString('en-US')} ms, ` +
      `the open workflows not growing by more than ${share(l.held.openGrowthShareMax)} of the second half's starts)`,
  );
});

test("the schema mover's size, timeouts and endpoints' cost on docs/folio.md are config's and cost's", () => {
  const text = page('docs/folio.md').replace(/\s+/g, ' ');
  const { mover, routing } = test10.environment;
  const seconds = (d: string) => `${Number.parseInt(d, 10)} s`;
  const endpoints = costOf(test10, loadPrices(test10.env.region))
    .sections.flatMap((x) => x.lines)
    .find((l) => l.cells[0] === 'VPC endpoints (schema mover)')!;
  for (const phrase of [
    `(Arm, ${mover.vcpu} vCPU, ${mover.memoryGiB} GiB, from \`mover\` in config)`,
    `about ${usd(endpoints.usdPerDay)}/day)`,
    `one batch of schemas per vCPU at once (${mover.vcpu})`,
    `after \`lockTimeout\` (${seconds(mover.lockTimeout)},`,
    `The records' TTL is ${routing.ttlSeconds} s`,
    `the ${routing.ttlSeconds} s TTL`,
    `\`sourceGrace\` (${seconds(routing.sourceGrace)})`,
    `\`switchTimeout\` (${seconds(routing.switchTimeout)})`,
  ])
    expect(text).toContain(phrase);
});

test("the README's walk-through states the preset's run, ladder and hibernated day", () => {
  const readme = page('README.md');
  const preset = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
  const b = preset.preset.benchmark;
  const minutes = Number.parseInt(b.duration, 10) * ({ s: 1 / 60, m: 1, h: 60 } as Record<string, number>)[b.duration.slice(-1)];
  expect(readme).toContain(`# the load: ${minutes} minutes at ${b.targetRate} workflows/s`);
  const rates = ladderRates({ from: b.targetRate, maxSteps: temporal.ladder.maxSteps });
  expect(readme).toContain(`# ${rates.slice(0, 3).join(', ')}, ... until a rate does not hold`);
  const hibernated = costOf(preset, loadPrices(preset.env.region)).variants.find((v) => v.label === 'Hibernated')!.total;
  expect(readme).toContain(`# between experiments: $${Math.round(hibernated)} a day, data kept`);
});

test("what a retained OpenSearch domain keeps costing, on docs/temporal.md, is cost's OpenSearch line", () => {
  const preset = resolveScenario({ scenario: 'temporal-150wps' });
  const section = costOf(preset, loadPrices(preset.env.region)).sections.find((x) => x.category === 'OpenSearch')!;
  expect(page('docs/temporal.md').replace(/\s+/g, ' ')).toContain(
    `the domain keeps costing ${usd(section.subtotal)} a day (its "OpenSearch" line in \`npm run cost -- --scenario temporal-150wps\`)`,
  );
});

test("what a preset costs against Temporal Cloud, on docs/cost-and-capacity.md, is cost's comparison", () => {
  const scenario = resolveScenario({ scenario: 'temporal-800wps' });
  const [row] = costOf(scenario, loadPrices(scenario.env.region)).comparisons![0].rows;
  const [, actions, month, perMillion, cloud, breakEven] = row;
  const text = page('docs/cost-and-capacity.md').replace(/\s+/g, ' ');
  expect(text).toContain(
    `puts the preset's month at ${month} for ${actions.split(' ')[0]} actions (${perMillion} per million actions), where Temporal Cloud's list price for them would be ${cloud.split(' ')[0]}; the two cost the same at ${breakEven.split(' ')[0]} workflows/s.`,
  );
});
