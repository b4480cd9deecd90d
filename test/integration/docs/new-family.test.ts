import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { minuteSeries, putMetrics } from '../../../harness/cloudwatch-seed';
import { CREDENTIALS, MOTO_START_MS, startMoto } from '../../../harness/moto';
import { hermeticEnv } from '../../support/cli';
import { page, walkthroughSteps } from '../../support/manual';
import { tempDir } from '../../support/temp-dir';
import { copyRepository, perform } from '../support/repository-copy';

/*
 * docs/families.md's walkthrough, run as written on a copy of the repository: a third family
 * added as its folder, its config, its stack and one line in each registry, then type-checked,
 * synthesized, costed, planned, its environment's status asked and a campaign over it planned;
 * then its report read from moto. Nothing else in the tree is touched.
 */

const steps = walkthroughSteps(page('docs/families.md'));

/** Every file of a tree (links and what commands write aside: node_modules, the linters' environments, cdk.out) by its content's hash. */
function hashes(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = lstatSync(path);
      if (stat.isSymbolicLink() || name === 'cdk.out') continue;
      if (stat.isDirectory()) walk(path);
      else out.set(relative(root, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(root);
  return out;
}

let copy: string;
const outputs = new Map<string, string>();
/** What the walkthrough changed in the tree: `added <path>` or `changed <path>`. */
let touched: string[];

beforeAll(() => {
  copy = copyRepository('new-family-');
  const before = hashes(copy);
  for (const step of steps) {
    const { step: done, status, output, stdout } = perform(step, copy);
    expect({ done, status, output }).toEqual({ done, status: 0, output: '' });
    outputs.set(done, stdout ?? '');
  }
  const after = hashes(copy);
  touched = [...after].filter(([path, hash]) => before.get(path) !== hash).map(([path]) => `${before.has(path) ? 'changed' : 'added'} ${path}`);
}, 1_200_000);

test('the family is its folder, its config, its stack and one line in each registry: nothing else in the tree changed', () => {
  expect(touched.sort()).toEqual([
    'added config/queue-catalog.ts',
    'added lib/queue-stack.ts',
    'added lib/queue/queue-commands.ts',
    'added lib/queue/queue-family.ts',
    'added lib/queue/queue-stacks.ts',
    'added queue-study.yaml',
    'changed config/family-registry.ts',
    'changed lib/families.ts',
  ]);
  // Each registry gains its import and its one entry, and loses nothing.
  for (const patch of steps.flatMap((s) => (s.kind === 'patch' ? [s.patch] : []))) {
    const lines = patch.split('\n').filter((l) => /^[+-][^+-]/.test(l));
    expect(lines.map((l) => l[0]).join('')).toMatch(/^\+(-\+|\+)$/);
  }
});

test('synth, cost, plan, environment status and campaign plan work for it as for the families it ships', () => {
  const template = JSON.parse(readFileSync(join(copy, 'cdk.out/QueueData.template.json'), 'utf8'));
  expect(Object.values(template.Resources)).toContainEqual(
    expect.objectContaining({ Type: 'AWS::SQS::Queue', Properties: expect.objectContaining({ QueueName: 'bench-work', VisibilityTimeout: 30 }) }),
  );
  expect(outputs.get('npm run cost -- --scenario queue-slow')).toContain('| **Total** | **$0.00** |');
  const plan = outputs.get('npm run plan -- --from queue-fast --to queue-slow')!;
  expect(plan).toContain('VisibilityTimeout: 30 -> 600 (update in place)');
  expect(plan).toContain('Visibility timeout: 30 s -> 600 s.');
  expect(plan).toContain('Safe: no stateful resource is replaced, destroyed or orphaned.');
  expect(outputs.get('npm run environment -- status --scenario queue-fast')).toContain('QueueData: a queue has nothing to stop; it is always awake\n');
  expect(outputs.get('npm run campaign -- plan ./queue-study.yaml')).toContain('2 steps of queue scenarios');
});

test('report: its series read from CloudWatch (moto), its summary and markdown written', async () => {
  const moto = await startMoto();
  const out = tempDir('queue-report-');
  try {
    const start = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 30 * 60_000);
    const cloudWatch = new CloudWatchClient({ region: 'eu-west-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
    await putMetrics(cloudWatch, 'AWS/SQS', minuteSeries(start, 'NumberOfMessagesSent', { QueueName: 'bench-work' }, [5, 7, 9, 11, 8, 6, 4, 3, 2, 1]));
    const end = new Date(start.getTime() + 10 * 60_000);
    const args = ['--scenario', 'queue-fast', '--start', start.toISOString(), '--end', end.toISOString(), '--endpoint-url', moto.endpoint, '--out', out];
    const r = spawnSync('npm', ['run', '--silent', 'report', '--', ...args], {
      cwd: copy,
      env: hermeticEnv({ AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey }),
      encoding: 'utf8',
      timeout: 300_000,
    });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: expect.not.stringMatching(/error/) });
    expect(r.stdout).toMatch(/^# Queue report: queue-fast\n/);
    expect(r.stdout).toContain('Messages sent: 56.');
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).toMatchObject({ family: 'queue', metrics: { sent: 56 } });
  } finally {
    moto.stop();
  }
}, MOTO_START_MS + 300_000);
