import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A stand-in for AWS's control plane on loopback: each action a POST of JSON, served one at a
 * time in arrival order; an action goes on to its end when its caller is killed, as a
 * CloudFormation deploy or an ECS task outlives the program that asked for it.
 */

export type Actions = Record<string, (body: any) => Promise<Record<string, unknown>>>;

export interface ActionServer {
  readonly url: string;
  /** Stops taking requests and waits for the one under way. */
  close(): Promise<void>;
}

/**
 * Serves `actions`; `log` gets a line as each ends (how long it took, how it ended: for a
 * failure's message). `arrived` sees each request as it arrives, before those queued ahead of it.
 */
export async function serveActions(actions: Actions, log: string[], arrived?: (name: string) => void): Promise<ActionServer> {
  let queue: Promise<unknown> = Promise.resolve();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const name = (req.url ?? '').slice(1);
      const action = actions[name];
      const done = (status: number, payload: Record<string, unknown>) => {
        if (!res.destroyed) res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      };
      if (!action) return done(404, { error: `no action ${req.url}` });
      arrived?.(name);
      queue = queue.then(() => {
        const began = Date.now();
        const said = (how: string) => log.push(`${name} ${body}: ${how} after ${((Date.now() - began) / 1000).toFixed(1)} s`);
        return action(JSON.parse(body || '{}')).then(
          (r) => (said('done'), done(200, r)),
          (e: Error) => (said(`failed: ${e.message}`), done(500, { error: e.message })),
        );
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.close();
      await queue.catch(() => undefined);
    },
  };
}
