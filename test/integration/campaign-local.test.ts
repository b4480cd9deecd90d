import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveScenario } from '../../config';
import { loadPrices } from '../../config/prices';
import { costOf } from '../../lib/families';
import { num } from '../../lib/commands/report/report-format';
import { usd } from '../../lib/commands/shared/money';
import type { CampaignInput } from '../../config/campaign-schema';
import { CREDENTIALS, type Moto, startMoto, useMotoCredentials } from '../../harness/moto';
import { seedTemporalFleet } from '../../harness/offline-fleet';
import { type Postgres, startPostgres } from '../../harness/postgres';
import { runCampaignCommand } from '../../lib/campaign/run-campaign';
import { readRunRecord } from '../../lib/commands/shared/run-record';
import { recordingIO } from '../support/command-io';
import { tempDir } from '../support/temp-dir';
import { type Kill, campaignRecord, campaignRun as runCampaignProcess, runToKill } from './support/campaign-process';
import { type LocalEnvironment, startLocalEnvironment } from './support/local-environment';

/*
 * A Temporal campaign over three presets, run as `campaign run` runs it, in its own process, on
 * this machine: each step's deploy starts the local cluster again from that preset's rendering
 * (the stores kept), its load is the benchmark program at a low rate, its report reads the real
 * Prometheus and moto. The process is SIGKILLed once at every stage (killing itself at a stage
 * it names: local-environment.ts goes on with what it was asked, as AWS does) and run again each
 * time; it resumes where the record says and ends with every step reported once.
 */

const PRESETS = ['temporal-150wps', 'temporal-800wps', 'temporal-1200wps'];
const CAMPAIGN: CampaignInput = {
  name: 'local-scaling',
  title: 'The three presets on this machine',
  steps: PRESETS.map((scenario) => ({ scenario, load: { kind: 'bench-run', rate: 2, duration: '2m', rampUp: '0s' } })),
  onEnd: 'hibernate',
  estimates: { deploy: '1m', ready: '1m', report: '1m' },
};
/** Once at each stage: step, stage, and how long after it starts (0: at once, before the stage does anything). */
const KILLS: Kill[] = [
  [1, 'plan', 0],
  [1, 'deploy', 1_500],
  [2, 'move', 0],
  [2, 'ready', 1_000],
  [2, 'load', 3_000],
  [3, 'report', 0],
];

const region = resolveScenario({ scenario: PRESETS[0] }).env.region;
let moto: Moto;
let pg: Postgres;
let environment: LocalEnvironment;
const out = join(tempDir('campaign-local-'), 'local-scaling');

beforeAll(async () => {
  useMotoCredentials();
  moto = await startMoto();
  await seedTemporalFleet({ region, endpoint: moto.endpoint, credentials: CREDENTIALS }, { instances: 0 });
  pg = await startPostgres({ maxConnections: 800 });
  environment = await startLocalEnvironment({ postgres: pg, aws: { region, endpoint: moto.endpoint, credentials: CREDENTIALS }, stackName: 'TemporalDsql' });
}, 300_000);

afterAll(async () => {
  await environment?.stop();
  await pg?.stop();
  moto?.stop();
}, 120_000);

/** What campaign-child.ts is told. */
const childEnv = (): Record<string, string> => ({
  CAMPAIGN: JSON.stringify(CAMPAIGN),
  OUT: out,
  ENVIRONMENT_URL: environment.url,
  ENDPOINT_URL: moto.endpoint,
  PROMETHEUS_URL: environment.prometheus.url,
});
/** `campaign run` in its own process, to its end. */
const campaignRun = () => runCampaignProcess(childEnv());

const record = () => campaignRecord(out);

test.each(KILLS)(
  'killed at step %i, %s (%i ms in): the record says where it stopped',
  (step, stage, after) =>
    runToKill(
      childEnv(),
      out,
      [step, stage, after],
      (run) => `campaign run ended ${run.code ?? run.signal}, not killed:\n${run.output.slice(-3000)}\nthe environment:\n${environment.ledger.log.join('\n')}`,
    ),
  600_000,
);

describe('run again, it resumes and finishes', () => {
  let run: Awaited<ReturnType<typeof campaignRun>>;
  beforeAll(async () => {
    run = await campaignRun();
  }, 600_000);

  test('every step done once, the environment hibernated', () => {
    if (run.code !== 0)
      throw new Error(`campaign run exited ${run.code ?? run.signal}:\n${run.output.slice(-3000)}\nthe environment:\n${environment.ledger.log.join('\n')}`);
    const r = record();
    expect(r.status).toBe('done');
    expect(r.steps.map((s) => s.scenario)).toEqual(PRESETS);
    expect(r.ended?.environment).toBe('hibernated');
    for (const s of r.steps) expect(Object.keys(s.stages).sort()).toEqual(['deploy', 'load', 'move', 'plan', 'ready', 'report']);
  });

  test('no finished stage ran again: each preset deployed once, and only the load killed in flight ran twice, its first generator stopped', () => {
    // The deploy killed in flight finished in the environment; its resume found it deployed.
    expect(environment.ledger.deploys).toEqual(PRESETS);
    expect(environment.ledger.noops).toContain(`deploy ${PRESETS[0]}`);
    expect(environment.ledger.loads).toEqual([PRESETS[0], PRESETS[1], PRESETS[1], PRESETS[2]]);
    expect(environment.ledger.stopped).toEqual([PRESETS[1]]);
  });

  test("each step's load completed every workflow it started, and its report read them", () => {
    for (const s of record().steps) {
      const runRecord = readRunRecord(s.load!.runRecord!);
      expect(runRecord.scenario).toBe(s.scenario);
      expect(runRecord.workflowsCompleted).toBe(240);
      const report = JSON.parse(readFileSync(s.report!, 'utf8'));
      expect(report.scenario).toBe(s.scenario);
    }
  });

  test('the campaign report sets the three presets side by side, and reads the same when made again from the record', async () => {
    const written = readFileSync(join(out, 'report.md'), 'utf8');
    // Each preset's row: the rate its run completed (its 240 workflows over its run's window: the 2-minute load and the
    // wait for the last, which a busy machine lengthens), its P99, its day.
    PRESETS.forEach((p, i) => {
      const report = JSON.parse(readFileSync(record().steps[i].report!, 'utf8'));
      expect(report.workflows).toBe(240);
      const seconds = (Date.parse(report.window.run.end) - Date.parse(report.window.run.start)) / 1000;
      expect(seconds).toBeGreaterThanOrEqual(120);
      const rate = num(240 / seconds, 2).replace('.', '\\.');
      const day = usd(costOf(resolveScenario({ scenario: p }), loadPrices(region)).total).replace('$', '\\$');
      expect(written).toMatch(new RegExp(`^\\| ${i + 1} \\| ${p} \\| ${rate} workflows/s \\| [\\d,]+ ms \\| [^|]+ \\| ${day} \\|`, 'm'));
    });
    const io = recordingIO();
    const again = await runCampaignCommand('report', CAMPAIGN.name, { out }, { campaigns: [CAMPAIGN], io });
    expect(again.stdout).toBe(written);
  });
});
