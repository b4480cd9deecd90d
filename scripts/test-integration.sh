#!/usr/bin/env bash
# The integration suite: builds what it needs (scripts/setup-integration.sh, idempotent and
# cached), then runs two lanes side by side, each file in its lane one after another:
# - measured: the files that start a Temporal cluster (its roles bind the rendered, fixed ports:
#   one cluster at a time) or time a round trip, at normal priority, so what they measure
#   (latency, recovery, a ladder's verdicts) is this machine's, not a neighbour's;
# - niced (nice 19: it takes only the CPU the measured lane leaves idle): the benchmark
#   program's Go tests, every other file (the schema mover, the commands against moto, the
#   CDK CLI), and the README's offline try of report and bench (npm run try:offline).
# Either lane failing fails the suite; each lane stops itself after 35 minutes.
# With arguments, they are Jest's, and the files they name run one after another.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-integration.sh
jest=(timeout --kill-after=30s 35m npx jest -c jest.integration.config.js)
if [ "$#" -gt 0 ]; then
  exec "${jest[@]}" "$@"
fi
MEASURED='/test/integration/(temporal-[^/]*|harness/service-name)\.test\.ts$'

measured() {
  "${jest[@]}" --testPathPatterns "$MEASURED"
}

niced() {
  (cd benchmark && GOFLAGS=-buildvcs=false go test ./...)
  "${jest[@]}" --testPathIgnorePatterns "$MEASURED"
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
(measured 2>&1 | label measured) &
m=$!
(
  renice -n 19 -p "$BASHPID" >/dev/null
  niced 2>&1 | label niced
) &
n=$!
status=0
wait "$m" || { status=1; echo "integration: the measured lane failed" >&2; }
wait "$n" || { status=1; echo "integration: the niced lane failed" >&2; }
exit "$status"
