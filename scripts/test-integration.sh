#!/usr/bin/env bash
# The integration suite: builds what it needs (scripts/setup-integration.sh, idempotent and
# cached), then runs two lanes side by side, each file in its lane one after another:
# - timed: every file with a verdict that depends on time (a Temporal cluster's latency,
#   recovery and timeouts, the schema mover's fences and pauses, a forwarder's round trip), or
#   a Temporal cluster (a campaign's), at normal priority. The Temporal roles bind the rendered,
#   fixed ports: one cluster at a time.
# - niced (nice 19: it takes only the CPU the timed lane leaves idle): the Go tests of the
#   benchmark program and of the Aurora servers' token signer (docker/temporal-aurora), the commands as separate processes (test/integration/bin: the CDK CLI, and the
#   companion commands against moto), the deploy-time functions against moto
#   (test/integration/deploy-time), and the README's offline try of report and bench.
# Either lane failing fails the suite; each lane stops itself after 35 minutes.
# With arguments, they are Jest's, and the files they name run one after another.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-integration.sh
jest=(timeout --kill-after=30s 35m npx jest -c jest.integration.config.js)
if [ "$#" -gt 0 ]; then
  exec "${jest[@]}" "$@"
fi
NICED='/test/integration/(bin|deploy-time)/'

timed() {
  "${jest[@]}" --testPathIgnorePatterns "$NICED"
}

niced() {
  (cd benchmark && GOFLAGS=-buildvcs=false go test ./...)
  (cd docker/temporal-aurora && GOFLAGS=-buildvcs=false go test ./...)
  "${jest[@]}" --testPathPatterns "$NICED"
  # The offline try of report and bench that the README documents, as a user runs it.
  local log
  log=$(mktemp)
  timeout 5m node --import tsx scripts/try-offline.ts >"$log" 2>&1 || {
    cat "$log"
    return 1
  }
  echo "try:offline: $(tail -n1 "$log")"
  rm -f "$log"
}

# Each lane's lines carry its name; pipefail (inherited) makes a lane's status its own, not its
# labeller's. Neither lane runs under && or ||, where bash would ignore set -e inside it.
label() { sed -u "s/^/[$1] /"; }
(timed 2>&1 | label timed) &
t=$!
(
  renice -n 19 -p "$BASHPID" >/dev/null
  niced 2>&1 | label niced
) &
n=$!
status=0
wait "$t" || { status=1; echo "integration: the timed lane failed" >&2; }
wait "$n" || { status=1; echo "integration: the niced lane failed" >&2; }
exit "$status"
