import { type AddressInfo, type Server, type Socket, connect, createServer } from 'node:net';
import { ServiceName } from '../../../harness/service-name';

/*
 * The Cloud Map stand-in every local client call crosses adds about nothing to a call: a small
 * request-response, written the way gRPC writes (a frame header, then its body, as two writes),
 * round-trips through it within a millisecond of the direct path. The same measurement through
 * a forwarder that leaves Nagle's algorithm on shows the delay it would add, so the bound can fail.
 */

const HEADER = 5;
const BODY = 64;

/** Answers each request (header + body) with a reply written the same way, as a gRPC server does. */
function echoServer(): Promise<Server> {
  const server = createServer({ noDelay: true }, (socket) => {
    let buffered = 0;
    socket.on('data', (chunk) => {
      buffered += chunk.length;
      while (buffered >= HEADER + BODY) {
        buffered -= HEADER + BODY;
        socket.write(Buffer.alloc(HEADER));
        setTimeout(() => socket.write(Buffer.alloc(BODY)), 1);
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Median round trip, in ms, of `calls` requests one after another on one connection. */
async function medianRoundTripMs(port: number, calls: number): Promise<number> {
  const socket: Socket = connect({ port, host: '127.0.0.1', noDelay: true });
  await new Promise((resolve) => socket.once('connect', resolve));
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = process.hrtime.bigint();
    const reply = new Promise<void>((resolve) => {
      let got = 0;
      const onData = (chunk: Buffer) => {
        got += chunk.length;
        if (got >= HEADER + BODY) {
          socket.off('data', onData);
          resolve();
        }
      };
      socket.on('data', onData);
    });
    socket.write(Buffer.alloc(HEADER));
    await new Promise((resolve) => setTimeout(resolve, 1));
    socket.write(Buffer.alloc(BODY));
    await reply;
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  socket.destroy();
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** What the stand-in was before: a plain pipe with Nagle's algorithm on both sockets. */
function naggingForwarder(target: number): Promise<Server> {
  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let echo: Server;
let echoPort: number;
beforeAll(async () => {
  echo = await echoServer();
  echoPort = (echo.address() as AddressInfo).port;
});
afterAll(() => echo.close());

test('the stand-in adds at most about a millisecond to a small request-response round trip', async () => {
  const name = new ServiceName(0);
  name.register(`127.0.0.1:${echoPort}`);
  await name.listen('127.0.0.1:0');
  const port = (name as unknown as { server: Server }).server.address() as AddressInfo;
  try {
    const direct = await medianRoundTripMs(echoPort, 100);
    const through = await medianRoundTripMs(port.port, 100);
    expect(through - direct).toBeLessThan(1);
  } finally {
    name.close();
  }
});

test('the measurement sees the delay a forwarder with Nagle on adds', async () => {
  const nagging = await naggingForwarder(echoPort);
  try {
    const direct = await medianRoundTripMs(echoPort, 30);
    const through = await medianRoundTripMs((nagging.address() as AddressInfo).port, 30);
    expect(through - direct).toBeGreaterThan(10);
  } finally {
    nagging.close();
  }
}, 15_000);
