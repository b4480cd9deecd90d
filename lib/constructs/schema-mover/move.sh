# FOLIO schema mover: copies a module's tenant schemas from one Aurora cluster of the pair to
# the other with pg_dump and pg_restore, roles and grants included, then proves the copy by
# counting every table's rows on both sides. The source is only ever read. Run by the
# stack's one-shot mover task (`sh -c`, POSIX sh: busybox in the postgres alpine image) and
# by the tests against two local servers; `npm run move` starts it.
#
# Environment:
#   PROVISIONED_HOST/PORT, SERVERLESS_HOST/PORT   the two clusters
#   PGUSER, PGPASSWORD, PGDATABASE                the admin credential and the FOLIO database
#   MOVE_FROM, MOVE_TO                            provisioned | serverless
#   MOVE_SCHEMAS                                  schema names, space-separated, in order
#   MOVE_SUFFIX                                   the module's schema suffix (e.g. _mod_inventory_storage):
#                                                 the source's schemas with it must be exactly MOVE_SCHEMAS
#   MOVE_ACTION                                   copy (default) | drop-source
#   MOVE_REPLACE=true   a target schema that holds rows is set aside (renamed, never dropped)
#   MOVE_FORCE=true     move although sessions on the source still use the schema
#   MOVE_KEEP_EXISTING=true  a reference copy: keep any copy the target already has; the
#                       module stays live on the source, so its sessions are expected
#
# Each schema is dumped and counted in one exported snapshot of the source, so the row counts
# compare exactly what was copied even while something writes to the source.
#
# Output: one "move: <schema>: <what happened>" line per step; the last line is
# "move: done: ..." (exit 0) or "move: failed: <reason>" (exit 1).
set -eu

say() { echo "move: $*"; }
die() {
  echo "move: failed: $*"
  exit 1
}

MOVE_ACTION=${MOVE_ACTION:-copy}
MOVE_REPLACE=${MOVE_REPLACE:-false}
MOVE_FORCE=${MOVE_FORCE:-false}
MOVE_KEEP_EXISTING=${MOVE_KEEP_EXISTING:-false}
: "${MOVE_SCHEMAS:?MOVE_SCHEMAS is not set}" "${MOVE_FROM:?MOVE_FROM is not set}" "${MOVE_TO:?MOVE_TO is not set}"
: "${PGDATABASE:?PGDATABASE is not set}" "${PGUSER:?PGUSER is not set}"
export PGCONNECT_TIMEOUT=${PGCONNECT_TIMEOUT:-15}

endpoint() {
  case "$1" in
    provisioned) echo "${PROVISIONED_HOST:?} ${PROVISIONED_PORT:-5432}" ;;
    serverless) echo "${SERVERLESS_HOST:?} ${SERVERLESS_PORT:-5432}" ;;
    *) die "cluster \"$1\" is not valid (valid: provisioned, serverless)" ;;
  esac
}
[ "$MOVE_FROM" != "$MOVE_TO" ] || die "MOVE_FROM and MOVE_TO are both $MOVE_FROM (valid: one cluster each)"
case "$MOVE_ACTION" in copy | drop-source) ;; *) die "MOVE_ACTION \"$MOVE_ACTION\" is not valid (valid: copy, drop-source)" ;; esac
# Names reach SQL as identifiers and literals: only what FOLIO schema names are made of.
for s in $MOVE_SCHEMAS; do
  case "$s" in *[!a-z0-9_]* | [!a-z]*) die "schema name \"$s\" is not valid (valid: a-z, 0-9, _, starting with a letter)" ;; esac
done

set -- $(endpoint "$MOVE_FROM")
SRC_HOST=$1 SRC_PORT=$2
set -- $(endpoint "$MOVE_TO")
TGT_HOST=$1 TGT_PORT=$2
SOURCE="$SRC_HOST:$SRC_PORT"

src() { psql -X -q -v ON_ERROR_STOP=1 -At -h "$SRC_HOST" -p "$SRC_PORT" "$@"; }
tgt() { psql -X -q -v ON_ERROR_STOP=1 -At -h "$TGT_HOST" -p "$TGT_PORT" "$@"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

src -c 'SELECT 1' >/dev/null 2>"$work/err" || die "cannot connect to the source ($MOVE_FROM, $SOURCE): $(head -n1 "$work/err")"
tgt -c 'SELECT 1' >/dev/null 2>"$work/err" || die "cannot connect to the target ($MOVE_TO, $TGT_HOST:$TGT_PORT): $(head -n1 "$work/err")"

exists() { [ "$("$1" -c "SELECT count(*) FROM pg_namespace WHERE nspname = '$2'")" = 1 ]; }

# "<table> <rows>" for every table of a schema, by name; in snapshot $3 when given.
counts() {
  q=$("$1" -c "SELECT string_agg(format('SELECT %L, count(*) FROM %I.%I', c.relname, n.nspname, c.relname), ' UNION ALL ' ORDER BY c.relname)
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '$2' AND c.relkind IN ('r', 'p')")
  [ -n "$q" ] || return 0
  # Sorted here, not by the server: the two clusters' collations may differ.
  if [ -n "${3:-}" ]; then
    "$1" -F ' ' -c 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' -c "SET TRANSACTION SNAPSHOT '$3'" -c "$q" -c 'COMMIT' | LC_ALL=C sort
  else
    "$1" -F ' ' -c "$q" | LC_ALL=C sort
  fi
}

# A snapshot of the source held open by a background session until snapshot_close.
snapshot_open() {
  rm -f "$work/snap.in" "$work/snap.id"
  mkfifo "$work/snap.in"
  src -f "$work/snap.in" >"$work/snap.log" 2>&1 &
  SNAP_PID=$!
  exec 3>"$work/snap.in"
  printf '%s\n' 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;' "SELECT pg_export_snapshot() \\g '$work/snap.id'" >&3
  i=0
  while [ ! -s "$work/snap.id" ]; do
    i=$((i + 1))
    [ "$i" -lt 300 ] || die "the source did not export a snapshot: $(head -n1 "$work/snap.log")"
    sleep 0.1
  done
  SNAP=$(head -n1 "$work/snap.id")
}
snapshot_close() {
  printf 'COMMIT;\n' >&3
  exec 3>&-
  wait "$SNAP_PID" || true
}
total() { awk '{ n += $2 } END { print n + 0 }'; }

# What the schema is made of: relations by kind, functions, triggers, and the grants on them.
shape() {
  "$1" -F ' ' -c "
    SELECT 'relkind-' || c.relkind, count(*) FROM pg_class c WHERE c.relnamespace = '$2'::regnamespace GROUP BY 1
    UNION ALL SELECT 'functions', count(*) FROM pg_proc WHERE pronamespace = '$2'::regnamespace
    UNION ALL SELECT 'triggers', count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = '$2'::regnamespace AND NOT t.tgisinternal
    UNION ALL SELECT 'grants', count(*) FROM pg_class c, aclexplode(c.relacl) WHERE c.relnamespace = '$2'::regnamespace" | LC_ALL=C sort
}

ensure_marker_table() {
  tgt -c "CREATE SCHEMA IF NOT EXISTS folio_mover;
    CREATE TABLE IF NOT EXISTS folio_mover.moves (schema_name text PRIMARY KEY, source text NOT NULL, table_rows bigint NOT NULL, moved_at timestamptz NOT NULL DEFAULT now())" >/dev/null
}

# Sessions that still use a schema: its own login role, or a last query naming it.
sessions() {
  src -c "SELECT string_agg(format('pid %s (%s, %s)', pid, usename, coalesce(nullif(application_name, ''), 'no application name')), '; ' ORDER BY pid)
    FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
    AND (usename = '$1' OR query LIKE '%$1.%' OR query LIKE '%\"$1\".%')"
}

# Roles the schema's objects are owned by or granted to, created on the target where missing
# (without a password: Aurora does not reveal one), and their memberships between each other.
ensure_roles() {
  src -F ' ' -c "
    WITH objs AS (
      SELECT nspowner AS owner, nspacl AS acl FROM pg_namespace WHERE nspname = '$1'
      UNION ALL SELECT relowner, relacl FROM pg_class WHERE relnamespace = '$1'::regnamespace
      UNION ALL SELECT proowner, proacl FROM pg_proc WHERE pronamespace = '$1'::regnamespace),
    ids AS (SELECT owner AS id FROM objs UNION SELECT (aclexplode(acl)).grantee FROM objs WHERE acl IS NOT NULL)
    SELECT r.rolname, CASE WHEN r.rolcanlogin THEN 'LOGIN' ELSE 'NOLOGIN' END
    FROM pg_roles r JOIN ids ON r.oid = ids.id WHERE NOT r.rolsuper ORDER BY 1" >"$work/roles"
  while read -r role login; do
    case "$role" in *[!a-z0-9_]*) die "$1: role \"$role\" has a name this mover does not handle" ;; esac
    if [ "$(tgt -c "SELECT count(*) FROM pg_roles WHERE rolname = '$role'")" = 0 ]; then
      tgt -c "CREATE ROLE \"$role\" $login" >/dev/null
      say "$1: created role $role ($login, no password)"
    fi
  done <"$work/roles"
  names=$(awk '{ printf "%s'\''%s'\''", (NR > 1 ? "," : ""), $1 }' "$work/roles")
  [ -n "$names" ] || return 0
  src -F ' ' -c "SELECT g.rolname, m.rolname FROM pg_auth_members a JOIN pg_roles g ON g.oid = a.roleid JOIN pg_roles m ON m.oid = a.member
    WHERE g.rolname IN ($names) OR m.rolname IN ($names) ORDER BY 1, 2" | while read -r granted member; do
    if [ "$(tgt -c "SELECT count(*) FROM pg_roles WHERE rolname IN ('$granted', '$member')")" = 2 ] &&
      [ "$(tgt -c "SELECT count(*) FROM pg_auth_members a JOIN pg_roles g ON g.oid = a.roleid JOIN pg_roles m ON m.oid = a.member WHERE g.rolname = '$granted' AND m.rolname = '$member'")" = 0 ]; then
      tgt -c "GRANT \"$granted\" TO \"$member\"" >/dev/null
      say "$1: granted role $granted to $member"
    fi
  done
}

# Views in other schemas that read this one (a view follows a renamed schema, so these are
# re-created over the fresh copy once it is in place): with "names", their names; else the
# statements that re-create them, each ending in a semicolon.
dependent_views() {
  what="format('CREATE OR REPLACE VIEW %I.%I AS %s', vn.nspname, v.relname, pg_get_viewdef(v.oid))"
  [ "${3:-}" != names ] || what="format('%I.%I', vn.nspname, v.relname)"
  "$1" -c "SELECT DISTINCT $what
    FROM pg_depend d JOIN pg_rewrite rw ON rw.oid = d.objid JOIN pg_class v ON v.oid = rw.ev_class
    JOIN pg_namespace vn ON vn.oid = v.relnamespace JOIN pg_class t ON t.oid = d.refobjid
    WHERE d.classid = 'pg_rewrite'::regclass AND d.refclassid = 'pg_class'::regclass
    AND t.relnamespace = '$2'::regnamespace AND v.relnamespace <> '$2'::regnamespace"
}

copy_schema() {
  s=$1
  exists src "$s" || die "$s: no such schema on the source ($MOVE_FROM)"
  if exists tgt "$s" && [ "$MOVE_KEEP_EXISTING" = true ]; then
    say "$s: kept the target's existing copy ($(counts tgt "$s" | total) rows), a reference copy for reads across the split"
    return 0
  fi
  counts src "$s" >"$work/src.counts"
  if exists tgt "$s"; then
    if [ "$(tgt -c "SELECT count(*) FROM folio_mover.moves WHERE schema_name = '$s' AND source = '$SOURCE'")" = 1 ] &&
      counts tgt "$s" | cmp -s - "$work/src.counts"; then
      say "$s: skipped, already copied from $MOVE_FROM and every table's rows match ($(total <"$work/src.counts") rows)"
      return 0
    fi
  fi
  busy=$(sessions "$s")
  if [ -n "$busy" ] && [ "$MOVE_KEEP_EXISTING" = true ]; then
    say "$s: copying a snapshot while the module stays live on the source"
  elif [ -n "$busy" ]; then
    [ "$MOVE_FORCE" = true ] || die "$s: still in use on the source: $busy; stop the module first, or pass --force"
    say "$s: moving although in use (--force): $busy"
  fi

  : >"$work/views.sql"
  if exists tgt "$s"; then
    rows=$(counts tgt "$s" | total)
    [ "$rows" = 0 ] || [ "$MOVE_REPLACE" = true ] || die "$s: the target ($MOVE_TO) already holds this schema with $rows rows; pass --replace to set it aside and copy afresh"
    aside="${s}_replaced_$(date -u +%Y%m%d%H%M%S)"
    views=$(dependent_views tgt "$s" names | paste -sd ' ' -)
    dependent_views tgt "$s" >"$work/views.sql"
    tgt -c "ALTER SCHEMA \"$s\" RENAME TO \"$aside\"" >/dev/null
    say "$s: set the target's copy ($rows rows) aside as $aside"
  fi

  ensure_roles "$s"
  rm -f "$work/dump.failed" "$work/restore.failed"
  snapshot_open
  counts src "$s" "$SNAP" >"$work/src.counts"
  { pg_dump -h "$SRC_HOST" -p "$SRC_PORT" -Fc -n "$s" --snapshot="$SNAP" 2>"$work/dump.err" || touch "$work/dump.failed"; } |
    pg_restore -h "$TGT_HOST" -p "$TGT_PORT" -d "$PGDATABASE" --single-transaction --exit-on-error 2>"$work/restore.err" || touch "$work/restore.failed"
  snapshot_close
  [ ! -e "$work/dump.failed" ] || die "$s: pg_dump failed: $(head -n1 "$work/dump.err")"
  [ ! -e "$work/restore.failed" ] || die "$s: pg_restore failed (nothing of it was kept): $(grep -m1 -i error "$work/restore.err" || head -n1 "$work/restore.err")"
  if [ -s "$work/views.sql" ]; then
    tgt -1 -f "$work/views.sql" >/dev/null 2>"$work/err" || die "$s: could not re-create the views that read it ($views) over the fresh copy, which is in place; they still read the copy set aside: $(head -n1 "$work/err")"
    say "$s: re-created the views of other schemas that read it over the fresh copy: $views"
  fi

  counts tgt "$s" >"$work/tgt.counts"
  cmp -s "$work/src.counts" "$work/tgt.counts" || die "$s: row counts differ after the copy: $(diff "$work/src.counts" "$work/tgt.counts" | grep '^[<>]' | head -n 4 | tr '\n' ' ')"
  shape src "$s" >"$work/src.shape"
  shape tgt "$s" >"$work/tgt.shape"
  cmp -s "$work/src.shape" "$work/tgt.shape" || die "$s: objects differ after the copy: $(diff "$work/src.shape" "$work/tgt.shape" | grep '^[<>]' | tr '\n' ' ')"
  rows=$(total <"$work/tgt.counts")
  tgt -c "INSERT INTO folio_mover.moves (schema_name, source, table_rows) VALUES ('$s', '$SOURCE', $rows)
    ON CONFLICT (schema_name) DO UPDATE SET source = EXCLUDED.source, table_rows = EXCLUDED.table_rows, moved_at = now()" >/dev/null
  say "$s: copied and verified, $(wc -l <"$work/tgt.counts" | tr -d ' ') tables, $rows rows"
}

drop_source() {
  s=$1
  exists src "$s" || {
    say "$s: skipped, not on the source ($MOVE_FROM)"
    return 0
  }
  [ "$(tgt -c "SELECT count(*) FROM pg_namespace WHERE nspname = 'folio_mover'")" = 1 ] &&
    [ "$(tgt -c "SELECT count(*) FROM folio_mover.moves WHERE schema_name = '$s' AND source = '$SOURCE'")" = 1 ] ||
    die "$s: the target ($MOVE_TO) has no verified copy from $MOVE_FROM; move it first"
  counts src "$s" >"$work/src.counts"
  counts tgt "$s" | cmp -s - "$work/src.counts" || die "$s: the target's rows no longer match the source's; refusing to drop the source"
  deps=$(dependent_views src "$s" names | paste -sd ' ' -)
  [ -z "$deps" ] || die "$s: views of other schemas on the source still read it: $deps"
  busy=$(sessions "$s")
  [ -z "$busy" ] || [ "$MOVE_FORCE" = true ] || die "$s: still in use on the source: $busy"
  src -c "DROP SCHEMA \"$s\" CASCADE" >/dev/null
  say "$s: dropped from the source ($MOVE_FROM) after matching $(total <"$work/src.counts") rows on the target"
}

[ "$MOVE_ACTION" = drop-source ] || {
  ensure_marker_table
  # Extensions the schemas' objects may use live in the database, not in a schema.
  for ext in $(src -c "SELECT extname FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY 1"); do
    tgt -c "CREATE EXTENSION IF NOT EXISTS \"$ext\"" >/dev/null 2>"$work/err" || die "extension $ext is on the source but cannot be created on the target: $(head -n1 "$work/err")"
  done
}
# The tenants config names and the schemas the source holds must agree.
if [ -n "${MOVE_SUFFIX:-}" ] && [ "$MOVE_ACTION" = copy ]; then
  case "$MOVE_SUFFIX" in _*[!a-z0-9_]* | [!_]*) die "MOVE_SUFFIX \"$MOVE_SUFFIX\" is not valid (valid: _mod_<name>)" ;; esac
  src -c "SELECT nspname FROM pg_namespace WHERE nspname LIKE '%' || replace('$MOVE_SUFFIX', '_', '\\_') AND nspname NOT LIKE '%\\_replaced\\_%' ORDER BY 1" | LC_ALL=C sort >"$work/found"
  printf '%s\n' $MOVE_SCHEMAS | LC_ALL=C sort >"$work/asked"
  extra=$(comm -13 "$work/asked" "$work/found" | paste -sd ' ' -)
  missing=$(comm -23 "$work/asked" "$work/found" | paste -sd ' ' -)
  [ -z "$extra$missing" ] || die "the source's *$MOVE_SUFFIX schemas and the configured tenants disagree: not configured: ${extra:-none}; not on the source: ${missing:-none}"
fi
n=0
for s in $MOVE_SCHEMAS; do
  say "$s: $MOVE_ACTION from $MOVE_FROM to $MOVE_TO"
  if [ "$MOVE_ACTION" = copy ]; then copy_schema "$s"; else drop_source "$s"; fi
  n=$((n + 1))
done
say "done: $n schema(s), $MOVE_ACTION from $MOVE_FROM to $MOVE_TO"
