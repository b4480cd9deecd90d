#!/usr/bin/env bash
# The integration suite: builds what it needs (scripts/setup-integration.sh, idempotent and
# cached), runs the benchmark program's Go tests, then starts real servers on this machine
# (test/integration). The whole run stops itself after 25 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-integration.sh
(cd benchmark && GOFLAGS=-buildvcs=false go test ./...)
timeout --kill-after=30s 25m npx jest -c jest.integration.config.js "$@"
