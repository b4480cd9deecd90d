import { spawn } from 'node:child_process';
import { CpuSampler, programOf } from '../../harness/cpu-sampler';
import { exitWithOutput } from '../../harness/processes';

describe('the CPU sampler (npm run bench:tooling -- --npm-test --by-program)', () => {
  test.each([
    ['/work/.venv/bin/python /work/test/support/cfn-lint-pass.py schema --judges /tmp/lint-x/judges.json --format json -- a.json', 'cfn-lint, schema pass'],
    ['/work/.venv/bin/python /work/test/support/cfn-lint-pass.py template --format json -- a.json', 'cfn-lint, template pass'],
    ['/work/.venv/bin/python /work/.venv/bin/cfn-lint --format json -- planted.template.json', 'cfn-lint, plain'],
    ['/work/.venv-checkov/bin/python /work/.venv-checkov/bin/checkov --framework cloudformation --file a.json', 'checkov'],
    ['/work/node_modules/@cdklabs/cdk-validator-cfnguard/bin/ubuntu/x86_64/cfn-guard validate --rules r.guard --data a.json', 'cfn-guard'],
    ['/usr/bin/node --import tsx /work/test/support/synth-worker.ts /work/node_modules/.cache/x scenario=baseline', 'synth cache'],
    ['/usr/bin/node --max-semi-space-size=64 /work/node_modules/jest-worker/build/workers/processChild.js', 'Jest workers'],
    ['node --max-semi-space-size=64 node_modules/jest/bin/jest.js', 'Jest'],
    ['/usr/bin/node /work/node_modules/typescript-7/bin/tsc --noEmit', 'tsc'],
    ['/work/node_modules/@typescript/typescript-linux-x64/lib/tsc --noEmit --incremental --tsBuildInfoFile x', 'tsc'],
    ['node /work/node_modules/.bin/prettier --check --log-level warn .', 'prettier'],
    ['node /work/node_modules/.bin/depcruise bin lib config harness scripts test', 'dependency-cruiser'],
    ['node /work/node_modules/.bin/knip --reporter compact --no-progress', 'knip'],
    ['sleep 1', 'other'],
  ])('%s is %s', (commandLine, program) => {
    expect(programOf(commandLine)).toBe(program);
  });

  test("credits a child's CPU to its program, and nothing outside this process's tree", async () => {
    const sampler = new CpuSampler(process.pid, 50).start();
    // A third of a second of CPU (however long a busy machine makes that) in a child of this process, named so that programOf calls it prettier.
    const child = spawn(process.execPath, ['-e', 'for (let u = process.cpuUsage(); u.user + u.system < 300_000; u = process.cpuUsage());', 'prettier']);
    await exitWithOutput(child);
    const { byProgram } = sampler.stop();
    expect(byProgram.get('prettier')).toBeGreaterThanOrEqual(0.15);
    expect(byProgram.get('prettier')).toBeLessThanOrEqual(0.8);

    // A child that has exited and waits to be reaped (its parent sleeping first) has no command line: its CPU stays its program's.
    const zombie = new CpuSampler(process.pid, 50).start();
    const reaper = 'import os, time\nif os.fork() == 0:\n    while sum(os.times()[:2]) < 0.2: pass\n    os._exit(0)\ntime.sleep(0.5)\nos.wait()';
    await exitWithOutput(spawn('python3', ['-c', reaper, 'prettier']));
    expect(zombie.stop().byProgram.get('prettier')).toBeGreaterThanOrEqual(0.12);

    // Rooted at another process (the child's parent being this one, not it), the same child is not seen.
    const elsewhere = new CpuSampler(1 << 22, 50).start();
    await exitWithOutput(spawn(process.execPath, ['-e', 'for (let u = process.cpuUsage(); u.user + u.system < 100_000; u = process.cpuUsage());', 'prettier']));
    expect(elsewhere.stop().byProgram.size).toBe(0);
  });
});
