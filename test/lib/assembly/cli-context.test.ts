import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cdkCliArgv, repeatedContext } from '../../../lib/assembly/cli-context';
import { tempDir } from '../../support/temp-dir';

describe('repeatedContext', () => {
  test.each([
    [['synth', '-c', 'scenario=test12', '-c', 'scenario=test13'], '-c scenario is given 2 times (test12, test13): give it once, with the one value meant'],
    [
      ['deploy', '--context', 'scenario=test12', '--context=scenario=test1', '--all'],
      '-c scenario is given 2 times (test12, test1): give it once, with the one value meant',
    ],
    [['synth', '-c', 'envName=a', '-c', 'scenario=test12', '-c', 'envName=b'], '-c envName is given 2 times (a, b): give it once, with the one value meant'],
  ])('%j is refused', (argv, message) => {
    expect(repeatedContext(argv)?.message).toBe(message);
  });

  test.each([
    [['synth', '-c', 'scenario=test12']],
    [['synth', '-c', 'scenario=test12', '-c', 'scenario=test12']],
    [['synth', '-c', 'validate=true', '-c', 'scenario=test12']],
    [['synth', '-c']],
    [[]],
  ])('%j is not', (argv) => {
    expect(repeatedContext(argv)).toBeUndefined();
  });
});

describe('cdkCliArgv', () => {
  /** A /proc holding this process's parent (sh) and grandparent (the CLI). */
  function proc(cli: string[]): string {
    const dir = tempDir('proc-');
    const entry = (pid: number, argv: string[], parent: number) => {
      mkdirSync(join(dir, String(pid)));
      writeFileSync(join(dir, String(pid), 'cmdline'), argv.join('\0') + '\0');
      writeFileSync(join(dir, String(pid), 'stat'), `${pid} (a name with spaces) S ${parent} 1 1`);
    };
    entry(process.ppid, ['/bin/sh', '-c', 'node bin/app.ts'], 4242);
    entry(4242, cli, 1);
    return dir;
  }

  test("reads the CDK CLI's arguments from the nearest ancestor running it", () => {
    expect(cdkCliArgv(proc(['node', '/w/node_modules/.bin/cdk', 'synth', '-c', 'scenario=a']))).toEqual(['synth', '-c', 'scenario=a']);
    expect(cdkCliArgv(proc(['node', '/w/node_modules/aws-cdk/bin/cdk', 'deploy']))).toEqual(['deploy']);
  });

  test('nothing when no ancestor is the CLI, or /proc cannot be read', () => {
    expect(cdkCliArgv(proc(['node', '/w/bin/app.ts']))).toBeUndefined();
    expect(cdkCliArgv(join(tempDir('proc-'), 'none'))).toBeUndefined();
  });
});
