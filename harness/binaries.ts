import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TEMPORAL_ENVIRONMENT } from '../config/temporal-environment';
import type { TaskImage } from '../config/fields';
import { cacheDir } from './cache-dir';

/*
 * Where scripts/setup-integration.sh puts what it builds: one cache directory, keyed by the
 * Temporal releases in config (servers.upstream: the release, and the one the upgrade test
 * starts from), so a version bump builds afresh and nothing stale runs.
 */

const { upstream } = TEMPORAL_ENVIRONMENT.servers;

export interface Binaries {
  /** The upstream release they were built from. */
  readonly release: string;
  /** Holds temporal-server and temporal-sql-tool. */
  readonly serverDir: string;
  readonly sqlTool: string;
  readonly benchmark: string;
  /** The upstream module's source: its stock development config lives here. */
  readonly serverSource: string;
  /** The Web UI's server at config's images.ui release, and the root its config dir (the image's docker.yaml) is under. */
  readonly ui: { readonly server: string; readonly root: string };
}

/** The Web UI release the stack deploys: the tag of config's images.ui, which the local build must match. */
export function uiRelease(ref: TaskImage = TEMPORAL_ENVIRONMENT.images.ui): string {
  const tag = 'registry' in ref ? /^docker\.io\/temporalio\/ui:(\d+\.\d+\.\d+)$/.exec(ref.registry)?.[1] : undefined;
  if (!tag) throw new Error(`images.ui ${JSON.stringify(ref)} is not docker.io/temporalio/ui:<release>: the local tests build that release's ui-server`);
  return tag;
}

/** A release's server and tools (config's release unless another is named: the upgrade test's older one). */
export function binaries(release: string = upstream.release): Binaries {
  if (release !== upstream.release && release !== upstream.upgradeTestedFrom)
    throw new Error(
      `binaries: ${release} is not built here (setup builds ${upstream.release} and ${upstream.upgradeTestedFrom}, from config's servers.upstream)`,
    );
  const serverDir = join(cacheDir(), `temporal-server-v${release}`);
  const uiRoot = join(cacheDir(), `temporal-ui-v${uiRelease()}`);
  const b = {
    release,
    serverDir,
    sqlTool: join(serverDir, 'temporal-sql-tool'),
    benchmark: join(cacheDir(), 'benchmark/benchmark'),
    serverSource: join(serverDir, 'source'),
    ui: { server: join(uiRoot, 'ui-server'), root: uiRoot },
  };
  for (const path of [join(serverDir, 'temporal-server'), b.sqlTool, b.benchmark, b.serverSource, b.ui.server, join(uiRoot, 'config/docker.yaml')])
    if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run setup:integration\` first`);
  return b;
}
