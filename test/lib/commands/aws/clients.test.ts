import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ENGINES, SUPPORTED_NODE_MAJORS } from '../../../support/node-versions';

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
