import type { CampaignRow } from '../../../campaign/family-campaign';
import { num, pctValue } from '../../../commands/report/report-format';
import type { CostEstimate } from '../../../commands/shared/cost-model';
import { usd } from '../../../commands/shared/money';
import type { FolioReport } from './folio-summary';

/* A FOLIO phase in the campaign report: seed 002's summary columns, from the phase's report and its day's cost. */

export function folioCampaignRow(r: FolioReport, estimate: CostEstimate): CampaignRow {
  const m = r.metrics;
  return {
    cells: {
      Writer: r.configured.primaryInstanceClass,
      'Offload cluster': r.configured.offload,
      'Routed to it': String(r.configured.routedToOffload.length),
      Window: `${num(r.window.minutes, 0)} min`,
      'Writer CPU peak': pctValue(m.cpu.primary.peak),
      'Offload CPU peak': pctValue(m.cpu.offload.peak),
      'ACU peak / average': m.acu ? `${num(m.acu.peak, 1)} / ${num(m.acu.average, 2)} ACU` : 'provisioned',
      'Connections peak (primary / offload)': `${num(m.connections.primary.peak, 0)} / ${num(m.connections.offload.peak, 0)}`,
      'Per day': usd(estimate.total),
    },
    figures: {
      'Cost per day (USD)': Number(estimate.total.toFixed(2)),
      'Writer CPU peak (%)': m.cpu.primary.peak,
      'Offload CPU peak (%)': m.cpu.offload.peak,
      'Serverless v2 peak (ACU)': m.acu?.peak ?? null,
    },
  };
}
