# --- An online move, start to end: what replication cannot carry refused, an earlier run ------
# resumed, the structure restored, the rows replicated, a checkpoint, then the switch.
online_move() {
  W="$work/online"
  F=$W
  S=''
  online_names
  trap 'online_cleanup; rm -rf "$work" 2>/dev/null || true' EXIT
  # What replication cannot carry, refused by name before anything is created.
  refused() { # what, query listing the objects
    list=$(q src "looking for $1" -c "$2")
    [ -z "$list" ] || die "$(printf '%s' "$list" | cut -d, -f1-3 | cut -c1-300)$(printf '%s' "$list" | awk -F, 'NF > 3 { print " and " NF - 3 " more" }'): $1 (valid: MOVE_MODE fenced)"
  }
  refused 'tables with neither a primary key nor a replica identity; published, their UPDATEs and DELETEs would fail on the source while the module runs; give each one, or move' \
    "SELECT string_agg(format('%I.%I', n.nspname, c.relname), ',' ORDER BY 1) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname IN ($SCHEMA_LIST) AND c.relkind = 'r' AND (c.relreplident = 'n' OR (c.relreplident = 'd' AND NOT EXISTS (SELECT FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary)))"
  refused 'unlogged tables, which logical replication does not carry' \
    "SELECT string_agg(format('%I.%I', n.nspname, c.relname), ',' ORDER BY 1) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ($SCHEMA_LIST) AND c.relkind = 'r' AND c.relpersistence = 'u'"
  refused 'large-object columns, whose objects logical replication does not carry' \
    "SELECT string_agg(format('%I.%I.%I', n.nspname, c.relname, a.attname), ',' ORDER BY 1) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname IN ($SCHEMA_LIST) AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped AND (a.atttypid = 'oid'::regtype OR format_type(a.atttypid, NULL) IN ('lo', 'public.lo'))"

  # A killed run's replica is dropped on the target (never on the source) and started afresh.
  online_cleanup
  online_records >"$W.resume"
  verdict=$(online_resume_verdict <"$W.resume") || die "reading the earlier runs' records failed"
  case "$verdict" in
    # Past the switch the module writes on the target: never dropped, never copied over.
    switched\ *) die "${verdict#switched }: an earlier run switched it to the target ($MOVE_TO) and stopped before comparing the two sides at the switch; the module writes there now, so nothing is copied again (the source ($MOVE_FROM) holds it as of the switch); if the module's routes still lead to the source, deploy the phase: its records lead to the target" ;;
    unrecorded\ *) die "the target ($MOVE_TO) already holds ${verdict#unrecorded } with no online move of it recorded; an online move copies into an empty target (valid: MOVE_MODE fenced, which compares and can set a copy aside)" ;;
    skip)
      for S in $MOVE_SCHEMAS; do say "$S: skipped, already moved online from $MOVE_FROM and verified"; done
      return 0
      ;;
  esac
  for S in ${verdict#restart}; do
    q tgt "dropping the unfinished replica of $S" -c "DROP SCHEMA \"$S\" CASCADE" >/dev/null
    say "$S: dropped the target's unfinished replica from an earlier run (the source was never changed)"
  done
  S=''

  # The structure, restored in one transaction; rows come through replication.
  q tgt 'recording the move' -c "INSERT INTO folio_mover.moves (schema_name, source, state) SELECT s, '$SOURCE', 'replicating' FROM unnest(ARRAY[$SCHEMA_LIST]::text[]) s
    ON CONFLICT (schema_name) DO UPDATE SET source = EXCLUDED.source, state = 'replicating', content = NULL, moved_at = now()" >/dev/null
  set -- $(for s in $MOVE_SCHEMAS; do printf -- '-n %s ' "$s"; done)
  rm -f "$W.dump.rc" "$W.restore.rc"
  {
    rc=0
    pg_dump -h "$SRC_HOST" -p "$SRC_PORT" -Fc -s "$@" --lock-wait-timeout="$MOVE_LOCK_TIMEOUT" 2>"$W.dump.err" || rc=$?
    echo "$rc" >"$W.dump.rc"
  } | {
    rc=0
    pg_restore -h "$TGT_HOST" -p "$TGT_PORT" -d "$PGDATABASE" --single-transaction --exit-on-error 2>"$W.restore.err" || rc=$?
    echo "$rc" >"$W.restore.rc"
  }
  [ "$(cat "$W.dump.rc")" = 0 ] || die "pg_dump of the schemas' structure from the source ($MOVE_FROM) failed: $(first_error "$W.dump.err")"
  [ "$(cat "$W.restore.rc")" = 0 ] || die "restoring the schemas' structure on the target ($MOVE_TO) failed: $(first_error "$W.restore.err")"
  say "structure of $(echo $MOVE_SCHEMAS | wc -w | tr -d ' ') schema(s) restored on the target; replicating their rows"

  for side in src tgt; do
    q $side 'creating the beacon table' -c "CREATE SCHEMA IF NOT EXISTS folio_mover; CREATE TABLE IF NOT EXISTS folio_mover.beacon (token text PRIMARY KEY, written_at timestamptz NOT NULL DEFAULT clock_timestamp())" >/dev/null
  done
  # What a route that leads to the target reads there (never replicated).
  q tgt 'creating the route token table' -c "CREATE TABLE IF NOT EXISTS folio_mover.switch (token text PRIMARY KEY, written_at timestamptz NOT NULL DEFAULT clock_timestamp())" >/dev/null
  q src 'creating the publication' -c "CREATE PUBLICATION \"$PUB\" FOR TABLES IN SCHEMA $(echo $MOVE_SCHEMAS | sed 's/ /, /g'), TABLE folio_mover.beacon" >/dev/null
  # The target connects to the source as the mover does (TLS where PGSSLMODE asks for it, as the stack's task does).
  conn=$(printf "host=%s port=%s dbname=%s user=%s password=%s application_name=%s sslmode=%s" "$SRC_HOST" "$SRC_PORT" "$PGDATABASE" "$PGUSER" "'$(printf '%s' "${PGPASSWORD:-}" | sed "s/[\\\\']/\\\\&/g")'" "$SUB" "${PGSSLMODE:-prefer}")
  q tgt 'creating the subscription' -v conn="$conn" -f - >/dev/null <<SQL
CREATE SUBSCRIPTION "$SUB" CONNECTION :'conn' PUBLICATION "$PUB" WITH (copy_data = true);
SQL
  # The first copy of every table, by the subscription's own workers.
  waited=0
  while :; do
    left=$(first_copy_left)
    errors=$(apply_errors)
    case "$(first_copy_verdict "$left" "$errors")" in
      failed) die "the first copy failed on the target ($errors error(s) in its log); the source was not changed" ;;
      done) break ;;
    esac
    waited=$((waited + 1))
    [ $((waited % 200)) != 0 ] || say "first copy: ${left%% *} of ${left#* } tables still copying"
    sleep 0.05
  done
  say "first copy done (${left#* } tables); following the module's writes"
  # Materialized views hold no replicated rows: filled on the target from its own tables.
  q tgt 'refreshing materialized views' -f - >/dev/null <<SQL
SELECT format('REFRESH MATERIALIZED VIEW %I.%I', n.nspname, c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ($SCHEMA_LIST) AND c.relkind = 'm' ORDER BY 1 \\gexec
SQL

  # What the fence locks, listed once.
  q src 'listing the tables' -c "SELECT 'LOCK TABLE ' || string_agg(format('%I.%I', n.nspname, c.relname), ', ' ORDER BY 1) || ' IN EXCLUSIVE MODE;'
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ($SCHEMA_LIST) AND c.relkind IN ('r', 'p')" >"$W.locks"
  q src 'listing the sequences' -c "SELECT string_agg(format('ALTER SEQUENCE %I.%I INCREMENT BY %s;', n.nspname, c.relname, s.seqincrement), ' ' ORDER BY 1)
    FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ($SCHEMA_LIST)" >"$W.seqlocks"

  # Checkpoint: the replica against the source, by content, while the module writes on.
  online_fence
  caught_up checkpoint
  online_snapshots
  online_unfence
  say "checkpoint: writes waited $HELD ms for the target to catch up; comparing both sides' snapshots by content while the module writes on"
  online_diff content
  online_release_snapshots
  [ -z "$DIFF" ] || online_fail "the replica differs from the source at the checkpoint: $(printf '%s' "$DIFF" | cut -c1-600)"
  say "checkpoint verified: every table of every schema matches by content"

  # The switch: writes wait from here until the fence lifts.
  online_fence
  caught_up switch
  # Read under the fence, which holds every sequence's lock: no nextval moves them now. The same
  # listing on the target after setting them must match it line for line.
  setvals() {
    q "$1" 'reading the sequences' -f - <<SQL
SELECT format('SELECT format(%L, %L, last_value, is_called) FROM %I.%I', 'SELECT setval(%L, %s, %L);', format('%I.%I', n.nspname, c.relname), n.nspname, c.relname)
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ($SCHEMA_LIST) AND c.relkind = 'S' ORDER BY 1 \\gexec
SQL
  }
  setvals src >"$W.setval"
  [ ! -s "$W.setval" ] || tgt -1 -f "$W.setval" >/dev/null 2>"$W.err" || online_fail "setting the sequences on the target failed: $(first_error "$W.err")"
  setvals tgt >"$W.setval.tgt"
  cmp -s "$W.setval" "$W.setval.tgt" || online_fail "the sequences differ after setting them: source $(head -c 200 "$W.setval" | tr '\n' ' '); target $(head -c 200 "$W.setval.tgt" | tr '\n' ' ')"
  online_diff shape
  [ -z "$DIFF" ] || online_fail "the catalogs differ (DDL during the move?): $(printf '%s' "$DIFF" | cut -c1-600)"
  online_snapshots
  # Nothing more may reach the target from the source once the module writes there.
  q tgt 'stopping replication' -c "ALTER SUBSCRIPTION \"$SUB\" DISABLE" >/dev/null
  if [ -n "${MOVE_ROUTES:-}" ]; then
    route_switch
  else
    if [ -z "${MOVE_SWITCH_COMMAND:-}" ]; then
      # Nothing points the module at the target: it must be stopped before its writes are let go,
      # or they would land on the source. Its writes wait on the fence until then.
      waited=0
      while :; do
        busy=''
        for S in $MOVE_SCHEMAS; do
          b=$(busy_sessions)
          [ -z "$b" ] || busy="${busy:+$busy; }$S: $b"
        done
        S=''
        [ -n "$busy" ] || break
        [ $((waited % 600)) != 0 ] || say "switch: ready and verified; stop the module now, its writes wait on the fence until it is (sessions: $(printf '%s' "$busy" | cut -c1-300))"
        # A stopped module's writes stay waiting on the fence after their client is gone: ended
        # every 2 s (a running module retries them, and they wait again).
        [ $((waited % 20)) != 19 ] || src -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE $FENCE_PID = ANY (pg_blocking_pids(pid))" >/dev/null 2>&1 || true
        waited=$((waited + 1))
        sleep 0.1
      done
    fi
    if [ -n "${MOVE_SWITCH_COMMAND:-}" ]; then
      sh -c "$MOVE_SWITCH_COMMAND" >"$W.switch.out" 2>&1 3>&- 5>&- 6>&- || {
        q tgt 'resuming replication' -c "ALTER SUBSCRIPTION \"$SUB\" ENABLE" >/dev/null
        online_release_snapshots
        online_fail "the switch command failed: $(tail -n 1 "$W.switch.out" | cut -c1-200)"
      }
    fi
    q tgt 'recording the switch' -c "UPDATE folio_mover.moves SET state = 'switched', moved_at = now() WHERE schema_name IN ($SCHEMA_LIST)" >/dev/null
    online_unfence
    say "switched: writes to the module's schemas waited $HELD ms (the fence, from locking to lifting)"
  fi
  online_cleanup

  # The two snapshots at the switch, by content, as a fenced move verifies its copy.
  online_diff content
  online_release_snapshots
  [ -z "$DIFF" ] || die "after the switch, the target's snapshot at the switch differs from the source's: $(printf '%s' "$DIFF" | cut -c1-600); the source holds the module's data as of the switch, unchanged since"
  for S in $MOVE_SCHEMAS; do
    F="$W.content.$S"
    record verified "$F.src"
    say "$S: moved online and verified, $(tables_of "$F.src") tables, $(rows_of "$F.src") rows"
  done
}
