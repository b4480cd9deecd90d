#!/usr/bin/env bash
# The integration suite: builds what it needs (scripts/setup-integration.sh, idempotent and
# cached), then runs its files in lanes, each file in its lane one after another, in two stages:
# 1. side by side, the files whose verdicts are exit codes, every workflow done, or pauses of
#    seconds:
#    - hibernate, then niced, and the upgrade: hibernation, in a network namespace of its own
#      (the Temporal roles bind the rendered, fixed ports, so two clusters at once need two
#      loopbacks); then, at nice 19 (it takes only the CPU the others leave idle), the Go tests of the benchmark program and of the Aurora servers' token signer
#      (docker/temporal-aurora), the commands as separate processes (test/integration/bin: the
#      CDK CLI, the companion commands and a campaign's deploy through the toolkit, against
#      moto), the deploy-time functions against moto (test/integration/deploy-time), and the
#      README's offline try of report and bench; beside that, once the movers lane has ended,
#      the upgrade, in a namespace of its own: a cluster short of CPU while its history and
#      matching roll onto 1.32 does not come back (docs/testing.md, "The upgrade's collapse"),
#      and the movers are the lane that takes the most CPU;
#    - temporal: the Aurora-flavoured cluster (its verdicts: every workflow done, the logins),
#      then the campaign over three presets (2 workflows/s);
#    - movers: the schema mover's files (PostgreSQL only, their own free ports); their fences and
#      pauses are timed, so not niced;
#    - folio: the FOLIO campaign (PostgreSQL and moto, no Temporal; mostly waiting out its
#      2-minute loads), whose kills land inside stages by time.
# 2. alone, once all of that has ended: every other file (the local cluster's runs, the faults,
#    the forwarder's round trips: verdicts that are latencies and recoveries; the configuration
#    walkthrough, whose own npm test takes the whole machine).
# Not as root (no network namespace here that PostgreSQL's postgres user can run in), the
# namespaced files run in stage 2. Any lane failing fails the suite, its failures printed
# again at the end; each Jest run stops itself after 35 minutes.
# With arguments, they are Jest's, and the files they name run one after another.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-integration.sh
jest=(timeout --kill-after=30s 35m npx jest -c jest.integration.config.js)
if [ "$#" -gt 0 ]; then
  exec "${jest[@]}" "$@"
fi
NICED='/test/integration/(bin|deploy-time)/'
OWN_NETWORK='/test/integration/temporal-(hibernate|upgrade)\.test\.ts$'
HIBERNATE='/test/integration/temporal-hibernate\.test\.ts$'
UPGRADE='/test/integration/temporal-upgrade\.test\.ts$'
TEMPORAL='/test/integration/(temporal-aurora-local|campaign-local)\.test\.ts$'
MOVERS='/test/integration/schema-mover(-online)?\.test\.ts$'
FOLIO='/test/integration/campaign-folio-local\.test\.ts$'

# Each step checked by itself: a lane runs where bash ignores set -e (a condition, below).
niced() {
  (cd benchmark && GOFLAGS=-buildvcs=false go test ./...) || return 1
  (cd docker/temporal-aurora && GOFLAGS=-buildvcs=false go test ./...) || return 1
  "${jest[@]}" --testPathPatterns "$NICED" || return 1
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

# A lane: a command whose lines carry the lane's name and are kept in its log; pipefail
# (inherited) makes its status the command's, not the labeller's. A failed lane's name is kept
# for the report.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
lane() {
  local name=$1
  shift
  if "$@" 2>&1 | tee "$logs/$name" | sed -u "s/^/[$name] /"; then return 0; fi
  echo "$name" >>"$logs/failed"
  return 1
}
# A failed lane's failures again at the very end, where a log's tail (CI's) shows them: Jest's
# failing tests from their first "●", or the lane's last lines when it failed outside Jest.
report() {
  [ -f "$logs/failed" ] || return 0
  local name
  while read -r name; do
    echo "integration: the $name lane failed; its failures:"
    if grep -q '●' "$logs/$name"; then
      sed -n '/●/,$p' "$logs/$name" | head -n 300
    else
      tail -n 60 "$logs/$name"
    fi
  done <"$logs/failed"
}
status=0
await() { wait "$1" || status=1; }

# A network namespace of its own, loopback up (root only: PostgreSQL runs as the postgres user,
# whom a user namespace cannot map).
isolated() { unshare --net -- sh -c 'ip link set lo up && exec "$@"' isolated "$@"; }

# Stage 1. The movers lane's end, which the upgrade waits for.
movers_done="$logs/movers.done"
if [ "$(id -u)" = 0 ] && isolated true 2>/dev/null; then
  alone=("$NICED" "$OWN_NETWORK" "$TEMPORAL" "$MOVERS" "$FOLIO")
  (
    ok=0
    lane hibernate isolated "${jest[@]}" --testPathPatterns "$HIBERNATE" || ok=1
    (
      renice -n 19 -p "$BASHPID" >/dev/null
      lane niced niced
    ) &
    niced=$!
    until [ -e "$movers_done" ]; do sleep 1; done
    lane upgrade isolated "${jest[@]}" --testPathPatterns "$UPGRADE" || ok=1
    wait "$niced" || ok=1
    exit "$ok"
  ) &
else
  echo "integration: not root, so no network namespace: hibernation and the upgrade run in stage 2"
  alone=("$NICED" "$TEMPORAL" "$MOVERS" "$FOLIO")
  (
    renice -n 19 -p "$BASHPID" >/dev/null
    lane niced niced
  ) &
fi
n=$!
(
  ok=0
  lane movers "${jest[@]}" --testPathPatterns "$MOVERS" || ok=1
  touch "$movers_done"
  exit "$ok"
) &
m=$!
lane folio "${jest[@]}" --testPathPatterns "$FOLIO" &
f=$!
lane temporal "${jest[@]}" --testPathPatterns "$TEMPORAL" &
await $!
await "$m"
await "$f"
await "$n"

# Stage 2: alone, every file not run above.
lane alone "${jest[@]}" --testPathIgnorePatterns "${alone[@]}" &
await $!
report
exit "$status"
