/*
 * Prints the upstream Temporal release the local tests run, as the Go module version
 * (v1.32.2): config's servers.upstream.release, the one place it is written. Read by
 * scripts/setup-integration.sh.
 */
import { TEMPORAL_ENVIRONMENT } from '../config/temporal-environment';

process.stdout.write(`v${TEMPORAL_ENVIRONMENT.servers.upstream.release}\n`);
