import { FOLIO_MODULES } from './folio-modules';
import { type FolioPhaseInput, phaseTitle, splitReadAcks } from './folio-schema';
import { append, chain, whole } from './scenario-steps';

/*
 * PTF's hybrid-database tests: PERF-1229 (seed 002: baseline, test1..test13, a Serverless v2 offload
 * cluster), PERF-1334 (part3, part3-3x, a provisioned one), and the experiment proposed after them.
 * `recorded` holds the numbers the phase's source states; a missing field means it gives none.
 */

const PERF_1229 = 'PTF PERF-1229, "PTF-Test Hybrid DB Deployment on multiple(30) tenants ... Part 2" (FOLIJET wiki page 1807286320), seed 002';
const PERF_1334 = 'PTF PERF-1334, "Part 3": a dedicated provisioned offload DB (FOLIJET wiki page 1837432848)';

/** The mixed workload every phase ran (seed "Test scenario"): 20 of the environment's 30 tenants. */
const PTF_WORKLOAD = [
  { workflow: 'Check-In/Check-Out (CICO)', tenants: 8 },
  { workflow: 'Data Import (50K records, profile PTF-Create-3)', tenants: 3 },
  { workflow: 'Bulk Edit of holdings, users and items (upload and edit)', tenants: 3 },
  { workflow: 'Data Export (Custom and Default profiles)', tenants: 2 },
  { workflow: 'OAI-PMH harvesting', tenants: 2 },
  { workflow: 'Refresh Lists', tenants: 2 },
] as const;

/** PERF-1334's workflows (run at 1x and 3x PTF's standard load); the report does not say how many tenants ran each. */
const PART3_WORKLOAD = [{ workflow: 'Check-In/Check-Out (CICO)' }, { workflow: 'Data Import (50K records)' }, { workflow: 'Data Export' }] as const;

/** The modules whose split reads the experiments accepted (each phase acknowledges exactly those its routing splits). */
const ACCEPTS_SPLIT_READS = ['mod-data-export', 'mod-fqm-manager', 'mod-oai-pmh'];
const SNAPSHOT_COPY =
  "The module's cluster holds a reference copy of this schema, made by the mover when the module moved (see offloadPopulation); the experiment accepted stale reads here for the workloads it measured.";

type Phase = Omit<FolioPhaseInput, 'title' | 'crossSchemaAcks'> & { readonly note?: string };
const short = new Map(FOLIO_MODULES.map((m) => [m.name, m.short]));

// Each phase is the one before it (or the one it names in `from`) with what its experiment changed.
const PHASES = chain<Phase, 'note' | 'observation' | 'recorded'>(
  ['note', 'observation', 'recorded'],
  {
    name: 'baseline',
    source: PERF_1229,
    tenants: 30,
    loadFactor: 1,
    primaryInstanceClass: 'db.r7g.4xlarge',
    // Nothing is routed; the Serverless cluster idles at its floor so that no later phase creates it.
    offload: { serverless: { min: 0.5, max: 1 } },
    routedToOffload: [],
    dataImportRampUpSeconds: 0,
    sidecar: { authorizationCacheFix: false },
    workload: PTF_WORKLOAD,
    observation: 'Main configuration without the Serverless DB.',
    recorded: { checkInSec: 5.4 },
  },
  {
    name: 'test1',
    offload: { serverless: { min: 1, max: 4 } },
    routedToOffload: ['mod-source-record-manager', 'mod-source-record-storage'],
    observation:
      'The 4xlarge writer used only ~35% CPU while the Serverless cluster sat at 100% CPU; the writer was scaled down to db.r7g.2xlarge for the following phases.',
    recorded: { checkInSec: 2.7, provisionedCpuPct: 35, serverlessCpuPct: 100 },
  },
  {
    name: 'test2',
    primaryInstanceClass: 'db.r7g.2xlarge',
    observation:
      'The 2xlarge writer ran at ~65% CPU with slightly lower response times; the Serverless cluster peaked at 100% CPU, so 4 ACU is not enough. Next: 0.5-6 ACU.',
    recorded: { checkInSec: 7.8, dataImportMin: 52, provisionedCpuPct: 65, serverlessCpuPct: 100 },
  },
  {
    name: 'test3',
    offload: { serverless: { min: 0.5, max: 6 } },
    observation: 'Data Import dropped from 52 to 34 minutes and CICO improved by about 2 s, but the Serverless cluster still peaked at 100% CPU.',
    recorded: { checkInSec: 6.3, checkOutSec: 8.7, dataImportMin: 34, serverlessCpuPct: 100 },
  },
  {
    name: 'test4',
    dataImportRampUpSeconds: 120,
    observation:
      'A 120 s ramp-up staggered the three Data Import jobs: Data Import 34 -> 31 min, Holdings upload 81 -> 67 s, Users bulk edit 62 -> 41 s, Check-Out 8.7 -> 8.2 s.',
    recorded: { checkInSec: 6.1, checkOutSec: 8.2, dataImportMin: 31 },
  },
  {
    name: 'test5',
    routedToOffload: append('mod-inventory-storage'),
    observation:
      'Run twice; both runs were unstable with HTTP 5xx across workflows: 6 ACU cannot carry three heavy modules. Next: raise the ceiling to 128 ACU.',
    recorded: { failed: true },
  },
  {
    name: 'test6',
    offload: { serverless: { max: 128 } },
    observation:
      'No more 5xx; the cluster peaked at ~30 ACU. Data Import 31 -> 18 min; Data Export Custom 17.5 -> 16.2 min, Default 5.2 -> 3.5 min. Next: ceiling 32 ACU.',
    recorded: { checkInSec: 8, dataImportMin: 18, dataExportCustomMin: 16.2, dataExportDefaultMin: 3.5, serverlessPeakAcu: 30 },
  },
  {
    name: 'test7',
    offload: { serverless: { max: 32 } },
    observation: 'Capping at 32 ACU did not hurt performance: the "sweet spot" for three modules.',
    recorded: { checkInSec: 6.2 },
  },
  {
    name: 'test8',
    routedToOffload: append('mod-orders-storage'),
    observation: 'A fourth module cost 5-15% across most workflows: the 32 ACU ceiling is reached.',
    recorded: { checkInSec: 7.12, dataImportMin: 19, dataExportCustomMin: 16 },
  },
  {
    name: 'test9',
    routedToOffload: append('mod-data-export'),
    observation: 'Data Export Custom 16 -> 11 min, but Data Import 19 -> 21 min and CICO and Bulk Edit degraded: 32 ACU is over-saturated with five modules.',
    recorded: { checkInSec: 7.63, dataImportMin: 21, dataExportCustomMin: 11 },
  },
  {
    name: 'test10',
    routedToOffload: append('mod-lists', 'mod-fqm-manager'),
    sidecar: { authorizationCacheFix: true, build: 'custom build with the MODSIDECAR-185 authorization-cache fix' },
    observation:
      'ServerlessDatabaseCapacity flat-lined at the 32 ACU ceiling with CPU ~80%; Data Import 21 -> 24 min, Data Export Custom 11 -> 18 min. Next: 0.5-64 ACU.',
    recorded: { checkInSec: 4.56, dataImportMin: 24, dataExportCustomMin: 18, serverlessPeakAcu: 32, serverlessCpuPct: 80 },
  },
  {
    name: 'test11',
    offload: { serverless: { max: 64 } },
    observation:
      'The cluster peaked at ~30 ACU and left the extra capacity unused; Data Export Custom 18 -> 15 min, Data Import 24 -> 23 min. More ceiling does not fix the tail latencies of seven modules.',
    recorded: { checkInSec: 4.42, dataImportMin: 23, dataExportCustomMin: 15, serverlessPeakAcu: 30 },
  },
  {
    name: 'test12',
    offload: { serverless: { min: 5 } },
    observation: 'A warm 5 ACU floor removed the scale-up lag: Data Import back to 18 min, Check-In 4.42 -> 2.78 s, Check-Out 4.02 s.',
    recorded: { checkInSec: 2.78, checkOutSec: 4.02, dataImportMin: 18 },
  },
  {
    name: 'test13',
    note: 'A/B of test12',
    sidecar: whole({ authorizationCacheFix: false, build: '3.0.18nb' }),
    observation:
      'Without the sidecar cache fix: Check-In 2.78 -> 4.2 s, Check-Out 4.02 -> 5.89 s, Data Import 18 -> 26 min. The fix is mandatory for this environment.',
    recorded: { checkInSec: 4.2, checkOutSec: 5.89, dataImportMin: 26 },
  },
  // PERF-1334 ("Part 3"): test12's seven heavy modules on a dedicated provisioned offload cluster,
  // 60 tenants. The report does not give the ramp-up; test10-test13 had settled it at 120 s.
  {
    name: 'part3',
    from: 'test12',
    source: PERF_1334,
    tenants: 60,
    offload: whole({ provisioned: { instanceClass: 'db.r8g.2xlarge', readers: 0 } }),
    workload: PART3_WORKLOAD,
    observation:
      'At the standard load Data Import of 50K records took 18 min and Data Export 17 min; CICO was about 1 s faster than on the Serverless offload. Next: the same at 3x load.',
    recorded: { dataImportMin: 18, dataExportMin: 17 },
  },
  {
    name: 'part3-3x',
    loadFactor: 3,
    observation:
      'At 3x load: Check-In 2.40 s, Check-Out 3.50 s, Data Import 57 min. The offload cluster waited on IO:DataFileRead for 70-80% of its active sessions while CPU stayed low: reads from storage, not compute, set the pace.',
    recorded: { checkInSec: 2.4, checkOutSec: 3.5, dataImportMin: 57 },
  },
  {
    name: 'part3-3x-4xl',
    note: 'proposed',
    source: 'proposed by this project after PERF-1334 (not run by PTF): part3-3x with twice the offload memory',
    // IO:DataFileRead is the buffer cache missing: 128 GiB instead of 64 GiB holds more of the working set.
    offload: { provisioned: { instanceClass: 'db.r8g.4xlarge' } },
    observation:
      'Not run yet. Compare with part3-3x: if IO:DataFileRead falls and Data Import nears its 1x time, the offload cluster was memory-bound; if not, try I/O-Optimized storage or a reader for FQM and Lists.',
    recorded: {},
  },
);

export const FOLIO_PHASES: readonly FolioPhaseInput[] = PHASES.scenarios.map(({ note, name, ...phase }) => ({
  name,
  title: phaseTitle({ name, ...phase }, (m) => short.get(m) ?? m, note),
  ...phase,
  crossSchemaAcks: splitReadAcks(FOLIO_MODULES, phase.routedToOffload, (m) => (ACCEPTS_SPLIT_READS.includes(m) ? SNAPSHOT_COPY : undefined)),
}));

/** The scenario each follows, whose template its snapshot is diffed from. */
export const FOLIO_PREDECESSORS = PHASES.predecessors;
