import { type Socket, createServer, connect } from 'node:net';

/**
 * The frontends' Cloud Map name on one host: a TCP forwarder on the rendered frontend port
 * that hands each new connection to a registered task in turn. A deregistered task stays in
 * resolvers' answers for the record's TTL, as a DNS answer is cached (ttlMs).
 *
 * Every client call crosses it, so it must add nothing a real DNS name does not: both sockets
 * send at once (no Nagle). With Nagle on, gRPC's frames (written in several small writes)
 * waited for the peer's delayed ACK, about 40 ms a call, and that wait dominated every
 * latency the local cluster reported. test/harness/service-name.test.ts bounds what it adds.
 */
export class ServiceName {
  private readonly targets = new Map<string, number>();
  private readonly sockets = new Set<Socket>();
  private next = 0;
  private readonly server = createServer({ noDelay: true }, (client) => {
    const now = Date.now();
    const live = [...this.targets].filter(([, until]) => until > now).map(([t]) => t);
    if (!live.length) {
      client.destroy();
      return;
    }
    const [host, port] = live[this.next++ % live.length].split(':');
    const upstream = connect({ port: Number(port), host, noDelay: true });
    client.setNoDelay(true);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ]) {
      this.sockets.add(a);
      a.pipe(b);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        b.destroy();
        this.sockets.delete(a);
      });
    }
  });

  constructor(private readonly ttlMs: number) {}

  listen(address: string): Promise<void> {
    const [host, port] = address.split(':');
    return new Promise((resolve, reject) => this.server.once('error', reject).listen(Number(port), host, () => resolve()));
  }

  register(target: string): void {
    this.targets.set(target, Number.POSITIVE_INFINITY);
  }

  deregister(target: string): void {
    if (this.targets.has(target)) this.targets.set(target, Date.now() + this.ttlMs);
  }

  close(): void {
    for (const socket of this.sockets) socket.destroy();
    this.server.close();
  }
}
