# --- A fenced copy (copy_batch) and a drop of the source (drop_source), schema by schema, -----
# with what they need: the views that read a schema, the move's record, setting a copy aside.

# --- Views elsewhere that read a schema on the target (and what they read in turn). ---------
# With "names", their names; with "sql", a script that drops them and re-creates them with
# pg_dump's own text (options, check option, owner, grants, comments, materialized views with
# their indexes and data), so they bind to whatever copy then holds the name.
dependents() {
  "$1" -c "WITH RECURSIVE n AS (SELECT '$2'::regnamespace AS oid),
    d(oid, depth) AS (
      SELECT DISTINCT v.oid, 1 FROM pg_depend dep JOIN pg_rewrite rw ON rw.oid = dep.objid JOIN pg_class v ON v.oid = rw.ev_class
      WHERE dep.classid = 'pg_rewrite'::regclass AND v.relnamespace <> (SELECT oid FROM n) AND (
        (dep.refclassid = 'pg_class'::regclass AND dep.refobjid IN (SELECT oid FROM pg_class WHERE relnamespace = (SELECT oid FROM n))) OR
        (dep.refclassid = 'pg_proc'::regclass AND dep.refobjid IN (SELECT oid FROM pg_proc WHERE pronamespace = (SELECT oid FROM n))) OR
        (dep.refclassid = 'pg_type'::regclass AND dep.refobjid IN (SELECT oid FROM pg_type WHERE typnamespace = (SELECT oid FROM n))))
      UNION
      SELECT v.oid, d.depth + 1 FROM d JOIN pg_depend dep ON dep.refobjid = d.oid AND dep.refclassid = 'pg_class'::regclass AND dep.classid = 'pg_rewrite'::regclass
        JOIN pg_rewrite rw ON rw.oid = dep.objid JOIN pg_class v ON v.oid = rw.ev_class WHERE v.oid <> d.oid AND d.depth < 50)
    SELECT c.relkind::text, max(d.depth), format('%I.%I', c.relnamespace::regnamespace, c.relname) FROM d JOIN pg_class c ON c.oid = d.oid
    GROUP BY 1, 3 ORDER BY 2 DESC, 3"
}
# The re-creating script for the views listed in $1 (relkind depth name), from side $2.
dependents_sql() {
  [ -s "$1" ] || return 0
  awk -F'|' '{ print "DROP " ($1 == "m" ? "MATERIALIZED VIEW " : "VIEW ") $3 ";" }' "$1"
  args=$(awk -F'|' '{ printf " -t %s", $3 }' "$1")
  # shellcheck disable=SC2086
  pg_dump -h "$(host_of "$2")" -p "$(port_of "$2")" -Fp $args 2>"$F.views.err" || die "$S: pg_dump of the views that read it on the $(side_name "$2") failed: $(first_error "$F.views.err")"
}
host_of() { if [ "$1" = src ]; then echo "$SRC_HOST"; else echo "$TGT_HOST"; fi; }
port_of() { if [ "$1" = src ]; then echo "$SRC_PORT"; else echo "$TGT_PORT"; fi; }

# What the target's record says of $S's move from this source: copying, verified, replicating,
# switched, or nothing.
recorded_state() { q tgt "reading $S's record" -c "SELECT state FROM folio_mover.moves WHERE schema_name = '$S' AND source = '$SOURCE'"; }
record() { # state [content file]
  if [ -n "${2:-}" ]; then
    q tgt "recording $S's move" -v s="$S" -v src="$SOURCE" -v state="$1" -v rows="$(rows_of "$2")" -f - >/dev/null <<SQL
\\set content \`cat "$2"\`
INSERT INTO folio_mover.moves (schema_name, source, state, table_rows, content) VALUES (:'s', :'src', :'state', :rows, :'content')
  ON CONFLICT (schema_name) DO UPDATE SET source = EXCLUDED.source, state = EXCLUDED.state, table_rows = EXCLUDED.table_rows, content = EXCLUDED.content, moved_at = now();
SQL
  else
    q tgt "recording $S's move" -c "INSERT INTO folio_mover.moves (schema_name, source, state) VALUES ('$S', '$SOURCE', '$1')
      ON CONFLICT (schema_name) DO UPDATE SET source = EXCLUDED.source, state = EXCLUDED.state, content = NULL, moved_at = now()" >/dev/null
  fi
}

# Re-creates the views an earlier set-aside left reading the old copy, once the new one is in place.
repoint_views() {
  q tgt "reading the views to re-point at $S" -c "SELECT views_sql FROM folio_mover.moves WHERE schema_name = '$S' AND views_sql IS NOT NULL" >"$F.pending"
  [ -s "$F.pending" ] || return 0
  names=$(grep -E '^DROP ' "$F.pending" | sed -E 's/^DROP (MATERIALIZED )?VIEW //; s/;$//' | paste -sd ' ' -)
  tgt -1 -f "$F.pending" >/dev/null 2>"$F.err" || die "$S: could not re-create the views that read it ($names) over the fresh copy, which is in place; they still read the copy set aside: $(first_error "$F.err")"
  q tgt "recording $S's move" -c "UPDATE folio_mover.moves SET views_sql = NULL WHERE schema_name = '$S'" >/dev/null
  say "$S: re-created the views of other schemas that read it over the fresh copy: $names"
}

# Renames the target's copy aside (never drops it); the views elsewhere that read it are
# dumped first and recorded with the rename, in one transaction, to be re-created over the
# fresh copy even if this run is killed before then.
set_aside() { # why
  aside="${S}_replaced_$(date -u +%Y%m%d%H%M%S)"
  dependents tgt "$S" >"$F.deps" 2>"$F.err" || die "$S: listing the views that read it on the $(side_name tgt) failed: $(first_error "$F.err")"
  dependents_sql "$F.deps" tgt >"$F.views.sql"
  q tgt "setting $S aside" -v s="$S" -v src="$SOURCE" -f - >/dev/null <<SQL
\\set views \`cat "$F.views.sql"\`
BEGIN;
INSERT INTO folio_mover.moves (schema_name, source, state, views_sql) VALUES (:'s', :'src', 'copying', nullif(:'views', ''))
  ON CONFLICT (schema_name) DO UPDATE SET source = EXCLUDED.source, state = 'copying', content = NULL, views_sql = coalesce(EXCLUDED.views_sql, folio_mover.moves.views_sql), moved_at = now();
ALTER SCHEMA "$S" RENAME TO "$aside";
COMMIT;
SQL
  say "$S: set the target's copy aside as $aside: $1"
}

# Sessions that still use a schema on the source: logged in as its role, a last statement naming
# it, or a lock on one of its relations. The fence stops their writes either way; this names
# a module that was not stopped.
busy_sessions() {
  q src "looking for sessions that use $S" -c "SELECT string_agg(x, '; ' ORDER BY x) FROM (SELECT DISTINCT format('pid %s (%s, %s)', a.pid, a.usename, coalesce(nullif(a.application_name, ''), 'no application name')) x
    FROM pg_stat_activity a WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.application_name <> 'folio-schema-mover'
    AND (a.usename = '$S' OR a.query LIKE '%$S.%' OR a.query LIKE '%\"$S\".%'
      OR EXISTS (SELECT FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE l.pid = a.pid AND c.relnamespace = '$S'::regnamespace))) s"
}

# A batch's label in messages: its schema, or its first and how many more.
batch_label() {
  set -- $1
  if [ $# = 1 ]; then echo "$1"; else echo "$1 and $(($# - 1)) more schemas of its batch"; fi
}

# A batch of schemas: each checked on its own, all fenced by one session, those that need a
# copy dumped by one pg_dump in the fence's snapshot and restored in one transaction, each
# verified and recorded on its own (a re-run resumes per schema).
copy_batch() {
  held=''
  for S in $BATCH; do
    F="$work/s.$S"
    say "$S: copy from $MOVE_FROM to $MOVE_TO"
    exists src "$S" || die "$S: no such schema on the source ($MOVE_FROM)"
    if [ "$MOVE_KEEP_EXISTING" = true ]; then
      if exists tgt "$S"; then
        content tgt "$F.tgt.content"
        [ ! -e "$F.tgt.content.failed" ] || die "$S: counting the kept copy on the $(cat "$F.tgt.content.failed")"
        say "$S: kept the target's existing copy ($(rows_of "$F.tgt.content") rows), a reference copy for reads across the split"
        continue
      fi
      say "$S: copying a snapshot while the module stays live on the source"
    else
      busy=$(busy_sessions)
      if [ -n "$busy" ]; then
        [ "$MOVE_FORCE" = true ] || die "$S: still in use on the source: $busy; stop the module first, or pass --force"
        say "$S: moving although in use (--force): $busy"
      fi
    fi
    held="$held $S"
  done
  S='' F=$FB
  [ -n "$held" ] || return 0
  BATCH=${held# } BL=$(batch_label "$held")
  if [ "$MOVE_KEEP_EXISTING" = true ]; then fence_open snapshot; else fence_open fence; fi

  fresh=''
  for S in $BATCH; do
    F="$work/s.$S"
    state=$(recorded_state)
    there=no diff='' rows=''
    if exists tgt "$S"; then
      there=yes
      diff=$(compare)
      rows=$(rows_of "$F.tgt.content")
    fi
    verdict=$(copy_verdict "$state" "$there" "$diff" "$rows" "$MOVE_REPLACE")
    case "$verdict" in
      verified | recovered)
        record verified "$F.tgt.content"
        repoint_views
        if [ "$verdict" = verified ]; then
          say "$S: skipped, already copied from $MOVE_FROM and its content matches ($(tables_of "$F.tgt.content") tables, $rows rows)"
        else
          say "$S: copied and verified by an earlier run that stopped before recording it, $(tables_of "$F.tgt.content") tables, $rows rows"
        fi
        continue
        ;;
      adopted)
        record verified "$F.tgt.content"
        say "$S: skipped, the target already holds an identical copy that no mover recorded; recorded it as verified ($(tables_of "$F.tgt.content") tables, $rows rows)"
        continue
        ;;
      aside\ *) set_aside "${verdict#aside }" ;;
      refuse) die "$S: the target ($MOVE_TO) already holds this schema with $rows rows and it differs from the source ($diff); pass --replace to set it aside and copy afresh" ;;
    esac
    record copying
    fresh="$fresh $S"
  done
  S='' F=$FB
  if [ -z "$fresh" ]; then
    fence_close rollback
    return 0
  fi
  BL=$(batch_label "$fresh")

  # The source's content in the snapshot, taken beside the dump (or already, by a comparison
  # above), one schema after another.
  for S in $fresh; do
    [ -e "$work/s.$S.src.content" ] || content src "$work/s.$S.src.content"
  done 3>&- &
  srcsum=$!
  S=''
  dump_n=$(for s in $fresh; do printf ' -n %s' "$s"; done)
  rm -f "$FB.dump.rc" "$FB.restore.rc"
  # Uncompressed: the stream never touches disk. Each side's exit status and message kept apart.
  {
    rc=0
    # shellcheck disable=SC2086
    pg_dump -h "$SRC_HOST" -p "$SRC_PORT" -Fc -Z0 $dump_n --snapshot="$SNAP" --lock-wait-timeout="$MOVE_LOCK_TIMEOUT" 2>"$FB.dump.err" || rc=$?
    echo "$rc" >"$FB.dump.rc"
  } 3>&- | {
    rc=0
    pg_restore -h "$TGT_HOST" -p "$TGT_PORT" -d "$PGDATABASE" --single-transaction --exit-on-error 2>"$FB.restore.err" || rc=$?
    echo "$rc" >"$FB.restore.rc"
  }
  wait $srcsum || true
  why=$(tool_failure pg_restore "$(cat "$FB.restore.rc" 2>/dev/null || echo unknown)" "$(first_error "$FB.restore.err")")
  [ -z "$why" ] || die "$BL: pg_restore into the target ($MOVE_TO, $TGT_HOST:$TGT_PORT) failed, nothing of it was kept: $why"
  why=$(tool_failure pg_dump "$(cat "$FB.dump.rc" 2>/dev/null || echo unknown)" "$(first_error "$FB.dump.err")")
  [ -z "$why" ] || die "$BL: pg_dump from the source ($MOVE_FROM, $SOURCE) failed: $why"
  for S in $fresh; do
    F="$work/s.$S"
    [ ! -e "$F.src.content.failed" ] || die "$S: verifying on the $(cat "$F.src.content.failed")"
    say "$S: restored on the target, verifying"
    repoint_views
    # Statistics for the planner before the module starts, gathered while the copy is verified.
    tgt -f - >/dev/null 2>"$F.analyze.err" 3>&- <<SQL &
SELECT format('ANALYZE %I.%I', '$S', relname) FROM pg_class WHERE relnamespace = '$S'::regnamespace AND relkind IN ('r', 'p', 'm') AND NOT relispartition ORDER BY relname \\gexec
SQL
    analyze=$!
    diff=$(compare reuse)
    wait $analyze || die "$S: analysing it on the target ($MOVE_TO) failed: $(first_error "$F.analyze.err")"
    [ -z "$diff" ] || die "$S: the copy differs from the source: $diff; the source is untouched, and the target's copy stays unverified until a re-run"
    record verified "$F.tgt.content"
  done
  S='' F=$FB
  fence_close rollback
  for S in $fresh; do
    F="$work/s.$S"
    say "$S: copied and verified, $(tables_of "$F.tgt.content") tables, $(rows_of "$F.tgt.content") rows"
  done
}

drop_source() {
  exists src "$S" || {
    say "$S: skipped, not on the source ($MOVE_FROM)"
    return 0
  }
  rec=$(q tgt "reading $S's record" -c "SELECT state || ' ' || (content IS NOT NULL) FROM folio_mover.moves WHERE schema_name = '$S' AND source = '$SOURCE'")
  there=no
  ! exists tgt "$S" || there=yes
  dependents src "$S" >"$F.deps" 2>"$F.err" || die "$S: listing the views that read it on the $(side_name src) failed: $(first_error "$F.err")"
  views=$(cut -d'|' -f3 "$F.deps" | paste -sd ' ' -)
  busy=$(busy_sessions)
  verdict=$(drop_verdict "$rec" "$there" "$views" "$busy" "$MOVE_FORCE")
  [ "$verdict" = go ] || die "$S: ${verdict#refuse }"
  fence_open fence
  # The source must still be what was verified: compared inside the fence, then dropped by it.
  q tgt "reading $S's verified content" -c "SELECT content FROM folio_mover.moves WHERE schema_name = '$S'" >"$F.recorded"
  content src "$F.src.content"
  [ ! -e "$F.src.content.failed" ] || die "$S: checking the source on the $(cat "$F.src.content.failed")"
  LC_ALL=C sort "$F.recorded" >"$F.recorded.sorted" || die "$S: reading its verified content failed"
  why=$(unchanged_verdict "$F.recorded.sorted" "$F.src.content" "$F") || die "$S: comparing the source with its verified content failed"
  [ -z "$why" ] || die "$S: $why"
  say "$S: the source still matches the verified copy; dropping it"
  fence_send 'dropping the schema' "DROP SCHEMA \"$S\" CASCADE;"
  fence_close commit
  say "$S: dropped from the source ($MOVE_FROM) after matching the verified copy, $(tables_of "$F.src.content") tables, $(rows_of "$F.src.content") rows"
}
