import { request } from 'node:http';
import { join } from 'node:path';
import type { CampaignInput } from '../../../config/campaign-schema';
import type { CatalogInput } from '../../../config/catalog-schema';
import { awsCampaignActions } from '../../../lib/campaign/campaign-actions';
import type { CampaignActions, LoadResult } from '../../../lib/campaign/campaign-run';
import { runCampaignCommand } from '../../../lib/campaign/run-campaign';
import { CommandFailure, EXIT_FAILED, processIO, runCommand } from '../../../lib/commands/shared/cli';

/*
 * `campaign run` as its own process, as a user runs it, with the stages that need what cannot run
 * here asked of the local environment instead (ENVIRONMENT_STAGES, by default the Temporal
 * environment's: deploy, ready, load, hibernate; local-environment.ts; folio-environment.ts serves
 * the deploy only); every other stage is the command's own, against moto (and, for Temporal, the
 * environment's Prometheus). KILL_AT=<step>:<stage> makes the process SIGKILL itself
 * KILL_AFTER_MS after that stage starts: a real kill, at a known stage.
 *
 *   node --import tsx test/integration/support/campaign-child.ts
 *   (CAMPAIGN: the definition as JSON; OUT, ENVIRONMENT_URL, ENDPOINT_URL; PROMETHEUS_URL for
 *   Temporal; CATALOG: a catalog as JSON, config's by default)
 */

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const definition = JSON.parse(env('CAMPAIGN')) as CampaignInput;
const environment = env('ENVIRONMENT_URL');
const [killStep, killStage] = (process.env.KILL_AT ?? '').split(':');

const io = processIO();
const note = io.note;
io.note = (line) => {
  note(line);
  if (!killStage || !new RegExp(`^step ${killStep} \\(.*\\): ${killStage}$`).test(line)) return;
  const after = Number(process.env.KILL_AFTER_MS ?? 0);
  // At once: before the stage does anything, even a stage that needs no I/O (a move with nothing to move).
  if (after === 0) process.kill(process.pid, 'SIGKILL');
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), after);
};

/** One request to the environment, waited for as long as it takes (a deploy, a load: minutes), on a connection of its own. */
function ask<T>(action: string, body: Record<string, unknown>): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = request(`${environment}/${action}`, { method: 'POST', agent: false }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        const payload = JSON.parse(text) as T & { error?: string };
        if (res.statusCode !== 200) reject(new CommandFailure(`${action}: ${payload.error}`, EXIT_FAILED));
        else resolve(payload);
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const prometheusUrl = process.env.PROMETHEUS_URL;
const aws = awsCampaignActions(
  { endpointUrl: env('ENDPOINT_URL'), interval: '1s', prometheusUrl },
  {
    io,
    toolkit: async () => {
      throw new Error('no CloudFormation here: the environment deploys');
    },
  },
);
const served: Partial<CampaignActions> = {
  deploy: async (to) => (await ask<{ note: string }>('deploy', { scenario: to.name })).note,
  ready: async (to) => (await ask<{ note: string }>('ready', { scenario: to.name })).note,
  load: async (to, load, dir) => {
    if (load.kind !== 'bench-run') throw new CommandFailure(`${load.kind}: this environment runs bench-run loads only`, EXIT_FAILED);
    const request = { scenario: to.name, rate: load.rate, duration: load.duration, rampUp: load.rampUp ?? '0s', out: join(dir, 'run.json') };
    return ask<LoadResult>('load', request);
  },
  hibernate: async (to) => (await ask<{ note: string }>('hibernate', { scenario: to.name })).note,
};
const stages = (process.env.ENVIRONMENT_STAGES ?? 'deploy,ready,load,hibernate').split(',') as (keyof typeof served)[];
const actions: CampaignActions = { ...aws, ...Object.fromEntries(stages.map((s) => [s, served[s]])) };

void runCommand(() =>
  runCampaignCommand(
    'run',
    definition.name,
    { out: env('OUT'), interval: '1s', endpointUrl: env('ENDPOINT_URL'), prometheusUrl },
    { campaigns: [definition], actions, io, ...(process.env.CATALOG ? { catalog: JSON.parse(process.env.CATALOG) as CatalogInput } : {}) },
  ),
);
