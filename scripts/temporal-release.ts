/*
 * Prints the upstream Temporal releases the local tests run, as Go module versions, one a line:
 * config's servers.upstream.release (v1.32.2), then the release the upgrade test starts from.
 * Config is the one place they are written; scripts/setup-integration.sh builds each.
 */
import { TEMPORAL_ENVIRONMENT } from '../config/temporal-environment';

const { upstream } = TEMPORAL_ENVIRONMENT.servers;
process.stdout.write(`v${upstream.release}\nv${upstream.upgradeTestedFrom}\n`);
