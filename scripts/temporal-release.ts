/*
 * Prints the upstream Temporal releases the local tests run, as Go module versions, one a line:
 * config's servers.upstream.release (v1.32.2), then the release the upgrade test starts from.
 * With --ui: the Web UI's release, the tag of config's images.ui (its ui-server module's version).
 * Config is the one place they are written; scripts/setup-integration.sh builds each.
 */
import { TEMPORAL_ENVIRONMENT } from '../config/temporal-environment';
import { uiRelease } from '../harness/binaries';

const { upstream } = TEMPORAL_ENVIRONMENT.servers;
process.stdout.write(process.argv.includes('--ui') ? `v${uiRelease()}\n` : `v${upstream.release}\nv${upstream.upgradeTestedFrom}\n`);
