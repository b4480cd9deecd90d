import { ConfigError } from '../../../../config';
import { AwsNoAnswer } from '../../../../lib/commands/aws/deadline';
import { EXIT_INTERRUPTED, NO_CREDENTIALS, newCommand, onInterrupt, runCommand } from '../../../../lib/commands/shared/cli';
import { span } from '../../../../lib/commands/shared/option-values';
import { progress } from '../../../../lib/commands/shared/progress';

/* Long waits talk in every setting: a line in place on a terminal, lines with elapsed time in a log. */

function stream(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream };
}

test('a span is written as Go writes a duration, to a tenth of a second, never with 60 seconds or minutes', () => {
  expect([0, 90, 1800, 7200, 5400, 119.6, 119.96, 3599.99, 308].map(span)).toEqual(['0s', '1m30s', '30m', '2h', '1h30m', '1m59.6s', '2m', '1h', '5m8s']);
});

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

/** Runs `main` through runCommand and returns what it printed and the exit code it set. */
async function outcome(main: () => Promise<void>): Promise<{ stderr: string; exitCode: number | string | undefined }> {
  const written: string[] = [];
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((s) => (written.push(String(s)), true));
  const before = process.exitCode;
  try {
    await runCommand(main);
    return { stderr: written.join(''), exitCode: process.exitCode };
  } finally {
    stderr.mockRestore();
    process.exitCode = before;
  }
}

test("no credentials: says which variables or profile to set and that --endpoint-url reaches an emulator (exit 2), not the SDK's words", async () => {
  const r = await outcome(async () => {
    throw Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' });
  });
  expect(r).toEqual({ stderr: `error: ${NO_CREDENTIALS}\n`, exitCode: 2 });
  expect(NO_CREDENTIALS).toMatch(
    /AWS_PROFILE.*AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.*emulator.*--endpoint-url.*still needs some: AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing/,
  );
});

test('user text in a message is shown on one line: escapes escaped, newlines shown, long values shortened', async () => {
  const r = await outcome(async () => {
    throw new ConfigError(`unknown scenario "te\x1b[31mst\nx"; also "${'a'.repeat(100_000)}"`);
  });
  expect(r.exitCode).toBe(1);
  expect(r.stderr).toBe(`error: unknown scenario "te\\x1b[31mst\\nx"; also "${'a'.repeat(100)}..." (100000 characters)\n`);
});

test('an AWS error message is one line even when the service sends more', async () => {
  const r = await outcome(async () => {
    throw Object.assign(new Error('Access denied\nsecond line'), { name: 'AccessDeniedException', $metadata: {} });
  });
  expect(r).toEqual({ stderr: 'error: AWS AccessDeniedException: Access denied\n', exitCode: 2 });
});

test('AWS that did not answer: the one line that names the call and the endpoint, exit 2', async () => {
  const r = await outcome(async () => {
    throw new AwsNoAnswer('AWS did not answer ecs:ListTasks at http://127.0.0.1:9 within 60 s');
  });
  expect(r).toEqual({ stderr: 'error: AWS did not answer ecs:ListTasks at http://127.0.0.1:9 within 60 s\n', exitCode: 2 });
});

test("an endpoint that answers with no AWS error (a 404 from a proxy) is said as what it answered, not the SDK's 'Unknown'", async () => {
  const r = await outcome(async () => {
    throw Object.assign(new Error('Unknown'), { name: 'NotFound', $metadata: { httpStatusCode: 404 } });
  });
  expect(r).toEqual({
    stderr: 'error: AWS NotFound: the endpoint answered HTTP 404 and no AWS error (is --endpoint-url an AWS API or its emulator?)\n',
    exitCode: 2,
  });
});

test('no credentials from the profile AWS_PROFILE names: the profile named, not "set AWS_PROFILE"', async () => {
  const before = process.env.AWS_PROFILE;
  process.env.AWS_PROFILE = 'doesnotexist';
  try {
    const r = await outcome(async () => {
      throw Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' });
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      'error: AWS_PROFILE=doesnotexist gave no credentials: the profile is not in ~/.aws/config or ~/.aws/credentials, or its session has expired ' +
        '(valid: a profile `aws configure list-profiles` lists; for an SSO profile, `aws sso login --profile doesnotexist` first)\n',
    );
  } finally {
    if (before === undefined) delete process.env.AWS_PROFILE;
    else process.env.AWS_PROFILE = before;
  }
});

test('a value option given twice is refused, naming both values, with a default and in a subcommand too; one given once is not', () => {
  const program = () =>
    newCommand('x', { aws: false })
      .exitOverride()
      .configureOutput({ writeErr: () => undefined })
      .option('-s, --scenario <name>')
      .option('--interval <d>', 'poll', '10s');
  const withRun = () => {
    const p = program();
    p.command('run')
      .option('--rate <n>')
      .action(() => undefined);
    return p;
  };
  expect(program().parse(['--scenario', 'a', '--interval', '5s'], { from: 'user' }).opts()).toEqual({ scenario: 'a', interval: '5s' });
  expect(() => program().parse(['--scenario', 'test1', '--scenario', 'test2'], { from: 'user' })).toThrow(
    '--scenario is given twice ("test1", then "test2"); valid: one --scenario',
  );
  expect(() => withRun().parse(['run', '--rate', '1', '--rate', '2'], { from: 'user' })).toThrow('--rate is given twice ("1", then "2"); valid: one --rate');
  expect(() => program().parse(['--interval', '5s', '--interval', '7s'], { from: 'user' })).toThrow(
    '--interval is given twice ("5s", then "7s"); valid: one --interval',
  );
  expect(program().parse([], { from: 'user' }).opts()).toEqual({ interval: '10s' });
  // A program parsed twice starts each parse with nothing given.
  const twice = program();
  twice.parse(['--scenario', 'a'], { from: 'user' });
  expect(twice.parse(['--scenario', 'b'], { from: 'user' }).opts()).toMatchObject({ scenario: 'b' });
});

describe('Ctrl-C while something runs in AWS', () => {
  test('says what still runs and how to stop it, and exits 130', async () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation(((code: number) => {
      throw Object.assign(new Error('exit'), { code });
    }) as never);
    const written: string[] = [];
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((s) => (written.push(String(s)), true));
    let started: string | undefined;
    const listeners = process.listenerCount('SIGINT');
    try {
      const run = runCommand(async () => {
        onInterrupt(() => (started ? `task ${started} still runs; stop it: aws ecs stop-task --task ${started}` : undefined));
        started = 'arn:task/1';
        expect(() => process.emit('SIGINT', 'SIGINT')).toThrow('exit');
      });
      await run;
      expect(exit).toHaveBeenCalledWith(EXIT_INTERRUPTED);
      expect(written).toContain('interrupted (SIGINT): task arn:task/1 still runs; stop it: aws ecs stop-task --task arn:task/1\n');
      // Nothing outlives the command: its handlers are gone once it settles.
      expect(process.listenerCount('SIGINT')).toBe(listeners);
    } finally {
      exit.mockRestore();
      stderr.mockRestore();
    }
  });

  test('before anything was started: says so, and exits 130, rather than dying silently', async () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation(((code: number) => {
      throw Object.assign(new Error('exit'), { code });
    }) as never);
    const written: string[] = [];
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((s) => (written.push(String(s)), true));
    const listeners = process.listenerCount('SIGINT');
    try {
      await runCommand(async () => {
        expect(() => process.emit('SIGINT', 'SIGINT')).toThrow('exit');
      });
      expect(exit).toHaveBeenCalledWith(EXIT_INTERRUPTED);
      expect(written).toContain('interrupted (SIGINT): nothing had been started in AWS\n');
      expect(process.listenerCount('SIGINT')).toBe(listeners);
    } finally {
      exit.mockRestore();
      stderr.mockRestore();
    }
  });
});
