import { createHash } from 'node:crypto';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MOVER_SCRIPT } from '../lib/folio/constructs/schema-mover/mover-bundle';
import type { Postgres } from './postgres';
import { type PostureProcess, spawnInPosture, taskPosture } from './task-posture';

/*
 * The schema mover's own script (lib/folio/constructs/schema-mover/), run against two local
 * servers as the stack's task runs it against the two clusters: for the tests and the benches.
 */

/** The script the task runs, byte for byte, as a file: named by its content, written once (atomically: Jest's workers share it). */
export const MOVER_SCRIPT_FILE = ((): string => {
  const file = join(tmpdir(), `folio-schema-mover-${createHash('sha256').update(MOVER_SCRIPT).digest('hex').slice(0, 16)}.sh`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, MOVER_SCRIPT);
    renameSync(partial, file);
  }
  return file;
})();

/** The task's environment for two local servers: `primary` as the primary cluster, `offload` as the offload one. */
export function moverEnv(primary: Postgres, offload: Postgres, database: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: `${primary.bin}:${process.env.PATH}`,
    PRIMARY_HOST: '127.0.0.1',
    PRIMARY_PORT: String(primary.port),
    OFFLOAD_HOST: '127.0.0.1',
    OFFLOAD_PORT: String(offload.port),
    PGUSER: primary.user,
    PGPASSWORD: primary.password,
    PGDATABASE: database,
    ...extra,
  };
}

export interface MoverRun {
  /** null when it was killed. */
  readonly status: number | null;
  /** Standard output and error, as they came. */
  readonly out: string;
}

/**
 * Runs the script under the mover task's posture, in its own process group (a test can stop or
 * kill all of it: `-child.pid`), calling `onLine` for each line it prints. `outside`: directories
 * of the route stand-ins it reads and its switch command points (on AWS, DNS records outside the
 * task); `hosts`: a file it resolves names by, as its /etc/hosts (on AWS, the VPC's DNS).
 */
export async function runMover(
  env: Record<string, string>,
  onLine?: (line: string, child: PostureProcess) => void,
  outside: readonly string[] = [],
  hosts?: string,
): Promise<MoverRun> {
  const child = await spawnInPosture(taskPosture('folio-schema-mover'), { inputs: [MOVER_SCRIPT_FILE], outside, hosts }, 'sh', [MOVER_SCRIPT_FILE], { env });
  let out = '';
  let partial = '';
  child.sandbox.stdout?.on('data', (d) => {
    out += d;
    const lines = (partial + d).split('\n');
    partial = lines.pop()!;
    for (const line of lines) if (line) onLine?.(line, child);
  });
  child.sandbox.stderr?.on('data', (d) => (out += d));
  const { code } = await child.exited;
  return { status: code, out };
}

/**
 * The modules' routes (MOVE_ROUTES), standing in for the stack's per-module DNS names: a libpq
 * service file that maps each route to a server, and the writer's route file, both rewritten by
 * `point` as `npm run move` rewrites the records at the mover's "switch: ready".
 */
export class Routes {
  readonly serviceFile: string;
  readonly writerRoute: string;

  constructor(
    dir: string,
    private readonly servers: Readonly<Record<string, Postgres>>,
    readonly names: readonly string[],
  ) {
    this.serviceFile = join(dir, `routes-${names.join('-')}.conf`);
    this.writerRoute = join(dir, `route-${names.join('-')}`);
  }

  /** Every route (and the writer) now leads to `server`. */
  point(server: string): void {
    const pg = this.servers[server];
    writeFileSync(this.serviceFile, this.names.map((n) => `[${n}]\nhost=127.0.0.1\nport=${pg.port}\n`).join('\n'));
    writeFileSync(this.writerRoute, server);
  }

  /** The mover's environment for these routes. */
  get env(): Record<string, string> {
    return { MOVE_ROUTES: this.names.map((n) => `service=${n}`).join(' '), PGSERVICEFILE: this.serviceFile };
  }
}
