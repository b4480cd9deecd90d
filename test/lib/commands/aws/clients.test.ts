import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { ListTasksCommand } from '@aws-sdk/client-ecs';
import { AWS_CLIENTS } from '../../../../lib/commands/aws/clients';
import { CALL_LOG_VARIABLE } from '../../../../lib/commands/aws/iam-prefixes';
import { ENGINES, SUPPORTED_NODE_MAJORS } from '../../../support/node-versions';
import { tempDir } from '../../../support/temp-dir';

const ROOT = join(__dirname, '../../../..');
const supported = SUPPORTED_NODE_MAJORS.includes(process.versions.node.split('.')[0]);

/*
 * The SDK warns on stderr, at the first client a process makes, when it runs on a Node.js it is
 * dropping. The tests switch that warning off for their own commands; here it is on, as a user
 * has it: on every Node.js `engines` declares (CI runs this file on each), no client the
 * commands make may print it; on any other it must still reach the user, who is told to upgrade.
 */
test(`the SDK's Node.js version warning ${supported ? 'never reaches a user' : 'still reaches a user'} on ${process.version} (engines: ${ENGINES})`, async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing' };
  delete env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  const script =
    "const m = await import('./lib/commands/aws/clients.ts'); const { AWS_CLIENTS } = m.default ?? m;" +
    "const made = Object.values(AWS_CLIENTS).map((f) => f({ region: 'eu-west-1' }));" +
    'console.log(made.length);';
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, env });
  expect(Number(stdout.trim())).toBeGreaterThanOrEqual(8);
  if (supported) expect(stderr).toBe('');
  else expect(stderr).toMatch(/NodeVersionSupportWarning: The AWS SDK for JavaScript \(v3\)/);
}, 30_000);

/** A client whose calls are answered before they are signed or sent: what is logged is what was asked for. */
function answeredLocally<C extends { middlewareStack: { add: (...a: any[]) => void } }>(client: C): C {
  client.middlewareStack.add(() => async () => ({ output: { $metadata: {} } }), { step: 'initialize', priority: 'low' });
  return client;
}

test("the call log (DB_BENCH_AWS_CALL_LOG): every call's IAM action, a line each, as the command makes it; nothing when not asked for", async () => {
  const log = join(tempDir('call-log-'), 'calls.log');
  const target = { region: 'eu-west-1' };
  await answeredLocally(AWS_CLIENTS.ecs(target)).send(new ListTasksCommand({ cluster: 'c' }));
  expect(existsSync(log)).toBe(false);
  process.env[CALL_LOG_VARIABLE] = log;
  try {
    await answeredLocally(AWS_CLIENTS.ecs(target)).send(new ListTasksCommand({ cluster: 'c' }));
    await answeredLocally(AWS_CLIENTS.autoScaling(target)).send(new DescribeAutoScalingGroupsCommand({}));
  } finally {
    delete process.env[CALL_LOG_VARIABLE];
  }
  expect(readFileSync(log, 'utf8')).toBe('ecs:ListTasks\nautoscaling:DescribeAutoScalingGroups\n');
});
