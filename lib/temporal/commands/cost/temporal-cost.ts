import { TEMPORAL_ROLES, type TemporalPreset, type TemporalScenario } from '../../../../config';
import { TEMPORAL_COST_ASSUMPTIONS, type TemporalCostAssumptions } from '../../../../config/cost-assumptions';
import { durationSeconds } from '../../../../config/fields';
import type { PriceFile } from '../../../../config/prices';
import { SERVICE_NETWORK_ENDPOINTS } from '../../contract/temporal-endpoints';
import {
  type CostEstimate,
  type CostLine,
  type CostSection,
  type TemporalCostInputs,
  budgetNote,
  count,
  EC2_DETAILED_METRICS,
  idleAlarmMetrics,
  line,
  Pricer,
  section,
  sum,
} from '../../../commands/shared/cost-model';
import { HOURS_PER_DAY, perDayFromMonthly, unitPrice, usd } from '../../../commands/shared/money';
import { DASHBOARD_RANGE_MINUTES } from '../../contract/dashboards';
import { temporalIdleRules } from '../../contract/temporal-idle-rule';
import { temporalCatalog } from '../../contract/temporal-metrics';
import { againstTemporalCloud } from '../shared/temporal-cloud';

/* A Temporal preset's daily cost: the pools, the store (DSQL or Aurora), visibility, the fleet, what it observes. */

type AuroraWriter = Extract<TemporalPreset['store'], { engine: 'aurora-postgresql' }>['writer'];

export function temporalCost(scenario: TemporalScenario, prices: PriceFile, inputs: TemporalCostInputs = {}): CostEstimate {
  const a: TemporalCostAssumptions = { ...TEMPORAL_COST_ASSUMPTIONS, ...inputs.assumptions };
  const p = new Pricer(prices);
  const { preset } = scenario;
  const notes: string[] = [];
  const { compute, benchLine, monitoringPerInstance } = computeSection(preset, p);
  const store = preset.store.engine === 'dsql' ? dsqlSection(preset, p, a, inputs, notes) : auroraSection(preset.store.writer, p, a, notes);
  const sections = [
    compute,
    store.section,
    openSearchSection(preset, p),
    cloudWatchSection(scenario, p, a, monitoringPerInstance),
    prometheusSection(scenario, p, a, notes),
    otherSection(scenario, p, a, notes),
  ];
  const total = sum(sections);
  const { main, benchmark } = preset.capacity;
  // A parked fleet has no instances: neither their hours nor their detailed monitoring.
  const parked = total - benchLine.usdPerDay - benchmark.maxInstances * monitoringPerInstance;
  const idle = parked - store.loadOnly;
  const hibernated = idle - (compute.lines[0].usdPerDay + main.instances * monitoringPerInstance) - goneWhenHibernated(sections);
  notes.push(budgetNote(scenario.environment.spending.budget.dailyUsd, total, hibernated, 'hibernated'));
  const workflowsPerSecond = preset.recorded?.achievedWps ?? preset.benchmark.targetRate;
  const workflowsPerDay = workflowsPerSecond * 3600 * a.loadHoursPerDay;
  if (workflowsPerDay === 0) notes.push('No load hours a day: no workflow runs, so there is no cost per million workflows.');
  return {
    scenario: scenario.name,
    region: prices.region,
    title: preset.title,
    sections,
    total,
    // A day without load runs no workflow: a cost per million would be a division by zero.
    ...(workflowsPerDay > 0 && {
      perMillionWorkflows: { workflowsPerSecond, basis: preset.recorded ? 'recorded' : 'target', workflowsPerDay, usd: total / (workflowsPerDay / 1e6) },
      comparisons: [againstTemporalCloud(preset, workflowsPerSecond, a.loadHoursPerDay, total)],
    }),
    variants: variants(preset, total, parked, idle, hibernated),
    pricesAsOf: p.asOf(),
    notes,
  };
}

/** Both pools by the hour; the benchmark pool's line and each instance's detailed monitoring, for the variants. */
function computeSection(preset: TemporalPreset, p: Pricer): { compute: CostSection; benchLine: CostLine; monitoringPerInstance: number } {
  const instanceLine = (label: string, n: number, type: string): CostLine => {
    const hourly = p.usd(`ec2:${type}`);
    return { cells: [label, String(n), type, `${unitPrice(hourly)}/hr`, usd(n * hourly * HOURS_PER_DAY)], usdPerDay: n * hourly * HOURS_PER_DAY };
  };
  const { main, benchmark } = preset.capacity;
  const benchLine = instanceLine('Benchmark ASG', benchmark.maxInstances, benchmark.instanceType);
  const compute = section(
    'EC2 (Compute)',
    'Compute (EC2)',
    ['Resource', 'Count', 'Instance Type', 'Unit Price', '24-hr Cost'],
    [instanceLine('Main ASG', main.instances, main.instanceType), benchLine],
  );
  return { compute, benchLine, monitoringPerInstance: perDayFromMonthly(EC2_DETAILED_METRICS * p.usd('cloudwatch:metric')) };
}

/** The visibility domain: its data nodes and their gp3 volumes. */
function openSearchSection(preset: TemporalPreset, p: Pricer): CostSection {
  const vis = preset.visibility;
  const node = p.usd(`opensearch:${vis.instanceType}`);
  const gp3 = p.usd('opensearch:gp3');
  const storageGb = vis.instances * vis.volumeGiB;
  return section(
    'OpenSearch',
    'OpenSearch (Visibility)',
    ['Resource', 'Count', 'Instance Type', 'Unit Price', '24-hr Cost'],
    [
      {
        cells: ['Data Nodes', String(vis.instances), vis.instanceType, `${unitPrice(node)}/hr`, usd(vis.instances * node * HOURS_PER_DAY)],
        usdPerDay: vis.instances * node * HOURS_PER_DAY,
      },
      {
        cells: [
          'Storage (gp3)',
          `${storageGb} GB`,
          `${vis.instances} × ${vis.volumeGiB} GiB`,
          `${unitPrice(gp3)}/GB-month`,
          usd(perDayFromMonthly(storageGb * gp3)),
        ],
        usdPerDay: perDayFromMonthly(storageGb * gp3),
      },
    ],
  );
}

/** Logs, metrics, both pools' detailed monitoring, the dashboard and the alarms. */
function cloudWatchSection(scenario: TemporalScenario, p: Pricer, a: TemporalCostAssumptions, monitoringPerInstance: number): CostSection {
  const { main, benchmark } = scenario.preset.capacity;
  const instances = main.instances + benchmark.maxInstances;
  const alarms = temporalCatalog(scenario, 'estimate').alarms.length;
  const idleMetrics = idleAlarmMetrics(temporalIdleRules(scenario));
  const cw = {
    ingest: p.usd('cloudwatch:log-ingestion'),
    store: p.usd('cloudwatch:log-storage'),
    metric: p.usd('cloudwatch:metric'),
    dashboard: p.usd('cloudwatch:dashboard'),
    alarm: p.usd('cloudwatch:alarm'),
  };
  return section(
    'CloudWatch',
    'CloudWatch',
    ['Resource', 'Estimate', 'Unit Price', 'Daily Cost'],
    [
      line('Log Ingestion', `${a.logIngestionGbPerDay} GB/day`, `${unitPrice(cw.ingest)}/GB`, a.logIngestionGbPerDay * cw.ingest),
      line('Log Storage', `${a.logStorageGb} GB`, `${unitPrice(cw.store)}/GB-month`, perDayFromMonthly(a.logStorageGb * cw.store)),
      line('Metrics', `${count(a.cloudWatchMetrics)} metrics`, `${unitPrice(cw.metric)}/metric-month`, perDayFromMonthly(a.cloudWatchMetrics * cw.metric)),
      // Both pools launch with detailed monitoring (CT.EC2.PR.10): each instance's 1-minute
      // metrics are billed as custom metrics while it runs.
      line(
        'EC2 detailed monitoring',
        `${instances} instances × ${EC2_DETAILED_METRICS} metrics`,
        `${unitPrice(cw.metric)}/metric-month`,
        instances * monitoringPerInstance,
      ),
      line(
        'Dashboard and alarms',
        `1 dashboard, ${alarms} alarms${idleMetrics ? `, ${idleMetrics} idle-rule alarm metrics` : ''}`,
        `${unitPrice(cw.dashboard)}, ${unitPrice(cw.alarm)}/month`,
        perDayFromMonthly(cw.dashboard + (alarms + idleMetrics) * cw.alarm),
      ),
    ],
  );
}

/** Amazon Managed Prometheus: the samples the servers write, their storage and the live dashboard's reads. */
function prometheusSection(scenario: TemporalScenario, p: Pricer, a: TemporalCostAssumptions, notes: string[]): CostSection {
  const samples = p.usd('prometheus:samples');
  const ampStorage = p.usd('prometheus:storage');
  const dashboard = scenario.preset.dashboards ? dashboardQueries(scenario, p, a, notes) : [];
  return section(
    'Prometheus',
    'Amazon Managed Prometheus',
    ['Resource', 'Estimate', 'Unit Price', 'Daily Cost'],
    [
      line('Metric Samples', `${count(a.prometheusSamplesPerDay / 1e6)}M/day`, `${unitPrice(samples)}/10M`, (a.prometheusSamplesPerDay / 1e7) * samples),
      line('Storage', `${a.prometheusStorageGb} GB`, `${unitPrice(ampStorage)}/GB-month`, perDayFromMonthly(a.prometheusStorageGb * ampStorage)),
      ...dashboard,
    ],
  );
}

/** NAT, the VPC's interface endpoints, DSQL's PrivateLink endpoint and the rate limiter's table; the note on PrivateLink against NAT. */
function otherSection(scenario: TemporalScenario, p: Pricer, a: TemporalCostAssumptions, notes: string[]): CostSection {
  const { preset, environment: env } = scenario;
  const nat = p.usd('vpc:nat-gateway');
  const endpoint = p.usd('vpc:interface-endpoint');
  const endpointHours = SERVICE_NETWORK_ENDPOINTS.length * env.availabilityZones.length;
  const dsqlStore = preset.store.engine === 'dsql';
  const privateLink = dsqlStore && env.persistence.network === 'privatelink';
  const write = p.usd('dynamodb:write-request');
  const privateLinkLine = line(
    'Aurora DSQL endpoint (PrivateLink)',
    `1 interface × ${env.availabilityZones.length} AZs`,
    `${unitPrice(endpoint)}/hr each`,
    env.availabilityZones.length * endpoint * HOURS_PER_DAY,
  );
  notes.push(networkNote(p, dsqlStore, privateLink, privateLinkLine.usdPerDay));
  return section(
    dsqlStore ? 'Other (NAT, VPC, DDB)' : 'Other (NAT, VPC)',
    'Other AWS Services',
    ['Resource', 'Estimate', 'Unit Price', 'Daily Cost'],
    [
      line(
        'NAT Gateway',
        `${env.natGateways} ${env.natGateways === 1 ? 'gateway' : 'gateways'}`,
        `${unitPrice(nat)}/hr`,
        env.natGateways * nat * HOURS_PER_DAY,
      ),
      line(
        'VPC Endpoints',
        `${SERVICE_NETWORK_ENDPOINTS.length} interface × ${env.availabilityZones.length} AZs`,
        `${unitPrice(endpoint)}/hr each`,
        endpointHours * endpoint * HOURS_PER_DAY,
      ),
      ...(privateLink ? [privateLinkLine] : []),
      ...(dsqlStore
        ? [
            line(
              'DynamoDB (rate limiter)',
              `${count(a.rateLimiterWritesPerDay)} writes/day`,
              `${unitPrice(write * 1e6)}/M writes`,
              a.rateLimiterWritesPerDay * write,
            ),
          ]
        : []),
    ],
  );
}

/** PrivateLink against NAT for the DSQL traffic: the endpoint's hours against the cheaper processing. */
function networkNote(p: Pricer, dsqlStore: boolean, privateLink: boolean, endpointPerDay: number): string {
  if (!dsqlStore)
    return 'The Aurora store is in the VPC: its traffic pays neither NAT nor PrivateLink processing. NAT data processing (the ECS control plane) is not estimated.';
  const natGb = p.usd('vpc:nat-processing');
  const linkGb = p.usd('vpc:endpoint-processing');
  const breakEvenGb = endpointPerDay / (natGb - linkGb);
  return (
    `PrivateLink or NAT for the DSQL traffic: the endpoint costs ${usd(endpointPerDay)}/day in hours and processes at ${unitPrice(linkGb)}/GB, NAT at ${unitPrice(natGb)}/GB, ` +
    `so PrivateLink is the cheaper path above ${breakEvenGb.toFixed(1)} GB/day of DSQL traffic (${((breakEvenGb * 1e3) / 86_400).toFixed(2)} MB/s). ` +
    `${privateLink ? 'This environment uses PrivateLink' : 'This environment uses the public path (NAT)'}; neither processing charge is estimated: the volume is not known before a run.`
  );
}

/**
 * Hibernated: no instance at all, so nothing logs, nothing is scraped and nothing connects; what
 * stays is storage (the store, OpenSearch, logs, Prometheus), the network and the dashboard. An
 * Aurora store is stopped too: its writer's hours go (what idle left of them), its storage stays.
 */
function goneWhenHibernated(sections: readonly CostSection[]): number {
  const lineCost = (label: string) => sections.flatMap((x) => x.lines).find((l) => l.cells[0] === label)?.usdPerDay ?? 0;
  const gone = ['Log Ingestion', 'Metrics', 'Metric Samples', DASHBOARD_QUERIES, 'DynamoDB (rate limiter)', 'Writer', 'Writer, at the floor'];
  return gone.reduce((x, label) => x + lineCost(label), 0);
}

/** The day parked, parked and idle, and hibernated, each against the full day. */
function variants(preset: TemporalPreset, total: number, parked: number, idle: number, hibernated: number): CostEstimate['variants'] {
  const { main, benchmark } = preset.capacity;
  const dsqlStore = preset.store.engine === 'dsql';
  return [
    {
      label: 'Benchmark fleet parked',
      total: parked,
      delta: parked - total,
      note: `bench down: the benchmark ASG at 0 instances (${benchmark.maxInstances} × ${benchmark.instanceType}) and their detailed monitoring; every other line as above`,
    },
    {
      label: 'Parked and idle',
      total: idle,
      delta: idle - total,
      note: dsqlStore
        ? "no benchmark load either: DSQL bills its storage only (the DPUs of Temporal's own background work are not modelled)"
        : preset.store.engine === 'aurora-postgresql' && preset.store.writer.serverlessAcu
          ? 'no benchmark load either: the Serverless v2 writer at its floor'
          : 'no benchmark load either: a provisioned Aurora writer bills by the hour, load or not',
    },
    {
      label: 'Hibernated',
      total: hibernated,
      delta: hibernated - total,
      note: `npm run hibernate: no instance in either pool (the main pool's ${main.instances} × ${main.instanceType} too), so no log ingestion, no metrics published, no scraping and no rate-limiter writes; storage, OpenSearch, the network and the dashboard stay${
        dsqlStore ? '' : '; the Aurora store is stopped too (its storage and secret stay; Aurora starts it after 7 days, and the idle rule stops it again)'
      }`,
    },
  ];
}

/** The DSQL store: DPUs for the load, and storage. `loadOnly`: what goes when the load stops. */
function dsqlSection(
  preset: TemporalPreset,
  p: Pricer,
  a: TemporalCostAssumptions,
  inputs: TemporalCostInputs,
  notes: string[],
): { section: CostSection; loadOnly: number } {
  let txPerSecond = inputs.transactionsPerSecond;
  if (txPerSecond === undefined && preset.recorded) {
    txPerSecond = preset.recorded.dsqlTxPerMinute.total / 60;
    notes.push(`DSQL load: the preset's recorded ${count(preset.recorded.dsqlTxPerMinute.total)} transactions/min.`);
  } else if (txPerSecond === undefined) {
    txPerSecond = preset.benchmark.targetRate * a.transactionsPerWorkflow;
    notes.push(
      `DSQL load: ${preset.benchmark.targetRate} workflows/s × ${a.transactionsPerWorkflow.toFixed(1)} transactions per workflow (seed 000's ratio); pass --tx-rate or --report for a measured rate.`,
    );
  } else notes.push(`DSQL load: ${count(txPerSecond)} transactions/s, as given.`);
  const dpu = txPerSecond * 3600 * a.loadHoursPerDay * a.dpuPerTransaction;
  const dpuPrice = p.usd('dsql:dpu');
  const storage = p.usd('dsql:storage');
  const dpuLine = { cells: ['DPU (estimated)', `${count(dpu)} DPU/day`, `${unitPrice(dpuPrice)}/DPU`, usd(dpu * dpuPrice)], usdPerDay: dpu * dpuPrice };
  return {
    section: section(
      'Aurora DSQL',
      'Aurora DSQL',
      ['Metric', 'Value', 'Unit Price', 'Cost'],
      [
        dpuLine,
        {
          cells: ['Storage', `${a.dsqlStorageGb} GB`, `${unitPrice(storage)}/GB-month`, usd(perDayFromMonthly(a.dsqlStorageGb * storage))],
          usdPerDay: perDayFromMonthly(a.dsqlStorageGb * storage),
        },
      ],
      `DPUs: ${count(txPerSecond)} transactions/s × ${a.loadHoursPerDay} h under load × ${a.dpuPerTransaction.toFixed(4)} DPU per transaction.`,
    ),
    loadOnly: dpuLine.usdPerDay,
  };
}

/** The Aurora store: the writer by the hour (a Serverless v2 writer at its floor, the ceiling beside it), storage and its secret. */
function auroraSection(writer: AuroraWriter, p: Pricer, a: TemporalCostAssumptions, notes: string[]): { section: CostSection; loadOnly: number } {
  const storage = p.usd('rds:storage');
  const secret = p.usd('secretsmanager:secret');
  const fixed = [
    line('Storage (Standard)', `${a.auroraStorageGb} GB`, `${unitPrice(storage)}/GB-month`, perDayFromMonthly(a.auroraStorageGb * storage)),
    line('Secrets Manager', '1 secret (master credential)', `${unitPrice(secret)}/secret-month`, perDayFromMonthly(secret)),
  ];
  notes.push('Aurora I/O (Standard storage bills each I/O request) is not estimated: it follows the load and the working set, not the preset.');
  if (writer.instanceClass) {
    const hourly = p.usd(`rds:${writer.instanceClass}`);
    const instance = line('Writer', `1 × ${writer.instanceClass}`, `${unitPrice(hourly)}/hr`, hourly * HOURS_PER_DAY);
    return {
      section: section('Aurora PostgreSQL', 'Aurora PostgreSQL (history store)', ['Resource', 'Estimate', 'Unit Price', 'Daily Cost'], [instance, ...fixed]),
      loadOnly: 0,
    };
  }
  const acu = p.usd('rds:serverless-v2-acu');
  const { min, max, autoPause } = writer.serverlessAcu!;
  const floor = line('Writer, at the floor', `${min} ACU all day`, `${unitPrice(acu)}/ACU-hr`, min * acu * HOURS_PER_DAY);
  if (autoPause)
    notes.push(
      `The writer's floor is 0 ACU, paused after ${autoPause} without a connection; Temporal's servers hold their pools open, so it pauses only while every service is stopped.`,
    );
  const ceiling = line('Writer, at the ceiling', `${max} ACU all day`, `${unitPrice(acu)}/ACU-hr`, max * acu * HOURS_PER_DAY);
  notes.push(
    `The Serverless v2 writer is taken at its ceiling (${max} ACU) while under load: a benchmark drives it there; parked and idle, at its floor (${min} ACU).`,
  );
  const s = section('Aurora PostgreSQL', 'Aurora PostgreSQL (history store)', ['Resource', 'Estimate', 'Unit Price', 'Daily Cost'], [floor, ceiling, ...fixed]);
  // The total counts the ceiling (under load), not the floor; idle drops to the floor.
  return {
    section: { ...s, subtotal: s.subtotal - floor.usdPerDay, subtotalLabel: 'Subtotal (writer at the ceiling)' },
    loadOnly: ceiling.usdPerDay - floor.usdPerDay,
  };
}

const DASHBOARD_QUERIES = 'Live Dashboard Queries';

/**
 * What the live dashboard costs: the samples its refreshes read, while someone has it open.
 * Grafana itself is a task on the main pool (memory, no CPU reserved): no instance, no line.
 * Amazon Managed Grafana would bill per user on top of the same queries: the note says how much.
 */
function dashboardQueries(scenario: TemporalScenario, p: Pricer, a: TemporalCostAssumptions, notes: string[]): CostLine[] {
  const { preset, environment: env } = scenario;
  const tasks = TEMPORAL_ROLES.reduce((n, r) => n + preset.services[r].replicas, 0);
  const perRefresh = a.dashboardSamplesPerTaskMinute * tasks * DASHBOARD_RANGE_MINUTES;
  const refreshes = (a.dashboardHoursPerDay * 3600) / durationSeconds(env.dashboards.refresh);
  const qsp = p.usd('prometheus:query-samples');
  const editor = p.usd('grafana:editor');
  const viewer = p.usd('grafana:viewer');
  notes.push(
    `The live dashboard runs in Grafana on the main pool (${env.dashboards.memoryGiB} GiB, no CPU reserved), so it adds no instance; its cost is the queries it reads while open. ` +
      `Amazon Managed Grafana would add ${unitPrice(editor)} per active editor-month (${usd(perDayFromMonthly(editor))}/day each) or ${unitPrice(viewer)} per viewer-month (${usd(perDayFromMonthly(viewer))}/day), ` +
      'for the same queries, and needs IAM Identity Center or SAML in the account.',
  );
  return [
    line(
      DASHBOARD_QUERIES,
      `${a.dashboardHoursPerDay} h/day open, every ${env.dashboards.refresh}: ${count(perRefresh / 1e6)}M samples a refresh (${tasks} server tasks, ${DASHBOARD_RANGE_MINUTES} min)`,
      `${unitPrice(qsp)}/billion`,
      ((perRefresh * refreshes) / 1e9) * qsp,
    ),
  ];
}
