import { resolveScenario, type FolioScenario, type TemporalScenario } from '../../../../../config';
import { loadPrices } from '../../../../../config/prices';
import { folioCost } from '../../../../../lib/folio/commands/cost/folio-cost';
import { temporalCost } from '../../../../../lib/temporal/commands/cost/temporal-cost';
import { renderCost } from '../../../../../lib/commands/shared/render-cost';
import { editedCatalog } from '../../../../../harness/catalog';

/* A Temporal preset's daily cost against seed 000's "Daily Cost Estimate". */

const temporal = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
const eu = loadPrices('eu-west-1');
const us = loadPrices('us-east-1');
const SEED_TOTAL = 242.13;

const lineOf = (e: ReturnType<typeof temporalCost>, section: string, item: string) =>
  e.sections.find((s) => s.title === section)!.lines.find((l) => l.cells[0] === item)!;

describe("temporal-150wps with the seed's inputs", () => {
  const e = temporalCost(temporal, eu);

  // The seed's instances ran without detailed monitoring, which this stack turns on (CT.EC2.PR.10).
  const monitoring = () => lineOf(e, 'CloudWatch', 'EC2 detailed monitoring').usdPerDay;
  // Nor had it a live dashboard reading Prometheus.
  const dashboard = () => lineOf(e, 'Amazon Managed Prometheus', 'Live Dashboard Queries').usdPerDay;

  test('reproduces the daily total within 2%, but for the detailed monitoring and the live dashboard the seed did without', () => {
    expect(Math.abs(e.total - monitoring() - dashboard() - SEED_TOTAL) / SEED_TOTAL).toBeLessThan(0.02);
    expect(e.total).toBeCloseTo(250.71, 2);
  });

  test("the live dashboard's queries: the measured samples per server task and minute, over its 30 minutes, at every refresh of 8 hours a day", () => {
    // 81,964 / 4 samples a task-minute × 20 server tasks × 30 min = 12.3M a refresh; 8 h every 10 s = 2,880 refreshes; $0.10 a billion.
    const perRefresh = (81_964 / 4) * 20 * 30;
    expect(lineOf(e, 'Amazon Managed Prometheus', 'Live Dashboard Queries').cells).toEqual([
      'Live Dashboard Queries',
      '8 h/day open, every 10s: 12M samples a refresh (20 server tasks, 30 min)',
      '$0.10/billion',
      '$3.54',
    ]);
    expect(dashboard()).toBeCloseTo(((perRefresh * 2880) / 1e9) * 0.1, 6);
    // Amazon Managed Grafana, the alternative, by the user.
    expect(e.notes.join('\n')).toContain(
      'Amazon Managed Grafana would add $9.00 per active editor-month ($0.30/day each) or $5.00 per viewer-month ($0.16/day)',
    );
    // A preset without Grafana has no such line, nor a hibernated cluster (no one watches it).
    const off = temporalCost(resolveScenario({ scenario: 'temporal-100wps' }) as TemporalScenario, eu);
    expect(off.sections.flatMap((x) => x.lines.map((l) => l.cells[0]))).not.toContain('Live Dashboard Queries');
  });

  test("reproduces the seed's lines where the seed's arithmetic holds", () => {
    expect(lineOf(e, 'Compute (EC2)', 'Main ASG').cells).toEqual(['Main ASG', '10', 'm7g.2xlarge', '$0.3638/hr', '$87.31']);
    expect(lineOf(e, 'Compute (EC2)', 'Benchmark ASG').cells).toEqual(['Benchmark ASG', '4', 'm7g.2xlarge', '$0.3638/hr', '$34.92']);
    expect(lineOf(e, 'Aurora DSQL', 'DPU (estimated)').cells).toEqual(['DPU (estimated)', '10,000,000 DPU/day', '$0.0000095/DPU', '$95.00']);
    expect(lineOf(e, 'Aurora DSQL', 'Storage').usdPerDay).toBeCloseTo(0.12, 2);
    expect(lineOf(e, 'OpenSearch (Visibility)', 'Data Nodes').cells.at(-1)).toBe('$10.30');
    expect(lineOf(e, 'CloudWatch', 'Log Ingestion').cells.at(-1)).toBe('$5.70');
    expect(lineOf(e, 'CloudWatch', 'Log Storage').cells.at(-1)).toBe('$0.05');
    expect(lineOf(e, 'Amazon Managed Prometheus', 'Metric Samples').cells.at(-1)).toBe('$0.30');
    expect(lineOf(e, 'Other AWS Services', 'DynamoDB (rate limiter)').cells.at(-1)).toBe('$0.01');
  });

  test("where it differs from the seed, it is the seed's arithmetic or a line the seed leaves out", () => {
    // 500 metrics × $0.30 per metric-month is $150 a month: $4.93 a day, where the seed wrote $0.50.
    expect(lineOf(e, 'CloudWatch', 'Metrics').usdPerDay).toBeCloseTo((500 * 0.3 * 24) / 730, 6);
    // Lines the seed has no row for: the domain's gp3 volumes, the dashboard and alarms.
    expect(lineOf(e, 'OpenSearch (Visibility)', 'Storage (gp3)').cells.slice(0, 3)).toEqual(['Storage (gp3)', '150 GB', '3 × 50 GiB']);
    expect(lineOf(e, 'CloudWatch', 'Dashboard and alarms').cells[1]).toBe('1 dashboard, 12 alarms, 3 idle-rule alarm metrics');
    // Detailed monitoring: 7 metrics on each of 14 instances (10 main, 4 benchmark) at $0.30 per metric-month.
    expect(lineOf(e, 'CloudWatch', 'EC2 detailed monitoring').cells[1]).toBe('14 instances × 7 metrics');
    expect(monitoring()).toBeCloseTo((14 * 7 * 0.3 * 24) / 730, 6);
    // This stack's network: 1 NAT gateway, 6 interface endpoints in 3 zones.
    expect(lineOf(e, 'Other AWS Services', 'NAT Gateway').usdPerDay).toBeCloseTo(0.048 * 24, 6);
    expect(lineOf(e, 'Other AWS Services', 'VPC Endpoints').cells[1]).toBe('6 interface × 3 AZs');
    // And the DSQL PrivateLink endpoint, where the seed went through NAT.
    expect(lineOf(e, 'Other AWS Services', 'Aurora DSQL endpoint (PrivateLink)').usdPerDay).toBeCloseTo(3 * 0.011 * 24, 6);
  });

  test('the public path has no DSQL endpoint line; both paths say where PrivateLink becomes the cheaper one', () => {
    const publicPath = resolveScenario(
      { scenario: 'temporal-150wps' },
      editedCatalog((c) => (c.temporal.environment.persistence.network = 'public')),
    ) as TemporalScenario;
    const p = temporalCost(publicPath, eu);
    expect(p.sections.flatMap((s) => s.lines.map((l) => l.cells[0]))).not.toContain('Aurora DSQL endpoint (PrivateLink)');
    expect(e.total - p.total).toBeCloseTo(3 * 0.011 * 24, 6);
    // $0.792/day of endpoint hours over the $0.038/GB PrivateLink saves against NAT: 20.8 GB/day.
    const breakEven = 'PrivateLink is the cheaper path above 20.8 GB/day of DSQL traffic (0.24 MB/s)';
    expect(p.notes.join('\n')).toContain(breakEven);
    expect(e.notes.join('\n')).toContain(breakEven);
    expect(p.notes.join('\n')).toContain('This environment uses the public path (NAT)');
    expect(e.notes.join('\n')).toContain('This environment uses PrivateLink');
  });

  test('shows the saving of a parked benchmark fleet, and of an idle one', () => {
    const [parked, idle] = e.variants;
    expect(parked).toMatchObject({ label: 'Benchmark fleet parked' });
    // The fleet's 4 instances: their hours and their detailed monitoring.
    const fleet = 4 * 0.3638 * 24 + (4 * 7 * 0.3 * 24) / 730;
    expect(parked.delta).toBeCloseTo(-fleet, 6);
    expect(idle.delta).toBeCloseTo(-fleet - 95, 6);
  });

  test('renders in the shape of the seed table', () => {
    const md = renderCost(e);
    expect(md).toMatch(/^## Daily Cost Estimate \(24-hour day, eu-west-1\)\n/);
    for (const h of [
      '### Compute (EC2)',
      '### Aurora DSQL',
      '### OpenSearch (Visibility)',
      '### CloudWatch',
      '### Amazon Managed Prometheus',
      '### Other AWS Services',
      '### Total Daily Cost Summary',
    ])
      expect(md).toContain(`\n${h}\n`);
    expect(md).toContain('| **Subtotal** |  |  |  | **$122.24** |');
    expect(md).toContain('| **Total** | **$250.71** |');
    expect(md).toContain('| Benchmark fleet parked | $215.51 | -$35.20 |');
  });
});

describe('cost per million workflows', () => {
  test("temporal-150wps: the day's total over the workflows of a day at the recorded 136.74/s, near the seed's ~$20.5", () => {
    const m = temporalCost(temporal, eu).perMillionWorkflows!;
    expect(m).toMatchObject({ workflowsPerSecond: 136.74, basis: 'recorded' });
    expect(m.workflowsPerDay).toBeCloseTo(136.74 * 86_400, 6);
    expect(m.usd).toBeCloseTo(temporalCost(temporal, eu).total / 11.814336, 6);
    // The seed: $242.13 a day at about 137 workflows/s is about $20.5 per million (without the
    // detailed monitoring and the live dashboard it did not have).
    const e = temporalCost(temporal, eu);
    const extra = lineOf(e, 'CloudWatch', 'EC2 detailed monitoring').usdPerDay + lineOf(e, 'Amazon Managed Prometheus', 'Live Dashboard Queries').usdPerDay;
    expect(Math.abs(m.usd - extra / 11.814336 - 20.5) / 20.5).toBeLessThan(0.02);
    expect(renderCost(temporalCost(temporal, eu))).toContain('| 136.74 (recorded) | 11.81M | **$21.22** |');
  });

  test('a preset with no recorded run counts at its target rate; fewer hours under load, fewer workflows a day', () => {
    const s = resolveScenario({ scenario: 'temporal-50wps' }) as TemporalScenario;
    expect(temporalCost(s, eu).perMillionWorkflows).toMatchObject({ workflowsPerSecond: 50, basis: 'target', workflowsPerDay: 50 * 86_400 });
    expect(temporalCost(s, eu, { assumptions: { loadHoursPerDay: 6 } }).perMillionWorkflows!.workflowsPerDay).toBe(50 * 6 * 3600);
  });

  test('no load hours: no workflow runs, so no cost per million (not $Infinity), and the estimate says why', () => {
    const e = temporalCost(resolveScenario({ scenario: 'temporal-50wps' }) as TemporalScenario, eu, { assumptions: { loadHoursPerDay: 0 } });
    expect(e.perMillionWorkflows).toBeUndefined();
    expect(e.notes).toContain('No load hours a day: no workflow runs, so there is no cost per million workflows.');
    expect(renderCost(e)).not.toMatch(/Infinity|NaN|Cost per Million/);
  });

  test('a FOLIO phase has none: it runs no workflows', () => {
    expect(folioCost(resolveScenario({ scenario: 'test10' }) as FolioScenario, us).perMillionWorkflows).toBeUndefined();
  });
});

describe('Temporal inputs', () => {
  test('DPUs follow the transaction rate and the hours under load', () => {
    const half = temporalCost(temporal, eu, { transactionsPerSecond: 272_000 / 120 });
    expect(lineOf(half, 'Aurora DSQL', 'DPU (estimated)').usdPerDay).toBeCloseTo(47.5, 6);
    const twoHours = temporalCost(temporal, eu, { assumptions: { loadHoursPerDay: 2 } });
    expect(lineOf(twoHours, 'Aurora DSQL', 'DPU (estimated)').usdPerDay).toBeCloseTo(95 / 12, 6);
  });

  test("a preset with no recorded run takes its target rate × the seed's transactions per workflow", () => {
    const s = resolveScenario({ scenario: 'temporal-100wps' }) as TemporalScenario;
    const e = temporalCost(s, eu);
    expect(e.notes[0]).toMatch(/^DSQL load: 100 workflows\/s × 33\.2 transactions per workflow/);
    expect(lineOf(e, 'Aurora DSQL', 'DPU (estimated)').usdPerDay).toBeCloseTo((95 * 100) / 136.74, 6);
  });
});

describe('hibernated and the budget', () => {
  test('Temporal hibernated: every instance hour, log ingestion, published metric, scrape and limiter write gone; storage and the network left', () => {
    const e = temporalCost(temporal, eu);
    const hibernated = e.variants.find((v) => v.label === 'Hibernated')!;
    const kept =
      lineOf(e, 'Aurora DSQL', 'Storage').usdPerDay +
      lineOf(e, 'OpenSearch (Visibility)', 'Data Nodes').usdPerDay +
      lineOf(e, 'OpenSearch (Visibility)', 'Storage (gp3)').usdPerDay +
      lineOf(e, 'CloudWatch', 'Log Storage').usdPerDay +
      lineOf(e, 'CloudWatch', 'Dashboard and alarms').usdPerDay +
      lineOf(e, 'Amazon Managed Prometheus', 'Storage').usdPerDay +
      lineOf(e, 'Other AWS Services', 'NAT Gateway').usdPerDay +
      lineOf(e, 'Other AWS Services', 'VPC Endpoints').usdPerDay +
      lineOf(e, 'Other AWS Services', 'Aurora DSQL endpoint (PrivateLink)').usdPerDay;
    expect(hibernated.total).toBeCloseTo(kept, 6);
    expect(hibernated.total).toBeLessThan(0.1 * e.total);
  });

  test("the Aurora store is stopped with the rest: its writer's hours go, its storage and secret stay, and the note says so", () => {
    const e = temporalCost(resolveScenario({ scenario: 'temporal-aurora-150wps' }) as TemporalScenario, eu);
    const hibernated = e.variants.find((v) => v.label === 'Hibernated')!;
    expect(hibernated.note).toMatch(
      /the Aurora store is stopped too \(its storage and secret stay; Aurora starts it after 7 days, and the idle rule stops it again\)$/,
    );
    const kept = [
      ['Aurora PostgreSQL (history store)', 'Storage (Standard)'],
      ['Aurora PostgreSQL (history store)', 'Secrets Manager'],
      ['OpenSearch (Visibility)', 'Data Nodes'],
      ['OpenSearch (Visibility)', 'Storage (gp3)'],
      ['CloudWatch', 'Log Storage'],
      ['CloudWatch', 'Dashboard and alarms'],
      ['Amazon Managed Prometheus', 'Storage'],
      ['Other AWS Services', 'NAT Gateway'],
      ['Other AWS Services', 'VPC Endpoints'],
    ].reduce((n, [section, item]) => n + lineOf(e, section, item).usdPerDay, 0);
    expect(hibernated.total).toBeCloseTo(kept, 6);
  });

  test("the budget against a day running and a day hibernated, from the environment's config", () => {
    expect(temporalCost(temporal, eu).notes.at(-1)).toBe(
      'Budget (config, AWS Budgets, no charge without budget actions): $300.00 a day and $9,000.00 a month forecast; a day running ($250.71) is within it; a day hibernated, $18.03.',
    );
    const big = temporalCost(resolveScenario({ scenario: 'temporal-800wps' }) as TemporalScenario, eu);
    expect(big.notes.at(-1)).toMatch(/a day running \(\$978\.13\) passes it: the alarm topic is told on such a day/);
  });
});

describe('temporal-aurora-150wps: the same sizing, priced with its store', () => {
  const aurora = resolveScenario({ scenario: 'temporal-aurora-150wps' }) as TemporalScenario;
  const a = temporalCost(aurora, eu);
  const d = temporalCost(temporal, eu);
  const names = (x: ReturnType<typeof temporalCost>) => x.sections.flatMap((s) => s.lines.map((l) => l.cells[0]));

  test('the writer by the hour, its storage and secret; no DPUs, no limiter table, no DSQL endpoint', () => {
    const hourly = eu.prices['rds:db.r7g.2xlarge'].usd;
    expect(lineOf(a, 'Aurora PostgreSQL (history store)', 'Writer').cells).toEqual([
      'Writer',
      '1 × db.r7g.2xlarge',
      `$${hourly}/hr`,
      `$${(hourly * 24).toFixed(2)}`,
    ]);
    expect(lineOf(a, 'Aurora PostgreSQL (history store)', 'Storage (Standard)').usdPerDay).toBeCloseTo((10 * 0.11 * 24) / 730, 6);
    expect(names(a)).not.toEqual(expect.arrayContaining(['DPU (estimated)']));
    expect(names(a)).not.toContain('DynamoDB (rate limiter)');
    expect(names(a)).not.toContain('Aurora DSQL endpoint (PrivateLink)');
    expect(a.notes.join('\n')).toContain('Aurora I/O (Standard storage bills each I/O request) is not estimated');
  });

  test("every other section is the DSQL preset's, line for line", () => {
    for (const title of ['Compute (EC2)', 'OpenSearch (Visibility)', 'Amazon Managed Prometheus'])
      expect(a.sections.find((s) => s.title === title)).toEqual(d.sections.find((s) => s.title === title));
    // Other services: the DSQL endpoint's hours and the limiter table's writes are the difference.
    const other = (x: ReturnType<typeof temporalCost>) => x.sections.find((s) => s.title === 'Other AWS Services')!.subtotal;
    expect(other(d) - other(a)).toBeCloseTo(3 * 0.011 * 24 + lineOf(d, 'Other AWS Services', 'DynamoDB (rate limiter)').usdPerDay, 6);
  });

  test('a provisioned writer bills the same idle: parked and idle equals parked', () => {
    const [parked, idle] = a.variants;
    expect(idle.total).toBeCloseTo(parked.total, 6);
    expect(idle.note).toContain('a provisioned Aurora writer bills by the hour');
  });

  test('Serverless v2: the total counts the ceiling under load; idle drops to the floor', () => {
    const serverless = resolveScenario(
      { scenario: 'temporal-aurora-150wps' },
      editedCatalog((c) => (c.temporal.scenarios.find((s: any) => s.name === 'temporal-aurora-150wps').store.writer = { serverlessAcu: { min: 2, max: 32 } })),
    ) as TemporalScenario;
    const s = temporalCost(serverless, eu);
    const store = s.sections.find((x) => x.title === 'Aurora PostgreSQL (history store)')!;
    const acu = eu.prices['rds:serverless-v2-acu'].usd;
    expect(store.subtotalLabel).toBe('Subtotal (writer at the ceiling)');
    expect(store.subtotal).toBeCloseTo(32 * acu * 24 + (10 * 0.11 * 24) / 730 + (0.4 * 24) / 730, 6);
    const [parked, idle] = s.variants;
    expect(parked.total - idle.total).toBeCloseTo((32 - 2) * acu * 24, 6);
  });

  test('per million workflows at its target rate (no recorded run yet)', () => {
    expect(a.perMillionWorkflows).toMatchObject({ workflowsPerSecond: 150, basis: 'target', workflowsPerDay: 150 * 86_400 });
    expect(a.perMillionWorkflows!.usd).toBeCloseTo(a.total / 12.96, 6);
  });
});
