#!/usr/bin/env bash
# The integration suite: builds what it needs (scripts/setup-integration.sh, idempotent and
# cached), runs the benchmark program's Go tests, then starts real servers on this machine
# (test/integration), and the README's offline try of report and bench (npm run try:offline).
# The whole run stops itself after 35 minutes (it takes about 24).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-integration.sh
(cd benchmark && GOFLAGS=-buildvcs=false go test ./...)
timeout --kill-after=30s 35m npx jest -c jest.integration.config.js "$@"
# The offline try of report and bench that the README documents, as a user runs it.
log=$(mktemp)
timeout 5m node --import tsx scripts/try-offline.ts >"$log" 2>&1 || { cat "$log"; exit 1; }
echo "try:offline: $(tail -n1 "$log")"
rm -f "$log"
