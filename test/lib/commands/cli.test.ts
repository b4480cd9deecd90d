import { ConfigError } from '../../../config';
import { progress, runCommand } from '../../../lib/commands/cli';

/* Long waits talk in every setting: a line in place on a terminal, lines with elapsed time in a log. */

function stream(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream };
}

test('without a terminal: a line per change (at most every 10 s), repeated each minute, each with the time elapsed', () => {
  let t = 0;
  const out = stream(false);
  const p = progress(out.stream, { now: () => t });
  p.update('task pending');
  t = 4_000;
  p.update('task running'); // too soon after the last line
  t = 12_000;
  p.update('task running');
  t = 50_000;
  p.update('task running'); // unchanged, not yet a minute
  t = 72_000;
  p.update('task running');
  t = 3_725_000;
  p.update('task stopped');
  expect(out.written).toEqual(['[0s] task pending\n', '[12s] task running\n', '[1m12s] task running\n', '[1h02m] task stopped\n']);
});

test('on a terminal: one line rewritten in place, cleared before an error is printed', async () => {
  const out = stream(true);
  const p = progress(out.stream, { now: () => 90_000 });
  p.update('GetMetricData: batch 1/3');
  expect(out.written).toEqual(['\r\x1b[2KGetMetricData: batch 1/3 (0s)']);
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const before = process.exitCode;
  try {
    await runCommand(async () => {
      throw new ConfigError('--period "30s" is not valid');
    });
    expect(out.written.at(-1)).toBe('\r\x1b[2K');
    expect(stderr).toHaveBeenCalledWith('error: --period "30s" is not valid\n');
  } finally {
    stderr.mockRestore();
    process.exitCode = before;
  }
});
