import { withDeadline } from '../../../../lib/commands/aws/deadline';
import { CommandFailure, EXIT_TIMEOUT } from '../../../../lib/commands/shared/cli';
import { waitUntil, withinTimeout } from '../../../../lib/commands/shared/waiting';

/* A command's --timeout bounds its waits even while an AWS call in them goes unanswered. */

const unanswered = () => withDeadline('ecs:ListTasks', 'http://127.0.0.1:9', () => new Promise<never>(() => undefined));

test('a wait whose check hangs on AWS ends at its timeout, saying what it last saw and which call went unanswered', async () => {
  let looks = 0;
  const started = Date.now();
  const error = await waitUntil('the workers', async () => (++looks === 1 ? { done: false, text: '1 of 2 running' } : unanswered()), {
    timeoutSeconds: 1,
    intervalSeconds: 0.1,
  }).catch((e: unknown) => e);
  expect(Date.now() - started).toBeLessThan(2_500);
  expect(error).toBeInstanceOf(CommandFailure);
  expect((error as CommandFailure).exitCode).toBe(EXIT_TIMEOUT);
  expect((error as Error).message).toBe(
    'timed out after 1 s waiting for the workers; last seen: 1 of 2 running; ecs:ListTasks at http://127.0.0.1:9 unanswered',
  );
});

test('a command that waits for nothing but AWS (bench status --timeout) ends at its timeout as one', async () => {
  const error = await withinTimeout(0.3, "TemporalDsql's fleet", unanswered).catch((e: unknown) => e);
  expect((error as CommandFailure).exitCode).toBe(EXIT_TIMEOUT);
  expect((error as Error).message).toBe("timed out after 0.3 s waiting for TemporalDsql's fleet; last seen: ecs:ListTasks at http://127.0.0.1:9 unanswered");
  await expect(withinTimeout(5, 'x', async () => 'answered')).resolves.toBe('answered');
});
