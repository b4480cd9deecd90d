import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Postgres } from './postgres';

/**
 * What RDS does for a user granted rds_iam, done here: a token the servers' passwordCommand
 * prints is accepted as that user's password, and a new token makes the old one useless for
 * new connections (a token's expiry), while open connections stay. The stand-in command
 * records each call's arguments in the task's /tmp and prints the current token.
 */
export interface LocalIamAuth {
  /** The stand-in for docker/temporal-aurora's signer, and the folder it is in (read-only in the task). */
  readonly command: string;
  readonly dir: string;
  /** Accepts the current token for `user` (once its login exists: the schema task makes it). */
  admit(user: string): Promise<void>;
  /** A new token for every admitted user; the old one no longer logs in. */
  rotate(): Promise<void>;
  /** The token that logs in now. */
  current(): string;
  /** Each call a task's server made, as the arguments it passed. */
  calls(task: { readonly tmp: string }): string[];
}

const TOKEN_CALLS = 'rds-iam-token.calls';

export function localIamAuth(pg: Postgres, parent: string): LocalIamAuth {
  const dir = join(parent, 'iam');
  mkdirSync(dir);
  const [command, tokenFile] = [join(dir, 'rds-iam-token'), join(dir, 'token')];
  writeFileSync(command, `#!/bin/sh\nprintf '%s\\n' "$*" >> /tmp/${TOKEN_CALLS}\nexec cat ${tokenFile}\n`, { mode: 0o755 });
  const admitted = new Set<string>();
  let n = 0;
  const token = () => `local-iam-token-${++n}-${process.pid}`;
  let current = token();
  writeFileSync(tokenFile, `${current}\n`);
  const accept = (user: string) => pg.psql(`ALTER ROLE "${user}" PASSWORD '${current}'`);
  return {
    command,
    dir,
    admit: async (user) => {
      if (admitted.has(user)) return;
      await accept(user);
      admitted.add(user);
    },
    rotate: async () => {
      current = token();
      for (const user of admitted) await accept(user);
      writeFileSync(tokenFile, `${current}\n`);
    },
    current: () => current,
    calls: (task) => {
      const file = join(task.tmp, TOKEN_CALLS);
      return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
    },
  };
}
