import { spawn } from 'node:child_process';
import { exitWithOutput } from '../../harness/processes';

/* A child's exit, read with its output whole: fed a child whose output outlasts its exit, and one whose descendant holds the pipe. */

const run = (script: string, drainMs?: number) => {
  const child = spawn('/bin/sh', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  const started = Date.now();
  return exitWithOutput(child, drainMs).then((exit) => {
    // A descendant may still hold the pipe's other end: this end is let go.
    child.stdout.destroy();
    child.stderr.destroy();
    return { ...exit, output, seconds: (Date.now() - started) / 1000 };
  });
};

test("a child's last output, still in the pipe when it exits, is read before its exit resolves", async () => {
  // Written after the exit, by what it left behind: always missed by a wait for 'exit' alone.
  expect(await run('(sleep 0.2; echo written late) & exit 3')).toMatchObject({ code: 3, output: 'written late\n' });
  // 4 MiB: far more than a pipe holds, so its end is still unread when the writer exits.
  const r = await run('head -c 4194304 /dev/zero; exit 3');
  expect({ code: r.code, length: r.output.length }).toEqual({ code: 3, length: 4194304 });
});

test('a descendant left holding the pipe is waited for only the drain time', async () => {
  const r = await run('sleep 5 & echo started', 300);
  expect(r).toMatchObject({ code: 0, signal: null, output: 'started\n' });
  expect(r.seconds).toBeLessThan(3);
  expect(r.at).toBeLessThanOrEqual(Date.now());
});
