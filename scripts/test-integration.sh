#!/usr/bin/env bash
# The integration suite: builds what it needs (scripts/setup-integration.sh, idempotent and
# cached), then runs its files in four lanes, each file in its lane one after another. The
# Temporal roles bind the rendered, fixed ports, so one Temporal cluster at a time (the timed lane).
# - timed, at normal priority: every Temporal file, and the forwarder's round trips. It runs in
#   three stages, each waiting for what ran beside the one before:
#   1. hibernation and the upgrade (verdicts: every workflow done), beside the niced lane;
#   2. the campaign over three presets (2 workflows/s; verdicts: every workflow done, each stage
#      once), beside the movers lane and the FOLIO campaign's;
#   3. everything else, alone: the files whose verdicts are latencies and recoveries (the local
#      cluster's runs, the faults, the forwarder), and any file not named here.
# - niced (nice 19: it takes only the CPU the timed lane leaves idle): the Go tests of the
#   benchmark program and of the Aurora servers' token signer (docker/temporal-aurora), the
#   commands as separate processes (test/integration/bin: the CDK CLI, the companion commands and
#   a campaign's deploy through the toolkit, against moto), the deploy-time functions against moto (test/integration/deploy-time), and
#   the README's offline try of report and bench.
# - movers, at normal priority: the schema mover's files (PostgreSQL only, their own free ports);
#   their fences and pauses are timed, so not niced, and not beside a latency verdict.
# - folio, at normal priority: the FOLIO campaign (PostgreSQL and moto, no Temporal; mostly
#   waiting out its 2-minute loads), whose kills land inside stages by time.
# Any lane failing fails the suite, its failures printed again at the end; each Jest run stops
# itself after 35 minutes.
# With arguments, they are Jest's, and the files they name run one after another.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-integration.sh
jest=(timeout --kill-after=30s 35m npx jest -c jest.integration.config.js)
if [ "$#" -gt 0 ]; then
  exec "${jest[@]}" "$@"
fi
NICED='/test/integration/(bin|deploy-time)/'
BESIDE_NICED='/test/integration/temporal-(hibernate|upgrade)\.test\.ts$'
CAMPAIGN='/test/integration/campaign-local\.test\.ts$'
MOVERS='/test/integration/schema-mover(-online)?\.test\.ts$'
FOLIO='/test/integration/campaign-folio-local\.test\.ts$'

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

# Each lane's lines carry its name and are kept in its log; pipefail (inherited) makes a lane's
# status its own, not its labeller's. No lane runs under && or ||, where bash would ignore set -e
# inside it.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
label() { tee "$logs/$2" | sed -u "s/^/[$1] /"; }
status=0
failed=()
# Waits for a lane started in the background; its failure fails the suite, and the stages go on.
await() { wait "$1" || { status=1 failed+=("$2"); }; }
# A failed lane's failures again at the very end, where a log's tail (CI's) shows them: Jest's
# failing tests from their first "●", or the lane's last lines when it failed outside Jest.
report() {
  local lane log
  for lane in "${failed[@]}"; do
    log="$logs/$lane"
    echo "integration: the $lane lane failed; its failures:"
    if grep -q '●' "$log"; then
      sed -n '/●/,$p' "$log" | head -n 300
    else
      tail -n 60 "$log"
    fi
  done
}

(
  renice -n 19 -p "$BASHPID" >/dev/null
  niced 2>&1 | label niced niced
) &
n=$!
("${jest[@]}" --testPathPatterns "$BESIDE_NICED" 2>&1 | label timed "timed (stage 1)") &
await $! "timed (stage 1)"
await "$n" niced

("${jest[@]}" --testPathPatterns "$MOVERS" 2>&1 | label movers movers) &
m=$!
("${jest[@]}" --testPathPatterns "$FOLIO" 2>&1 | label folio folio) &
f=$!
("${jest[@]}" --testPathPatterns "$CAMPAIGN" 2>&1 | label timed "timed (stage 2)") &
await $! "timed (stage 2)"
await "$m" movers
await "$f" folio

("${jest[@]}" --testPathIgnorePatterns "$NICED" "$BESIDE_NICED" "$CAMPAIGN" "$MOVERS" "$FOLIO" 2>&1 | label timed "timed (stage 3)") &
await $! "timed (stage 3)"
report
exit "$status"
