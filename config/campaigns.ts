import type { CampaignInput } from './campaign-schema';

/*
 * Campaigns: `npm run campaign -- plan <name>` shows one's steps, switches and projected spend;
 * `npm run campaign -- run <name>` runs it unattended (docs/campaigns.md).
 */

const FOLIO_PHASES_IN_ORDER = ['baseline', ...Array.from({ length: 13 }, (_, i) => `test${i + 1}`)];

export const CAMPAIGNS: readonly CampaignInput[] = [
  {
    // Seed 002: PTF's 14 phases in order, a report between each. PTF ran each phase's load test
    // (Data Import, Check-In/Check-Out, exports) for about an hour; the wait is that hour. Replace
    // it with { kind: 'command', command: [...], timeout } to have the campaign start your load.
    name: 'ptf-hybrid',
    title: "PTF's hybrid-database test (seed 002): baseline and test1 to test13, an hour's load each",
    steps: FOLIO_PHASES_IN_ORDER.map((scenario) => ({ scenario, load: { kind: 'wait', duration: '60m' } })),
    onEnd: 'hibernate',
    // Aurora modifies a cluster's scaling range in minutes; a class change restarts the writer.
    estimates: { deploy: '20m', ready: '5m', report: '5m' },
  },
  {
    // A Temporal scaling study: each preset's ladder from its target rate, so the campaign report
    // sets the highest rate held against what a day and a million workflows cost.
    name: 'temporal-scaling',
    title: 'Temporal on Aurora DSQL at 150, 800 and 1,200 workflows/s: the highest rate each preset holds',
    steps: ['temporal-150wps', 'temporal-800wps', 'temporal-1200wps'].map((scenario) => ({ scenario, load: { kind: 'bench-ladder' } })),
    onEnd: 'hibernate',
    // The first deploy of the stack takes about 40 minutes (README); a resize about 15.
    estimates: { deploy: '40m', ready: '10m', report: '5m' },
  },
];
