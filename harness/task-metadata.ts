import { type Server, createServer } from 'node:http';
import type { TemporalRole } from '../config';
import { temporalServiceName } from '../lib/temporal/contract/temporal-names';

/**
 * The ECS task metadata endpoint (v4) as the agent serves it to a task: `/task` describes
 * the task and its awsvpc interface. Every role's address is 127.0.0.1 here. The body keeps
 * the shape and the indentation of the example in the ECS documentation, so the start
 * command's parsing is held to the pretty-printed form as well as the compact one.
 */
function taskMetadata(taskId: string, ip: string): string {
  const body = {
    Cluster: 'temporal-dsql',
    TaskARN: `arn:aws:ecs:eu-west-1:111122223333:task/temporal-dsql/${taskId}`,
    Family: temporalServiceName(taskId.split('-')[0] as TemporalRole),
    Revision: '1',
    DesiredStatus: 'RUNNING',
    KnownStatus: 'RUNNING',
    Containers: [
      {
        Name: 'temporal',
        Image: 'temporal-dsql:1.30.0-dsql-e74d6b69',
        Networks: [{ NetworkMode: 'awsvpc', IPv4Addresses: [ip], AttachmentIndex: 0, IPv4SubnetCIDRBlock: `${ip}/32`, PrivateDNSName: 'localhost' }],
      },
    ],
    LaunchType: 'EC2',
  };
  return JSON.stringify(body, null, 4);
}

/** The metadata endpoint, per task: `/v4/<task id>/task` answers with that task's address. */
export async function serveMetadata(addresses: ReadonlyMap<string, string>): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const m = /^\/v4\/([a-z0-9-]+)\/task$/.exec(req.url ?? '');
    const ip = m ? addresses.get(m[1]) : undefined;
    res.writeHead(ip ? 200 : 404, { 'content-type': 'application/json' });
    res.end(ip ? taskMetadata(m![1], ip) : '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}/v4` };
}
