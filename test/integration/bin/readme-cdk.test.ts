import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hermeticEnv } from '../../support/cli';
import { MANUAL, shellCommands } from '../../support/manual';

/*
 * Every `npx cdk` line of the manual (the README and docs/), run as written through the real CDK CLI in a clean clone's
 * shape (cdk.json's app, no AWS credentials, a HOME of its own): each must get through the app
 * (config, synth) to the point where the CLI needs AWS, and stop there with the CLI's own words,
 * not with a config error or a crash. synth needs no AWS and must succeed.
 */

const ROOT = join(__dirname, '../../..');

// The walkthrough's run on a copy of the repository, in order (test/integration/docs/walkthrough.test.ts).
const walkthrough = new Set(shellCommands(MANUAL, 'walkthrough'));
const lines = [...new Set(shellCommands(MANUAL, 'all').filter((l) => l.startsWith('npx cdk ') && !walkthrough.has(l)))];

/** Where each verb stops without an account: the CLI's own message once the app has synthesized. */
const STOPS: Record<string, RegExp> = {
  synth: /Successfully synthesized to /,
  deploy: /Unable to resolve AWS account to use/,
  diff: /Unable to resolve AWS account to use/,
  bootstrap: /Unable to resolve AWS account to use/,
  destroy: /terminal \(TTY\) is not attached so we are unable to get a confirmation/,
};

const home = mkdtempSync(join(tmpdir(), 'readme-cdk-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function cdk(args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const outdir = mkdtempSync(join(tmpdir(), 'readme-cdk-out-'));
    const child = spawn(join(ROOT, 'node_modules/.bin/cdk'), [...args, '--output', outdir], {
      cwd: ROOT,
      env: hermeticEnv({ HOME: home, CI: 'true' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('error', reject);
    child.on('close', (status) => {
      rmSync(outdir, { recursive: true, force: true });
      resolve({ status, output });
    });
  });
}

test('the manual gives every verb a user needs: bootstrap, synth, diff, deploy, destroy', () => {
  expect([...new Set(lines.map((l) => l.split(/\s+/)[2]))].sort()).toEqual(Object.keys(STOPS).sort());
});

test.each(lines)(
  '`%s` gets through the app to where the CLI needs AWS',
  async (line) => {
    const args = line.split(/\s+/).slice(2);
    const verb = args[0];
    const { status, output } = await cdk(args);
    // A config refusal, a stack trace or an unknown option would end here instead.
    expect(output).not.toMatch(/^error: |config error|    at /m);
    expect({ line, stopped: STOPS[verb].test(output) }).toEqual({ line, stopped: true });
    if (verb === 'synth') expect({ line, status }).toEqual({ line, status: 0 });
  },
  120_000,
);

test('the check is able to fail: a line the app refuses stops at config, not at AWS', async () => {
  const { status, output } = await cdk(['deploy', '--all', '-c', 'scenario=temporal-150-wps']);
  expect(status).not.toBe(0);
  expect(output).toMatch(/^error: unknown scenario "temporal-150-wps"/m);
  expect(STOPS.deploy.test(output)).toBe(false);
}, 120_000);
