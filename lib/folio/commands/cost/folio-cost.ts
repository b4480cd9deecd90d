import type { FolioScenario } from '../../../../config';
import type { AuroraStorageType } from '../../../../config/fields';
import type { PriceFile } from '../../../../config/prices';
import { MOVER_ENDPOINTS } from '../../contract/folio-endpoints';
import {
  type CostEstimate,
  type CostLine,
  type CostSection,
  type CostVariant,
  type FolioCostInputs,
  auroraKey,
  budgetNote,
  idleAlarmMetrics,
  line,
  Pricer,
  section,
  storageName,
  sum,
} from '../../../commands/shared/cost-model';
import { HOURS_PER_DAY, perDayFromMonthly, unitPrice, usd } from '../../../commands/shared/money';
import { folioIdleRules } from '../../contract/folio-idle-rule';
import { folioCatalog } from '../../contract/folio-metrics';

/* A FOLIO phase's daily cost: both clusters' writers and readers, the offload capacity, the mover, what it observes. */

const INSTANCE_HEADERS = ['Resource', 'Count', 'Instance Class', 'Unit Price', '24-hr Cost'];
const writerAndReaders = (readers: number) => (readers ? `Writer and ${readers} reader${readers > 1 ? 's' : ''}` : 'Writer');

/** A cluster's writer and readers by the hour, on its storage type's prices. */
function instancesLine(p: Pricer, label: string, instanceClass: string, count: number, on: AuroraStorageType): CostLine {
  const hourly = p.usd(auroraKey(instanceClass, on));
  return {
    cells: [label, String(count), instanceClass, `${unitPrice(hourly)}/hr`, usd(count * hourly * HOURS_PER_DAY)],
    usdPerDay: count * hourly * HOURS_PER_DAY,
  };
}

/** The offload cluster: provisioned by the hour, or Serverless v2 at its floor, its ceiling and the level observed. */
interface Offload {
  readonly section: CostSection;
  /** Serverless v2's levels; `chosen` is the one the total takes. */
  readonly levels?: { readonly chosen: CostLine; readonly floor: CostLine; readonly ceiling: CostLine; readonly observed?: CostLine };
}

function offloadSection(scenario: FolioScenario, p: Pricer, inputs: FolioCostInputs): Offload {
  const { phase, storage } = scenario;
  const range = phase.offload.serverless;
  const offloadTitle = (kind: string) => `Offload cluster, ${kind} (${storageName(storage.offload)} storage)`;
  if (!range) {
    const { instanceClass, readers } = phase.offload.provisioned!;
    return {
      section: section('Offload (provisioned)', offloadTitle('provisioned'), INSTANCE_HEADERS, [
        instancesLine(p, writerAndReaders(readers), instanceClass, 1 + readers, storage.offload),
      ]),
    };
  }
  const acu = p.usd(auroraKey('serverless-v2-acu', storage.offload));
  const acuLine = (label: string, level: number): CostLine => ({
    cells: [
      label,
      `${Number(level.toFixed(2))} ACU`,
      `${Number((level * HOURS_PER_DAY).toFixed(2))} ACU-h`,
      `${unitPrice(acu)}/ACU-hr`,
      usd(level * HOURS_PER_DAY * acu),
    ],
    usdPerDay: level * HOURS_PER_DAY * acu,
  });
  // At 0 ACU the floor is a paused instance: no ACU-hours at all.
  const floor = acuLine(range.autoPause ? `Paused (0 ACU after ${range.autoPause} without a connection)` : 'At the floor (min ACU all day)', range.min);
  const ceiling = acuLine('At the ceiling (max ACU all day)', range.max);
  const observed =
    inputs.observedAverageAcu === undefined
      ? undefined
      : acuLine(`Observed average${inputs.observedFrom ? ` (${inputs.observedFrom})` : ''}`, inputs.observedAverageAcu);
  // The total takes the Serverless cluster at the observed level when known, else at the floor.
  const chosen = observed ?? floor;
  const s = section(
    'Offload (Serverless v2)',
    offloadTitle('Serverless v2'),
    ['Level', 'Capacity', 'Per Day', 'Unit Price', '24-hr Cost'],
    [floor, ceiling, ...(observed ? [observed] : [])],
  );
  return {
    section: { ...s, subtotal: chosen.usdPerDay, subtotalLabel: observed ? 'Subtotal (observed)' : 'Subtotal (at the floor)' },
    levels: { chosen, floor, ceiling, ...(observed ? { observed } : {}) },
  };
}

/** One secret per module and the admin's, the dashboard and alarms, the mover's endpoints. */
function otherSection(scenario: FolioScenario, p: Pricer): CostSection {
  const secrets = 1 + scenario.routes.length;
  const alarms = folioCatalog(scenario).alarms.length;
  const idleMetrics = idleAlarmMetrics(folioIdleRules(scenario));
  const cw = { secret: p.usd('secretsmanager:secret'), dashboard: p.usd('cloudwatch:dashboard'), alarm: p.usd('cloudwatch:alarm') };
  const endpoint = p.usd('vpc:interface-endpoint');
  return section(
    'Other (secrets, CloudWatch, endpoints)',
    'Other AWS Services',
    ['Resource', 'Estimate', 'Unit Price', 'Daily Cost'],
    [
      line('Secrets Manager', `${secrets} secrets (admin, one per module)`, `${unitPrice(cw.secret)}/secret-month`, perDayFromMonthly(secrets * cw.secret)),
      line(
        'Dashboard and alarms',
        `1 dashboard, ${alarms} alarms${idleMetrics ? `, ${idleMetrics} idle-rule alarm metrics` : ''}`,
        `${unitPrice(cw.dashboard)}, ${unitPrice(cw.alarm)}/month`,
        perDayFromMonthly(cw.dashboard + (alarms + idleMetrics) * cw.alarm),
      ),
      line(
        'VPC endpoints (schema mover)',
        `${MOVER_ENDPOINTS.length} interface × 1 AZ`,
        `${unitPrice(endpoint)}/hr each`,
        MOVER_ENDPOINTS.length * endpoint * HOURS_PER_DAY,
      ),
    ],
  );
}

/** Serverless v2 at its other levels, and both clusters stopped. */
function variants(scenario: FolioScenario, offload: Offload, total: number, stopped: number): CostVariant[] {
  const stoppedVariant: CostVariant = {
    label: 'Stopped (hibernated)',
    total: stopped,
    delta: stopped - total,
    note: 'npm run hibernate: both clusters stopped, no instance or ACU hours; Aurora storage and backups still bill (not estimated). Aurora starts a stopped cluster after 7 days',
  };
  const range = scenario.phase.offload.serverless;
  const levels = offload.levels;
  if (!range || !levels) return [stoppedVariant];
  const variant = (label: string, l: CostLine, note: string): CostVariant => ({
    label,
    total: total - levels.chosen.usdPerDay + l.usdPerDay,
    delta: l.usdPerDay - levels.chosen.usdPerDay,
    note,
  });
  return [
    ...(levels.observed ? [variant('Serverless at the floor', levels.floor, `${range.min} ACU all day`)] : []),
    variant('Serverless at the ceiling', levels.ceiling, `${range.max} ACU all day: the most this phase can cost`),
    stoppedVariant,
  ];
}

export function folioCost(scenario: FolioScenario, prices: PriceFile, inputs: FolioCostInputs = {}): CostEstimate {
  const p = new Pricer(prices);
  const { phase, environment: env, storage } = scenario;
  const primary = section('Primary Aurora', `Primary Aurora PostgreSQL (${storageName(storage.primary)} storage)`, INSTANCE_HEADERS, [
    instancesLine(p, writerAndReaders(env.database.primaryReaders), phase.primaryInstanceClass, 1 + env.database.primaryReaders, storage.primary),
  ]);
  const offload = offloadSection(scenario, p, inputs);
  const other = otherSection(scenario, p);
  const sections = [primary, offload.section, other];
  const total = sum(sections);
  // Stopped clusters bill storage and backups only (not estimated, as below): what stays is the rest.
  const stopped = other.subtotal;
  const range = phase.offload.serverless;
  return {
    scenario: scenario.name,
    region: prices.region,
    title: phase.title,
    sections,
    total,
    variants: variants(scenario, offload, total, stopped),
    pricesAsOf: p.asOf(),
    notes: [
      range
        ? `The total takes Serverless v2 ${offload.levels?.observed ? `at the observed average, ${Number(inputs.observedAverageAcu!.toFixed(2))} ACU` : `at the floor, ${range.min} ACU; pass --report <report.json> for an observed average`}.`
        : 'The offload cluster is provisioned: it costs the same whatever the load.',
      ...(range?.autoPause
        ? [
            `The Serverless v2 cluster pauses at 0 ACU after ${range.autoPause} without a connection and bills no capacity while paused; its first connection waits while it resumes. A day with any connection every ${range.autoPause} never pauses, and a routed module's pool keeps it awake.`,
          ]
        : []),
      `${env.tenants.length} tenants: nothing above grows with them (one secret per module, not per tenant); storage and I/O do.`,
      'Aurora storage and I/O are not estimated: they follow the data set, not the phase. I/O-Optimized storage bills no I/O and dearer compute (the prices above); it pays when I/O is about a quarter or more of the Aurora bill.',
      budgetNote(env.spending.budget.dailyUsd, total, stopped, 'stopped'),
    ],
  };
}
