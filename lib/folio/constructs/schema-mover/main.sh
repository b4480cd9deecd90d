# --- The run: the record table, extensions and roles on the target, then the online move, ----
# or the fenced batches on MOVE_JOBS workers.
if [ "$MOVE_ACTION" = copy ]; then
  q tgt 'creating the folio_mover record table' -f - >/dev/null <<'SQL'
CREATE SCHEMA IF NOT EXISTS folio_mover;
CREATE TABLE IF NOT EXISTS folio_mover.moves (schema_name text PRIMARY KEY, source text NOT NULL, table_rows bigint, moved_at timestamptz NOT NULL DEFAULT now());
ALTER TABLE folio_mover.moves ADD COLUMN IF NOT EXISTS state text NOT NULL DEFAULT 'verified', ADD COLUMN IF NOT EXISTS content text, ADD COLUMN IF NOT EXISTS views_sql text,
  ALTER COLUMN table_rows DROP NOT NULL;
SQL
  # Extensions the schemas' objects may use live in the database, not in a schema.
  exts=$(q src 'listing extensions' -c "SELECT extname FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY 1")
  for ext in $exts; do
    tgt -c "CREATE EXTENSION IF NOT EXISTS \"$ext\"" >/dev/null 2>"$work/err" || die "extension $ext is on the source but cannot be created on the target: $(first_error "$work/err")"
  done
else
  [ "$(q tgt 'looking for the folio_mover record table' -c "SELECT count(*) FROM pg_namespace WHERE nspname = 'folio_mover'")" = 1 ] ||
    die "the target ($MOVE_TO) has no record of any move (no folio_mover schema); move the schemas first"
fi
# The tenants config names and the schemas the source holds must agree, module by module.
for suffix in ${MOVE_SUFFIX:-}; do
  [ "$MOVE_ACTION" = copy ] || break
  q src 'listing the schemas' -c "SELECT nspname FROM pg_namespace WHERE nspname LIKE '%' || replace('$suffix', '_', '\\_') AND nspname NOT LIKE '%\\_replaced\\_%' ORDER BY 1" >"$work/found.raw"
  LC_ALL=C sort "$work/found.raw" >"$work/found"
  for s in $MOVE_SCHEMAS; do
    case "$s" in *"$suffix") echo "$s" ;; esac
  done | LC_ALL=C sort >"$work/asked"
  LC_ALL=C comm -13 "$work/asked" "$work/found" >"$work/extra" || die "comparing the source's schemas with the configured tenants failed"
  LC_ALL=C comm -23 "$work/asked" "$work/found" >"$work/missing" || die "comparing the source's schemas with the configured tenants failed"
  extra=$(paste -sd ' ' "$work/extra")
  missing=$(paste -sd ' ' "$work/missing")
  [ -z "$extra$missing" ] || die "the source's *$suffix schemas and the configured tenants disagree: not configured: ${extra:-none}; not on the source: ${missing:-none}"
done

# Roles the schemas' objects are owned by, granted to, or name in a policy or default
# privileges, created on the target where missing with their attributes, settings and comment
# (no password: Aurora does not reveal one), and the memberships between them; one transaction.
if [ "$MOVE_ACTION" = copy ]; then
  q src 'listing roles' -f - >"$work/roles.sql" <<SQL
WITH n AS (SELECT oid FROM pg_namespace WHERE nspname IN ($SCHEMA_LIST)),
objs(owner, acl) AS (
  SELECT nspowner, nspacl FROM pg_namespace WHERE oid IN (SELECT oid FROM n)
  UNION ALL SELECT relowner, relacl FROM pg_class WHERE relnamespace IN (SELECT oid FROM n)
  UNION ALL SELECT NULL, a.attacl FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relnamespace IN (SELECT oid FROM n) AND a.attacl IS NOT NULL
  UNION ALL SELECT proowner, proacl FROM pg_proc WHERE pronamespace IN (SELECT oid FROM n)
  UNION ALL SELECT typowner, typacl FROM pg_type WHERE typnamespace IN (SELECT oid FROM n)
  UNION ALL SELECT defaclrole, defaclacl FROM pg_default_acl WHERE defaclnamespace IN (SELECT oid FROM n)),
ids AS (SELECT owner AS id FROM objs WHERE owner IS NOT NULL
  UNION SELECT (aclexplode(acl)).grantee FROM objs WHERE acl IS NOT NULL
  UNION SELECT unnest(p.polroles) FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid WHERE c.relnamespace IN (SELECT oid FROM n)),
roles AS (SELECT r.* FROM pg_roles r JOIN ids ON r.oid = ids.id WHERE NOT r.rolsuper AND r.rolname !~ '^(pg|rds)_' AND r.rolname <> current_user)
SELECT format(E'SELECT NOT EXISTS (SELECT FROM pg_roles WHERE rolname = %L) AS missing \\\\gset\n\\\\if :missing\nCREATE ROLE %I WITH %s %s %s %s CONNECTION LIMIT %s%s;\n%s%s\\\\echo created role %s (%s)\n\\\\endif',
    r.rolname, r.rolname, CASE WHEN r.rolcanlogin THEN 'LOGIN' ELSE 'NOLOGIN' END, CASE WHEN r.rolinherit THEN 'INHERIT' ELSE 'NOINHERIT' END,
    CASE WHEN r.rolcreatedb THEN 'CREATEDB' ELSE 'NOCREATEDB' END, CASE WHEN r.rolcreaterole THEN 'CREATEROLE' ELSE 'NOCREATEROLE' END, r.rolconnlimit,
    CASE WHEN r.rolvaliduntil IS NOT NULL THEN format(' VALID UNTIL %L', r.rolvaliduntil) ELSE '' END,
    coalesce((SELECT string_agg(format(E'ALTER ROLE %I%s SET %I = %s;\n', r.rolname, CASE WHEN s.setdatabase <> 0 THEN ' IN DATABASE ' || quote_ident(current_database()) ELSE '' END,
        split_part(cfg, '=', 1), CASE WHEN split_part(cfg, '=', 1) IN ('search_path', 'temp_tablespaces', 'session_preload_libraries', 'local_preload_libraries')
          THEN substr(cfg, strpos(cfg, '=') + 1) ELSE quote_literal(substr(cfg, strpos(cfg, '=') + 1)) END), '')
      FROM pg_db_role_setting s, unnest(s.setconfig) cfg WHERE s.setrole = r.oid AND s.setdatabase IN (0, (SELECT oid FROM pg_database WHERE datname = current_database()))), ''),
    coalesce((SELECT format(E'COMMENT ON ROLE %I IS %L;\n', r.rolname, description) FROM pg_shdescription WHERE objoid = r.oid AND classoid = 'pg_authid'::regclass), ''),
    r.rolname, concat_ws(', ', CASE WHEN r.rolcanlogin THEN 'LOGIN' ELSE 'NOLOGIN' END, CASE WHEN r.rolconnlimit >= 0 THEN 'connection limit ' || r.rolconnlimit END,
      (SELECT count(*) || ' setting(s)' FROM pg_db_role_setting s, unnest(s.setconfig) WHERE s.setrole = r.oid HAVING count(*) > 0),
      (SELECT 'comment' FROM pg_shdescription WHERE objoid = r.oid AND classoid = 'pg_authid'::regclass), 'no password'))
FROM roles r ORDER BY r.rolname;
WITH n AS (SELECT oid FROM pg_namespace WHERE nspname IN ($SCHEMA_LIST)),
ids AS (SELECT nspowner AS id FROM pg_namespace WHERE oid IN (SELECT oid FROM n) UNION SELECT relowner FROM pg_class WHERE relnamespace IN (SELECT oid FROM n)
  UNION SELECT (aclexplode(relacl)).grantee FROM pg_class WHERE relnamespace IN (SELECT oid FROM n) AND relacl IS NOT NULL
  UNION SELECT (aclexplode(nspacl)).grantee FROM pg_namespace WHERE oid IN (SELECT oid FROM n) AND nspacl IS NOT NULL)
SELECT format(E'SELECT CASE WHEN EXISTS (SELECT FROM pg_roles WHERE rolname = %L) AND EXISTS (SELECT FROM pg_roles WHERE rolname = %L) THEN NOT pg_has_role(%L, %L, ''MEMBER'') ELSE false END AS missing \\\\gset\n\\\\if :missing\nGRANT %I TO %I%s;\n\\\\echo granted role %s to %s\n\\\\endif',
    m.rolname, g.rolname, m.rolname, g.rolname, g.rolname, m.rolname, CASE WHEN a.admin_option THEN ' WITH ADMIN OPTION' ELSE '' END, g.rolname, m.rolname)
FROM pg_auth_members a JOIN pg_roles g ON g.oid = a.roleid JOIN pg_roles m ON m.oid = a.member
WHERE (g.oid IN (SELECT id FROM ids) OR m.oid IN (SELECT id FROM ids)) AND NOT g.rolsuper AND NOT m.rolsuper AND g.rolname !~ '^(pg|rds)_' AND m.rolname !~ '^(pg|rds)_' AND m.rolname <> current_user
ORDER BY g.rolname, m.rolname;
SQL
  if [ -s "$work/roles.sql" ]; then
    tgt -1 -f "$work/roles.sql" >"$work/roles.out" 2>"$work/err" || die "creating the schemas' roles on the target ($MOVE_TO) failed: $(first_error "$work/err")"
    while read -r line; do say "$line"; done <"$work/roles.out"
  fi
fi


if [ "$MOVE_MODE" = online ]; then
  online_move
  say "done: $(echo $MOVE_SCHEMAS | wc -w | tr -d ' ') schema(s), moved online from $MOVE_FROM to $MOVE_TO"
  exit 0
fi

# The schemas in batches, MOVE_JOBS batches at a time from one queue: a worker claims the next
# unclaimed batch (mkdir is atomic); a failure stops each worker before its next batch. Failures
# are printed last, one line each. A copy's batches are about four per worker whatever the
# number of schemas, so pg_dump reads the catalog that many times, not once per schema; a drop
# takes one schema at a time.
# Largest first, so that the last batch to start holds small ones.
order=$MOVE_SCHEMAS
per=1
if [ "$MOVE_ACTION" = copy ]; then
  # Every schema asked for, those missing on the source too (each then fails by name).
  order=$(q src 'sizing the schemas' -c "SELECT s FROM unnest(ARRAY[$SCHEMA_LIST]::text[]) s LEFT JOIN pg_namespace n ON n.nspname = s
    LEFT JOIN pg_class c ON c.relnamespace = n.oid AND c.relkind IN ('r', 'm') GROUP BY s ORDER BY coalesce(sum(pg_total_relation_size(c.oid)), 0) DESC, s")
  per=$(batch_size "$(echo $order | wc -w)" "$MOVE_JOBS")
fi
printf '%s\n' $order | awk -v per="$per" '{ b = int((NR - 1) / per); line[b] = line[b] " " $0 } END { for (i = 0; i in line; i++) print i line[i] }' >"$work/queue" ||
  die "queueing the schemas failed"
i=$(echo $order | wc -w | tr -d ' ')
batches=$(wc -l <"$work/queue" | tr -d ' ')
worker() {
  while read -r idx BATCH; do
    ! ls "$work"/failed.* >/dev/null 2>&1 || break
    mkdir "$work/claim.$idx" 2>/dev/null || continue
    FB="$work/b.$idx" BL=$(batch_label "$BATCH")
    set +e
    (
      set -e
      FAIL_FILE="$work/failed.$idx"
      # However it ends, its background jobs (the fence's session, checksums, ANALYZE) end first:
      # the fence lifts, and nothing writes into $work after the run cleans it up.
      trap 'exec 3>&- 2>/dev/null; wait' EXIT
      if [ "$MOVE_ACTION" = copy ]; then
        copy_batch
      else
        S=$BATCH F="$work/s.$BATCH" FB="$work/s.$BATCH"
        say "$S: $MOVE_ACTION from $MOVE_FROM to $MOVE_TO"
        drop_source
      fi
    )
    rc=$?
    set -e
    [ "$rc" = 0 ] || [ -e "$work/failed.$idx" ] || echo "$BL: the mover stopped (exit $rc)" >"$work/failed.$idx"
  done <"$work/queue"
}
pids=''
k=0
while [ "$k" -lt "$MOVE_JOBS" ] && [ "$k" -lt "$batches" ]; do
  worker &
  pids="$pids $!"
  k=$((k + 1))
done
for p in $pids; do wait "$p" || true; done
if ls "$work"/failed.* >/dev/null 2>&1; then
  k=0
  while [ "$k" -lt "$batches" ]; do
    [ ! -e "$work/failed.$k" ] || echo "move: failed: $(cat "$work/failed.$k")"
    k=$((k + 1))
  done
  exit 1
fi
say "done: $i schema(s), $MOVE_ACTION from $MOVE_FROM to $MOVE_TO"
