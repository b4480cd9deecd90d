import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exitWithOutput } from '../../../harness/processes';
import type { CampaignRecord } from '../../../lib/campaign/campaign-record';

/*
 * `campaign run` in a process of its own (campaign-child.ts), as the campaign files run it: once
 * to its end, or SIGKILLed at a stage; and the record it leaves.
 */

/** A stage to be killed at: step (from 1), stage, and how long after it starts (0: at once, before the stage does anything). */
export type Kill = [step: number, stage: string, afterMs: number];

export interface CampaignProcess {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** What it printed, standard output and error as they came. */
  readonly output: string;
}

/** Runs the child with `env` (campaign-child.ts names what it reads), killing itself at `kill`. */
export function campaignRun(env: Record<string, string>, kill?: Kill): Promise<CampaignProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'campaign-child.ts')], {
    env: { ...process.env, ...env, ...(kill ? { KILL_AT: `${kill[0]}:${kill[1]}`, KILL_AFTER_MS: String(kill[2]) } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return exitWithOutput(child).then(({ code, signal }) => ({ code, signal, output }));
}

/** The campaign's record in `out`. */
export const campaignRecord = (out: string): CampaignRecord => JSON.parse(readFileSync(join(out, 'campaign.json'), 'utf8'));

/** Runs the child to `kill` and holds the record to where it was killed; `explain` says why it ended otherwise. */
export async function runToKill(env: Record<string, string>, out: string, kill: Kill, explain: (run: CampaignProcess) => string): Promise<void> {
  const run = await campaignRun(env, kill);
  if (run.signal !== 'SIGKILL') throw new Error(explain(run));
  expect(campaignRecord(out).running).toMatchObject({ step: kill[0] - 1, stage: kill[1] });
  expect(campaignRecord(out).status).toBe('running');
}
