# --- The fence (or, for a reference copy, only the snapshot) on the source, per batch. -------
# A batch ($BATCH, its label $BL, its files $FB) is one or more schemas under one session, one
# snapshot and one pg_dump: a pg_dump reads the whole catalog however few schemas it dumps, so
# one per schema would grow with schemas x catalog. A psql session fed through a FIFO; each
# step waits for a file that psql writes, or for psql to exit (an error, under ON_ERROR_STOP).
fence_send() {
  [ ! -e "$FB.rc" ] || fence_died "$1"
  printf '%s\n' "$2" >&3 2>/dev/null || fence_died "$1"
}
fence_wait() {
  while [ ! -s "$2" ]; do
    [ ! -e "$FB.rc" ] || fence_died "$1"
    sleep 0.05
  done
}
fence_died() {
  sleep 0.1
  why=$(session_end "$FB.log" "$FB.rc")
  case "$why" in *"lock timeout"*) why="$why (waited $MOVE_LOCK_TIMEOUT; held by $(lock_holders src))" ;; esac
  die "$BL: $1 on the source ($MOVE_FROM) failed: $why"
}
fence_open() {
  mode=$1
  FL=$(for s in $BATCH; do printf "'%s'," "$s"; done)
  FL=${FL%,}
  rm -f "$FB.in" "$FB.rc" "$FB.pid" "$FB.adv" "$FB.snap"
  mkfifo "$FB.in"
  {
    rc=0
    src -f "$FB.in" >"$FB.log" 2>&1 || rc=$?
    echo "$rc" >"$FB.rc" 2>/dev/null || true
  } &
  exec 3>"$FB.in"
  # One mover per schema: an advisory lock per schema that lives as long as the session. The
  # file holds the first schema another mover has (or "-").
  fence_send 'starting the session' "SELECT pg_backend_pid() \\g '$FB.pid'
SELECT coalesce((SELECT s FROM unnest(ARRAY[$FL]::text[]) WITH ORDINALITY u(s, i) WHERE NOT pg_try_advisory_lock(707070, hashtext(s)) ORDER BY i LIMIT 1), '-') \\g '$FB.adv'"
  fence_wait 'taking the mover lock' "$FB.adv"
  FENCE_PID=$(cat "$FB.pid")
  taken=$(cat "$FB.adv")
  if [ "$taken" != - ]; then
    other=$(src -c "SELECT coalesce(string_agg(format('pid %s, since %s', a.pid, to_char(a.backend_start, 'HH24:MI:SS')), '; '), 'unknown') FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 707070 AND a.pid <> $FENCE_PID AND l.objid::text::bigint = (hashtext('$taken')::bigint & 4294967295)" 2>/dev/null || echo unknown)
    die "$taken: another mover is moving it ($other); wait for it or stop it"
  fi
  fence_send 'opening the snapshot' 'BEGIN ISOLATION LEVEL REPEATABLE READ;'
  if [ "$mode" = fence ]; then
    # Listed before the transaction's snapshot is taken: the locks come first, then the snapshot.
    q src "listing $BL's relations" -c "SELECT 'LOCK TABLE ' || string_agg(format('%I.%I', n.nspname, c.relname), ', ' ORDER BY 1) || ' IN EXCLUSIVE MODE;'
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ($FL) AND c.relkind IN ('r', 'p')" >"$FB.lock"
    [ ! -s "$FB.lock" ] || fence_send 'fencing the tables' "$(cat "$FB.lock")"
  fi
  fence_send 'exporting the snapshot' "SELECT pg_export_snapshot() \\g '$FB.snap'"
  fence_wait "fencing $BL's tables against writes" "$FB.snap"
  SNAP=$(cat "$FB.snap")
  if [ "$mode" = fence ]; then
    # LOCK TABLE refuses sequences; ALTER SEQUENCE (to its own increment, rolled back with the
    # fence) takes the lock that nextval and setval wait for.
    q src "listing $BL's sequences" -c "SELECT string_agg(format('ALTER SEQUENCE %I.%I INCREMENT BY %s;', n.nspname, c.relname, s.seqincrement), ' ' ORDER BY 1)
      FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ($FL)" >"$FB.seq"
    if [ -s "$FB.seq" ]; then
      fence_send 'fencing the sequences' "$(cat "$FB.seq")
SELECT 1 \\g '$FB.seqdone'"
      fence_wait "fencing $BL's sequences" "$FB.seqdone"
    fi
    FENCED=true
    for s in $BATCH; do say "$s: fenced on the source: reads go on, writes wait until the move ends (fence session pid $FENCE_PID)"; done
  fi
}
# Lifts the fence: sessions still waiting to write are ended first, so no write lands on the
# source after the copy was verified. With "commit", what the session did (a drop) is kept.
fence_close() {
  if [ "${FENCED:-false}" = true ] && [ "$1" != commit ]; then
    waiters=$(src -c "SELECT string_agg(format('pid %s (%s, %s)', pid, usename, coalesce(nullif(application_name, ''), 'no application name')), '; ' ORDER BY pid)
      FROM pg_stat_activity WHERE $FENCE_PID = ANY (pg_blocking_pids(pid))" 2>/dev/null || true)
    if [ -n "$waiters" ]; then
      src -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE $FENCE_PID = ANY (pg_blocking_pids(pid))" >/dev/null 2>&1 || true
      say "$BL: ended the sessions that tried to write to it on the source during the move, their transactions rolled back: $waiters"
    fi
  fi
  if [ "$1" = commit ]; then fence_send 'committing' 'COMMIT;'; else fence_send 'lifting the fence' 'ROLLBACK;'; fi
  exec 3>&-
  while [ ! -e "$FB.rc" ]; do sleep 0.05; done
  if [ "$1" = commit ]; then label='dropping the schema'; else label='lifting the fence'; fi
  [ "$(cat "$FB.rc")" = 0 ] || fence_died "$label"
  FENCED=false
}
