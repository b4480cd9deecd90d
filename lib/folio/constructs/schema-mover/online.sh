# --- Online moves (MOVE_MODE=online): every schema of the wave at once. ---------------------
# A psql session fed through a FIFO on its own descriptor: sess_open <name> <src|tgt> <fd>.
sess_open() {
  rm -f "$W.$1.in" "$W.$1.rc"
  mkfifo "$W.$1.in"
  {
    rc=0
    $2 -f "$W.$1.in" >"$W.$1.log" 2>&1 || rc=$?
    echo "$rc" >"$W.$1.rc" 2>/dev/null || true
  } 3>&- 5>&- 6>&- &
  # Each session's psql must be the only reader, and this shell the only writer, of its pipe.
  eval "exec $3>\"\$W.\$1.in\""
}
# sess_send <name> <fd> <what> <sql>; sess_get <name> <what> <file>: waits for a file psql writes.
sess_send() {
  [ ! -e "$W.$1.rc" ] || sess_died "$1" "$3"
  printf '%s\n' "$4" >&"$2" 2>/dev/null || sess_died "$1" "$3"
}
sess_get() {
  while [ ! -s "$3" ]; do
    [ ! -e "$W.$1.rc" ] || sess_died "$1" "$2"
    sleep 0.02
  done
  cat "$3"
}
sess_died() {
  sleep 0.1
  why=$(session_end "$W.$1.log" "$W.$1.rc")
  case "$why" in *"lock timeout"*) why="$why (waited $MOVE_LOCK_TIMEOUT; held by $(lock_holders src))" ;; esac
  die "$2 failed: $why"
}
sess_close() { # name fd sql
  [ -e "$W.$1.rc" ] || printf '%s\n' "$3" >&"$2" 2>/dev/null || true
  eval "exec $2>&-"
  while [ ! -e "$W.$1.rc" ]; do sleep 0.02; done
}

# The fence over every schema of the wave (see fence_open): one session, tables then sequences
# locked, its snapshot exported as SNAP. Writers wait; reads go on.
online_fence() {
  rm -f "$W.fence.pid" "$W.fence.snap" "$W.fence.seq" "$W.fence.t0"
  sess_open fence src 3
  sess_send fence 3 'starting the fence' "SELECT pg_backend_pid() \\g '$W.fence.pid'"
  FENCE_PID=$(sess_get fence 'starting the fence' "$W.fence.pid")
  sess_send fence 3 'fencing the tables' "BEGIN ISOLATION LEVEL REPEATABLE READ;
$(cat "$W.locks")
SELECT pg_export_snapshot() \\g '$W.fence.snap'"
  SNAP=$(sess_get fence "fencing the schemas' tables against writes on the source ($MOVE_FROM)" "$W.fence.snap")
  [ ! -s "$W.seqlocks" ] || sess_send fence 3 'fencing the sequences' "$(cat "$W.seqlocks")"
  sess_send fence 3 'fencing the sequences' "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint \\g '$W.fence.t0'"
  FENCE_T0=$(sess_get fence "fencing the schemas' sequences on the source ($MOVE_FROM)" "$W.fence.t0")
  FENCED=true
}
# Lifts the fence; the sessions still waiting to write are ended first (their writes never land
# on the source). Sets HELD: how long the fence held, in ms. Never in a subshell: the fence's
# session ends only when every holder of its pipe closes it.
online_unfence() {
  waiters=$(src -c "SELECT string_agg(format('pid %s (%s)', pid, coalesce(nullif(application_name, ''), usename)), '; ' ORDER BY pid)
    FROM pg_stat_activity WHERE $FENCE_PID = ANY (pg_blocking_pids(pid))" 2>/dev/null || true)
  [ -z "$waiters" ] || src -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE $FENCE_PID = ANY (pg_blocking_pids(pid))" >/dev/null 2>&1 || true
  held=$(src -c "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint - $FENCE_T0" 2>/dev/null || echo '?')
  sess_close fence 3 'ROLLBACK;'
  FENCED=false
  [ -z "$waiters" ] || say "ended the sessions that tried to write during the fence, their transactions rolled back: $waiters"
  HELD=$held
}
# --- What the online steps read, one state each: what the verdicts (decide.sh) are fed, and
# what scripts/record-mover-states.ts records from real servers for their unit tests.
# The wave's publication and subscription (PUB, SUB), named by its schemas.
online_names() {
  ID=$(printf '%s\n' $MOVE_SCHEMAS | LC_ALL=C sort | md5sum | cut -c1-12)
  case "$ID" in [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]) ;; *) die "naming the wave's publication failed (md5sum gave \"$(shown "$ID")\")" ;; esac
  PUB="folio_mover_$ID"
  SUB=$PUB
}
# Each schema's record and whether the target holds it: "<schema> <state, or -> <yes|no>".
online_records() {
  for S in $MOVE_SCHEMAS; do
    st=$(recorded_state)
    there=no
    ! exists tgt "$S" || there=yes
    echo "$S ${st:--} $there"
  done
  S=''
}
# The subscription's first copy: "<tables still copying> <tables>".
first_copy_left() {
  q tgt 'following the first copy' -c "SELECT count(*) FILTER (WHERE srsubstate NOT IN ('r', 's')) || ' ' || count(*) FROM pg_subscription_rel WHERE srsubid = (SELECT oid FROM pg_subscription WHERE subname = '$SUB')"
}
# How often the target's apply and table-sync workers have failed.
apply_errors() {
  q tgt 'reading the apply worker' -c "SELECT coalesce(sum(apply_error_count + sync_error_count), 0) FROM pg_stat_subscription_stats WHERE subname = '$SUB'"
}
# The beacon's rows on the target: 1 once applied. beacon_rows <token>
beacon_rows() { q tgt 'waiting for the beacon' -c "SELECT count(*) FROM folio_mover.beacon WHERE token = '$1'"; }

# A beacon row written on the source after the fence: once the target holds it, it has applied
# every write the source committed before (replication applies in commit order).
caught_up() { # what
  token="$SUB-$1-$(date +%s)-$$"
  q src 'writing the beacon' -c "INSERT INTO folio_mover.beacon (token) VALUES ('$token')" >/dev/null
  waited=0
  while :; do
    seen=$(beacon_rows "$token")
    errors=0
    [ "$seen" = 1 ] || errors=$(apply_errors)
    case "$(catchup_verdict "$seen" "$errors" "$waited" "$CATCHUP_S")" in
      caught-up) return 0 ;;
      failed) online_fail "the target's apply worker failed $errors time(s) (its log says why: DDL on the source during the move, or a conflict on the target)" ;;
      timed-out) online_fail "the target fell behind: it had not applied the source's last write after $MOVE_CATCHUP_TIMEOUT ($(q tgt 'reading the apply worker' -c "SELECT coalesce(max(format('received %s, applied up to %s', received_lsn, latest_end_lsn)), 'no apply worker running') FROM pg_stat_subscription WHERE subname = '$SUB'"))" ;;
    esac
    sleep 0.05
    waited=$((waited + 1))
  done
}
online_fail() {
  [ "${FENCED:-false}" != true ] || online_unfence
  die "$1; nothing was switched, the module stays on the source ($MOVE_FROM), which was not changed"
}
# Drops what replication left: the subscription (with its slot on the source), the publication,
# the beacons. Best effort: it runs on every exit, and again at the next run's start.
online_cleanup() {
  tgt -c "SELECT 1 FROM pg_subscription WHERE subname = '$SUB'" 2>/dev/null | grep -q 1 && {
    tgt -c "ALTER SUBSCRIPTION \"$SUB\" DISABLE" >/dev/null 2>&1 || true
    tgt -c "DROP SUBSCRIPTION \"$SUB\"" >/dev/null 2>&1 || true
  }
  src -c "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '$SUB' AND NOT active" >/dev/null 2>&1 || true
  src -c "DROP PUBLICATION IF EXISTS \"$PUB\"" >/dev/null 2>&1 || true
  # Only this wave's beacons: another wave's mover may be replicating from the same source.
  src -c "DELETE FROM folio_mover.beacon WHERE token LIKE '$SUB-%'" >/dev/null 2>&1 || true
  tgt -c "DELETE FROM folio_mover.switch WHERE token LIKE '$SUB-%'" >/dev/null 2>&1 || true
}
# Both sides' snapshots, held after the fence lifts: the source's imported from the fence's, the
# target's taken once it caught up. Sets SRC_SNAP and TGT_SNAP.
online_snapshots() {
  rm -f "$W.hold.snap" "$W.tsnap.snap"
  sess_open hold src 5
  sess_send hold 5 'holding the snapshot' "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET TRANSACTION SNAPSHOT '$SNAP';
SELECT pg_export_snapshot() \\g '$W.hold.snap'"
  SRC_SNAP=$(sess_get hold 'holding the source snapshot' "$W.hold.snap")
  sess_open tsnap tgt 6
  sess_send tsnap 6 'taking the target snapshot' "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;
SELECT pg_export_snapshot() \\g '$W.tsnap.snap'"
  TGT_SNAP=$(sess_get tsnap 'taking the target snapshot' "$W.tsnap.snap")
}
online_release_snapshots() {
  sess_close hold 5 'COMMIT;'
  sess_close tsnap 6 'COMMIT;'
}
# Every schema on both sides, compared; sets DIFF ("" when all agree). "content": each table's
# rows in the two held snapshots (sequences are not replicated: set and checked at the switch).
# "shape": the catalogs, live, under the fence, where DDL run during the move shows.
online_diff() {
  out=''
  for S in $MOVE_SCHEMAS; do
    F="$W.$1.$S"
    "$1" src "$F.src" "$SRC_SNAP" 3>&- 5>&- 6>&- &
    a=$!
    "$1" tgt "$F.tgt" "$TGT_SNAP" 3>&- 5>&- 6>&- &
    b=$!
    wait $a $b || true
    for f in "$F".*.failed; do [ ! -e "$f" ] || online_fail "$S: comparing ${1}s on the $(cat "$f")"; done
    : >"$F.none"
    if [ "$1" = content ]; then
      grep -v '^sequence ' "$F.src" >"$F.src.rows" || true
      grep -v '^sequence ' "$F.tgt" >"$F.tgt.rows" || true
      d=$(differences "$F.src.rows" "$F.tgt.rows" "$F.none" "$F.none" "$F") || online_fail "$S: comparing the two sides' listings failed"
    else
      d=$(differences "$F.none" "$F.none" "$F.src" "$F.tgt" "$F") || online_fail "$S: comparing the two sides' catalogs failed"
    fi
    [ -z "$d" ] || out="${out:+$out; }$S: $d"
  done
  F=$W S=''
  DIFF=$out
}

# The switch through routes (MOVE_ROUTES): the names the modules connect by, which whoever owns
# them (npm run move, on the "switch: ready" line) points at the target. Recorded as switched
# first: from the ready line on the target holds the module's data, and a write that reaches it
# is in the right place. The source stays fenced until every route leads to the target and no
# session of the module has reached the source for MOVE_ROUTE_GRACE: a module that still
# resolves the old address meets the fence, is ended every 2 s, and reconnects.
route_switch() {
  token="$SUB-route-$(date +%s)-$$"
  q tgt 'writing the route token' -c "INSERT INTO folio_mover.switch (token) VALUES ('$token')" >/dev/null
  q tgt 'recording the switch' -c "UPDATE folio_mover.moves SET state = 'switched', moved_at = now() WHERE schema_name IN ($SCHEMA_LIST)" >/dev/null
  say "switch: ready: point the routes at the target ($MOVE_TO): $MOVE_ROUTES"
  deadline=$(($(date +%s) + ROUTE_S))
  t=0 routed='' settled=no quiet=0 behind=$MOVE_ROUTES seen=''
  while :; do
    if [ -z "$routed" ]; then
      behind=''
      for r in $MOVE_ROUTES; do
        case "$r" in *=*) c=$r ;; *) c="host=$r port=$TGT_PORT" ;; esac
        [ "$(PGCONNECT_TIMEOUT=2 psql -X -At -d "$c" -c "SELECT count(*) FROM folio_mover.switch WHERE token = '$token'" 2>/dev/null 3>&- 5>&- 6>&-)" = 1 ] || behind="$behind $r"
      done
      if [ -z "$behind" ]; then
        routed=$(q src 'reading the clock' -c "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint - $FENCE_T0")
        settled=yes
        say "switched: every route leads to the target $routed ms after the fence locked; the module writes there. The source stays fenced until none of its sessions reaches it for $MOVE_ROUTE_GRACE"
      fi
    fi
    looked=no found=no
    if [ "$settled" = yes ] && [ $((t % 5)) = 0 ]; then
      # Sessions of the module on the source: its role, its locks (granted or waiting), or
      # waiting on the fence. The mover's own sessions and the subscription's are not.
      seen=$(q src 'looking for sessions of the module' -c "SELECT string_agg(format('pid %s (%s)', a.pid, coalesce(nullif(a.application_name, ''), a.usename)), '; ' ORDER BY a.pid)
        FROM pg_stat_activity a WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.application_name NOT IN ('folio-schema-mover', '$SUB')
        AND (a.usename IN ($SCHEMA_LIST) OR $FENCE_PID = ANY (pg_blocking_pids(a.pid))
          OR EXISTS (SELECT FROM pg_locks l JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace n ON n.oid = c.relnamespace WHERE l.pid = a.pid AND n.nspname IN ($SCHEMA_LIST)))")
      looked=yes
      if [ -n "$seen" ]; then
        found=yes
        [ $((t % 20)) != 0 ] || src -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE $FENCE_PID = ANY (pg_blocking_pids(pid))" >/dev/null 2>&1 || true
      fi
    fi
    verdict=$(route_verdict "$quiet" "$settled" "$looked" "$found" "$(date +%s)" "$deadline" "$GRACE_S")
    quiet=${verdict#* }
    case "$verdict" in unfence\ *) break ;; guard\ *) route_guard ;; esac
    sleep 0.1
    t=$((t + 1))
  done
  online_unfence
  say "source unfenced after $HELD ms: no session of the module reached it for $MOVE_ROUTE_GRACE"
}
# The routes did not settle in time. The target holds the module's data now, so the source must
# take no more writes once the fence lifts: its schemas are renamed aside in the fence's own
# transaction, which commits. A module still routed there fails rather than writing where
# nothing reads; its data is intact under the new name.
route_guard() {
  aside="_mv$(date +%s)"
  src -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE $FENCE_PID = ANY (pg_blocking_pids(pid))" >/dev/null 2>&1 || true
  for S in $MOVE_SCHEMAS; do sess_send fence 3 'setting the source aside' "ALTER SCHEMA \"$S\" RENAME TO \"$S$aside\";"; done
  S=''
  sess_close fence 3 'COMMIT;'
  FENCED=false
  online_release_snapshots
  [ "$(cat "$W.fence.rc")" = 0 ] || die "switched to the target ($MOVE_TO), but the routes did not settle within $MOVE_ROUTE_TIMEOUT and renaming the source's schemas aside failed: $(first_error "$W.fence.log"); stop the module's writes to the source ($MOVE_FROM) now"
  if [ -n "$routed" ]; then why="sessions of the module still reached the source: $(printf '%s' "$seen" | cut -c1-300)"; else why="these routes still lead elsewhere:$behind"; fi
  die "switched to the target ($MOVE_TO), but after $MOVE_ROUTE_TIMEOUT $why; the source's schemas were renamed to <schema>$aside so that nothing more is written there (their data is intact): point the routes at the target (a deploy of the phase does)"
}
