import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MOVER_COMMAND, moverJobs } from '../../../../lib/folio/constructs/schema-mover';
import { MOVER_PARTS, MOVER_SCRIPT } from '../../../../lib/folio/constructs/schema-mover/mover-bundle';
import { synthPhase } from '../../../support/synth';

/*
 * The mover task as the template carries it. What the script does is proven against real
 * servers in test/integration/schema-mover.test.ts, on the same file.
 */

const DIR = join(__dirname, '../../../../lib/folio/constructs/schema-mover');
const TASK = 'AWS::ECS::TaskDefinition';

test('the template carries the script the tests run: every part in order, less their full-line comments, and it still parses', () => {
  const parts = readdirSync(DIR).filter((f) => f.endsWith('.sh'));
  expect([...MOVER_PARTS].sort()).toEqual(parts.sort());
  const whole = MOVER_PARTS.map((p) => readFileSync(join(DIR, p), 'utf8')).join('');
  expect(MOVER_SCRIPT.split('\n')).toEqual(whole.split('\n').filter((l) => !/^\s*#/.test(l)));
  expect(MOVER_SCRIPT).not.toMatch(/^\s*#/m);
  // dash here, busybox ash in the image: both POSIX sh.
  expect(() => execFileSync('sh', ['-n'], { input: MOVER_SCRIPT })).not.toThrow();
});

test('no part of the script is longer than 400 lines', () => {
  const long = MOVER_PARTS.map((p) => [p, readFileSync(join(DIR, p), 'utf8').split('\n').length] as const).filter(([, n]) => n > 400);
  expect(long).toEqual([]);
});

test("the task's command unpacks to the script itself, with busybox's base64 and gunzip as the image has them", () => {
  const payload = /^printf %s '([A-Za-z0-9+/=]+)' \| base64 -d \| gunzip >\/tmp\/move\.sh && exec sh \/tmp\/move\.sh$/.exec(MOVER_COMMAND)![1];
  expect(execFileSync('sh', ['-c', 'base64 -d | gunzip'], { input: payload }).toString()).toBe(MOVER_SCRIPT);
  const { json } = synthPhase('test10');
  const mover = Object.values<any>(json.Resources).find((r) => r.Type === TASK && r.Properties.Family === 'folio-schema-mover');
  expect(mover.Properties.ContainerDefinitions[0]).toMatchObject({ EntryPoint: ['sh', '-c'], Command: [MOVER_COMMAND] });
});

test("the task definition stays under ECS's 64 KiB limit, with room to grow", () => {
  const { json } = synthPhase('test10');
  const mover = Object.values<any>(json.Resources).find((r) => r.Type === TASK && r.Properties.Family === 'folio-schema-mover');
  const bytes = Buffer.byteLength(JSON.stringify(mover.Properties));
  expect(bytes).toBeLessThan(56 * 1024);
});

test('the task moves one schema per vCPU at once, at least one, with the configured lock timeout', () => {
  expect([0.25, 0.5, 1, 2, 4].map(moverJobs)).toEqual([1, 1, 1, 2, 4]);
  const { json } = synthPhase('test10');
  const mover = Object.values<any>(json.Resources).find((r) => r.Type === TASK && r.Properties.Family === 'folio-schema-mover');
  const env = Object.fromEntries(mover.Properties.ContainerDefinitions[0].Environment.map((e: any) => [e.Name, e.Value]));
  expect(mover.Properties.Cpu).toBe('2048');
  expect(env).toMatchObject({ MOVE_JOBS: '2', MOVE_LOCK_TIMEOUT: '30s' });
});
