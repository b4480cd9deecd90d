import { createServer } from 'node:net';
import { ListTasksCommand } from '@aws-sdk/client-ecs';
import { type BlackHole, startBlackHole } from '../../../../harness/black-hole';
import { AWS_CLIENTS } from '../../../../lib/commands/aws/clients';
import {
  abandonAwsCalls,
  AWS_TIMEOUTS,
  AwsNoAnswer,
  CALL_SECONDS_VARIABLE,
  callSeconds,
  withDeadline,
  withinWait,
} from '../../../../lib/commands/aws/deadline';

/*
 * An endpoint that accepts a connection and never answers (a black-holed proxy, a half-open VPC
 * endpoint): every call through the commands' clients ends by its deadline, naming the call and
 * the endpoint, and leaves no socket open behind it.
 */

let hole: BlackHole;
let url: string;

beforeAll(async () => {
  hole = await startBlackHole();
  url = hole.endpoint;
});
afterAll(() => hole.stop());

beforeEach(() => {
  process.env[CALL_SECONDS_VARIABLE] = '1';
  process.env.AWS_ACCESS_KEY_ID = 'testing';
  process.env.AWS_SECRET_ACCESS_KEY = 'testing';
});
afterEach(() => {
  delete process.env[CALL_SECONDS_VARIABLE];
});

const settled = async () => {
  for (let i = 0; i < 50 && hole.open(); i++) await new Promise((r) => setTimeout(r, 20));
};

test('a call to an endpoint that never answers ends at its deadline, one line naming the call and the endpoint, and closes its socket', async () => {
  const started = Date.now();
  const error = await AWS_CLIENTS.ecs({ region: 'eu-west-1', endpoint: url })
    .send(new ListTasksCommand({ cluster: 'c' }))
    .catch((e: unknown) => e);
  expect(Date.now() - started).toBeLessThan(3_000);
  expect(error).toBeInstanceOf(AwsNoAnswer);
  expect((error as Error).message).toBe(
    `AWS did not answer ecs:ListTasks at ${url} within 1 s (check the endpoint and the network; ${CALL_SECONDS_VARIABLE} sets how long a call may take)`,
  );
  await settled();
  expect(hole.open()).toBe(0);
});

test("each attempt fails past its own time rather than only warning (the SDK's default), and is retried within the call's", async () => {
  const handler = AWS_CLIENTS.ecs({ region: 'eu-west-1' }).config.requestHandler as unknown as { configProvider: Promise<object> };
  expect(await handler.configProvider).toMatchObject({
    connectionTimeout: AWS_TIMEOUTS.connectSeconds * 1000,
    requestTimeout: AWS_TIMEOUTS.attemptSeconds * 1000,
    throwOnRequestTimeout: true,
  });
  expect(AWS_TIMEOUTS.attemptSeconds * 2).toBeLessThan(AWS_TIMEOUTS.callSeconds);
});

test('a refused connection fails at once, naming the call and what Node said', async () => {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as { port: number }).port;
  await new Promise((r) => closed.close(r));
  process.env[CALL_SECONDS_VARIABLE] = '30';
  const started = Date.now();
  const error = await AWS_CLIENTS.ecs({ region: 'eu-west-1', endpoint: `http://127.0.0.1:${port}` })
    .send(new ListTasksCommand({ cluster: 'c' }))
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AwsNoAnswer);
  expect((error as Error).message).toBe(`AWS could not be reached for ecs:ListTasks at http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`);
  // The adaptive retries back off a few seconds in all; the call's deadline is far off.
  expect(Date.now() - started).toBeLessThan(20_000);
}, 30_000);

test("inside a wait that ends first, the call fails as the wait's timeout, not its own", async () => {
  process.env[CALL_SECONDS_VARIABLE] = '30';
  const error = await withinWait({ at: Date.now() + 300, expired: (call) => new Error(`the wait ended; ${call} unanswered`) }, () =>
    AWS_CLIENTS.ecs({ region: 'eu-west-1', endpoint: url }).send(new ListTasksCommand({ cluster: 'c' })),
  ).catch((e: unknown) => e);
  expect((error as Error).message).toBe(`the wait ended; ecs:ListTasks at ${url} unanswered`);
  // A nested wait ending later does not lift the outer one's end.
  const nested = await withinWait({ at: Date.now() + 200, expired: () => new Error('outer') }, () =>
    withinWait({ at: Date.now() + 60_000, expired: () => new Error('inner') }, () => withDeadline('x:Y', 'here', () => new Promise(() => undefined))),
  ).catch((e: unknown) => e);
  expect((nested as Error).message).toBe('outer');
});

test('a command that has ended abandons the calls it left in flight', async () => {
  process.env[CALL_SECONDS_VARIABLE] = '30';
  const call = AWS_CLIENTS.ecs({ region: 'eu-west-1', endpoint: url })
    .send(new ListTasksCommand({ cluster: 'c' }))
    .catch((e: unknown) => e);
  for (let i = 0; i < 50 && !hole.open(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(hole.open()).toBe(1);
  abandonAwsCalls();
  expect(((await call) as Error).message).toBe('abandoned: the command has ended');
  await settled();
  expect(hole.open()).toBe(0);
});

test('an answer, or an error AWS gave, passes through unchanged', async () => {
  await expect(withDeadline('x:Y', 'here', async () => 42)).resolves.toBe(42);
  const said = Object.assign(new Error('User is not authorized'), { name: 'AccessDeniedException', $metadata: {}, $response: {} });
  await expect(withDeadline('x:Y', 'here', async () => Promise.reject(said))).rejects.toBe(said);
});

test(`${CALL_SECONDS_VARIABLE}: seconds from 1 to 3600, refused in one line otherwise`, () => {
  expect(callSeconds({})).toBe(60);
  expect(callSeconds({ [CALL_SECONDS_VARIABLE]: '90' })).toBe(90);
  for (const bad of ['', '0', '-5', 'ten', '3601', '1e9'])
    expect(() => callSeconds({ [CALL_SECONDS_VARIABLE]: bad })).toThrow(
      `${CALL_SECONDS_VARIABLE}="${bad}" is not valid (valid: seconds one AWS call may take, from 1 to 3600; unset: 60)`,
    );
});
