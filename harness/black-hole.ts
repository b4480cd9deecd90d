import { createServer, type Socket } from 'node:net';

/**
 * An endpoint that accepts connections and never answers (a black-holed proxy, a half-open VPC
 * endpoint, a stuck emulator), on a free loopback port: what every AWS call must end by its
 * deadline against. `open()` counts the connections still open, so a test sees a call abandon its socket.
 */
export interface BlackHole {
  readonly endpoint: string;
  open(): number;
  stop(): Promise<void>;
}

export async function startBlackHole(): Promise<BlackHole> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('data', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    open: () => sockets.size,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
