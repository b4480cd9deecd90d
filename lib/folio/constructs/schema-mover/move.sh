# FOLIO schema mover: copies a module's tenant schemas from one Aurora cluster of the pair to
# the other with pg_dump and pg_restore, roles and grants included, and proves each copy by
# content. Run by the stack's one-shot mover task (`sh -c`, POSIX sh: busybox in the postgres
# alpine image) and by the tests against two local servers; `npm run move` starts it.
#
# Environment:
#   PRIMARY_HOST/PORT, OFFLOAD_HOST/PORT   the two clusters
#   PGUSER, PGPASSWORD, PGDATABASE                the admin credential and the FOLIO database
#   MOVE_FROM, MOVE_TO                            primary | offload
#   MOVE_SCHEMAS                                  schema names, space-separated
#   MOVE_SUFFIX                                   the modules' schema suffixes (e.g. _mod_inventory_storage),
#                                                 space-separated: the source's schemas with each suffix must
#                                                 be exactly the MOVE_SCHEMAS with it
#   MOVE_ACTION                                   copy (default) | drop-source
#   MOVE_JOBS          schemas moved at once (default 1; the task's vCPUs)
#   MOVE_LOCK_TIMEOUT  how long any statement waits for a lock held elsewhere (default 30s)
#   MOVE_REPLACE=true  a target schema that differs from the source is set aside (renamed, never dropped)
#   MOVE_FORCE=true    move although sessions on the source still use the schema
#   MOVE_KEEP_EXISTING=true  a reference copy: keep any copy the target already has; the
#                      module stays live on the source, so it is copied from a snapshot, unfenced
#   MOVE_MODE          fenced (default) | online: the module keeps writing while its schemas
#                      replicate (logical replication), and writes pause only for the switch
#   MOVE_CATCHUP_TIMEOUT  online: how long the switch waits for the target to apply the source's
#                      last write before it gives up and lifts the fence (default 30s)
#   MOVE_ROUTES        online: the names the modules connect by (host names, or service=<name>
#                      of a libpq service file), space-separated. At the switch the mover says
#                      "switch: ready", whoever owns the routes points them at the target, and
#                      the switch is done when each leads there (see route_switch)
#   MOVE_ROUTE_TIMEOUT how long the routes may take (default 300s); MOVE_ROUTE_GRACE how long no
#                      session of the module may reach the source before its fence lifts (30s)
#   MOVE_SWITCH_COMMAND   online: a command run inside the pause, after every check, that points
#                      the module at the target; if it fails, nothing is switched. Without one,
#                      the switch waits, fenced, until no session of the module is left on the
#                      source (the module stopped), and the module starts on the target after
#                      the deploy: its writes then pause for its stop and start, not the copy
#
# The fence: for a move (not a reference copy) one session on the source takes EXCLUSIVE locks
# on every table of the schema (partitions included) and a lock on every sequence, then exports
# the snapshot that pg_dump and the checksums read. Reads go on; every write (any role,
# transaction shape or search_path) waits until the fence lifts, and sessions still waiting
# then are ended, so their writes never land. The fence is a transaction that is always rolled
# back: if the mover dies, the connection closes and the fence is gone.
#
# Verification: per table, the row count and the sum of a 64-bit hash of every row's text,
# computed inside each server; sequences by value and is_called; the catalog shape (relations,
# columns, indexes, constraints, triggers, functions, types, partitions, views and their
# options, grants, policies, comments). The target's state is kept in folio_mover.moves, so a
# re-run resumes wherever a run stopped.
#
# Online (MOVE_MODE=online, every schema of the wave at once): the structure is restored on the
# target, one publication on the source and one subscription on the target copy the rows and
# then follow the module's writes. A checkpoint fences the schemas for as long as the target
# takes to apply the source's last write (a beacon row), takes a snapshot on each side, lifts the
# fence and compares the two snapshots by content as above. The switch fences again, waits for
# the beacon, sets the sequences, compares catalogs and sequences, runs MOVE_SWITCH_COMMAND, drops
# the subscription and lifts the fence: writes pause for that long, whatever the data size. The
# snapshots taken at the switch are then compared by content too. Refused by name: a source
# without wal_level logical, tables with neither a primary key nor a replica identity (their
# UPDATEs and DELETEs would fail on the source once published), unlogged tables and large-object
# columns (not replicated). DDL during the move fails the catalog comparison; a target that falls
# behind fails the catch-up. The publication, the subscription and its slot are dropped however
# the run ends, and a re-run starts the replica afresh: the source keeps its data throughout.
#
# Output: one "move: <schema>: <what happened>" line per step; the last line is
# "move: done: ..." (exit 0) or "move: failed: <reason>" (exit 1), one per failed schema.
set -eu
trap '' PIPE
work=$(mktemp -d)
# Background jobs of a failed schema may still be writing there: best effort, and quiet.
trap 'rm -rf "$work" 2>/dev/null || true' EXIT
# fd 4 is the log, also from inside $(...).
exec 4>&1

say() { echo "move: $*"; }
# The first failure of a schema (or of the run) is the one reported; later ones are its echoes.
die() {
  f=${FAIL_FILE:-$work/main.failed}
  if [ ! -e "$f" ]; then
    echo "$*" >"$f"
    [ -n "${FAIL_FILE:-}" ] || echo "move: failed: $*" >&4
  fi
  exit 1
}
# User text echoed in messages: one line, at most 80 characters.
shown() { printf '%s' "$1" | tr -c '[:print:]' '?' | cut -c1-80; }
first_error() { grep -m1 -i -E 'error|fatal|could not|failed' "$1" 2>/dev/null | sed -E 's/^(psql|pg_dump|pg_restore)(:[^ ]*)?: //; s/^error: //' | cut -c1-300 || true; }

MOVE_ACTION=${MOVE_ACTION:-copy}
MOVE_REPLACE=${MOVE_REPLACE:-false}
MOVE_FORCE=${MOVE_FORCE:-false}
MOVE_KEEP_EXISTING=${MOVE_KEEP_EXISTING:-false}
MOVE_JOBS=${MOVE_JOBS:-1}
MOVE_LOCK_TIMEOUT=${MOVE_LOCK_TIMEOUT:-30s}
MOVE_MODE=${MOVE_MODE:-fenced}
MOVE_CATCHUP_TIMEOUT=${MOVE_CATCHUP_TIMEOUT:-30s}
MOVE_ROUTE_TIMEOUT=${MOVE_ROUTE_TIMEOUT:-300s}
MOVE_ROUTE_GRACE=${MOVE_ROUTE_GRACE:-30s}
for v in MOVE_SCHEMAS MOVE_FROM MOVE_TO PGDATABASE PGUSER; do
  eval "[ -n \"\${$v:-}\" ]" || die "$v is not set"
done

# Every value checked before anything connects: one line naming the value and the valid ones.
for v in MOVE_FROM MOVE_TO; do
  eval "c=\$$v"
  case "$c" in primary | offload) ;; *) die "$v \"$(shown "$c")\" is not valid (valid: primary, offload)" ;; esac
done
[ "$MOVE_FROM" != "$MOVE_TO" ] || die "MOVE_FROM and MOVE_TO are both $MOVE_FROM (valid: one cluster each)"
case "$MOVE_ACTION" in copy | drop-source) ;; *) die "MOVE_ACTION \"$(shown "$MOVE_ACTION")\" is not valid (valid: copy, drop-source)" ;; esac
for v in MOVE_REPLACE MOVE_FORCE MOVE_KEEP_EXISTING; do
  eval "c=\$$v"
  case "$c" in true | false) ;; *) die "$v \"$(shown "$c")\" is not valid (valid: true, false)" ;; esac
done
case "$MOVE_MODE" in fenced | online) ;; *) die "MOVE_MODE \"$(shown "$MOVE_MODE")\" is not valid (valid: fenced, online)" ;; esac
if [ "$MOVE_MODE" = online ]; then
  [ "$MOVE_ACTION" = copy ] || die "MOVE_MODE online applies to copies (valid: MOVE_ACTION copy, or MOVE_MODE fenced)"
  [ "$MOVE_KEEP_EXISTING" = false ] || die "MOVE_MODE online moves a module; a reference copy is a snapshot (valid: MOVE_KEEP_EXISTING false, or MOVE_MODE fenced)"
  [ "$MOVE_REPLACE" = false ] || die "MOVE_REPLACE applies to fenced moves; an online move copies into an empty target (valid: MOVE_MODE fenced)"
fi
seconds() { # variable: its value in whole seconds ("30s"), or one line naming it
  eval "v=\$$1"
  case "$v" in [1-9]*s) n=${v%s} ;; *) n=x ;; esac
  case "$n" in '' | *[!0-9]*) die "$1 \"$(shown "$v")\" is not valid (valid: whole seconds, such as 30s)" ;; esac
  echo "$n"
}
CATCHUP_S=$(seconds MOVE_CATCHUP_TIMEOUT)
ROUTE_S=$(seconds MOVE_ROUTE_TIMEOUT)
GRACE_S=$(seconds MOVE_ROUTE_GRACE)
for r in ${MOVE_ROUTES:-}; do
  case "$r" in service=*[!A-Za-z0-9_.-]* | service=) die "MOVE_ROUTES entry \"$(shown "$r")\" is not valid (valid: host names, or service=<name> of a libpq service file)" ;; service=*) ;;
    *[!A-Za-z0-9.-]* | -* | .*) die "MOVE_ROUTES entry \"$(shown "$r")\" is not valid (valid: host names, or service=<name> of a libpq service file)" ;; esac
done
if [ -n "${MOVE_ROUTES:-}" ]; then
  [ "$MOVE_MODE" = online ] || die "MOVE_ROUTES applies to online moves (valid: MOVE_MODE online)"
  [ -z "${MOVE_SWITCH_COMMAND:-}" ] || die "MOVE_ROUTES and MOVE_SWITCH_COMMAND cannot be combined (valid: one way to point the module at the target)"
fi
case "$MOVE_JOBS" in '' | *[!0-9]* | 0*) die "MOVE_JOBS \"$(shown "$MOVE_JOBS")\" is not valid (valid: a whole number from 1 to 32)" ;; esac
[ "$MOVE_JOBS" -le 32 ] || die "MOVE_JOBS \"$MOVE_JOBS\" is not valid (valid: a whole number from 1 to 32)"
case "$MOVE_LOCK_TIMEOUT" in [1-9]*ms | [1-9]*s | [1-9]*min) ;; *) die "MOVE_LOCK_TIMEOUT \"$(shown "$MOVE_LOCK_TIMEOUT")\" is not valid (valid: a PostgreSQL duration such as 500ms, 30s or 2min)" ;; esac
case "${MOVE_LOCK_TIMEOUT%%[a-z]*}" in *[!0-9]*) die "MOVE_LOCK_TIMEOUT \"$(shown "$MOVE_LOCK_TIMEOUT")\" is not valid (valid: a PostgreSQL duration such as 500ms, 30s or 2min)" ;; esac
# Names reach SQL as identifiers and literals: only what FOLIO schema names are made of.
for s in $MOVE_SCHEMAS; do
  case "$s" in *[!a-z0-9_]* | [!a-z]*) die "schema name \"$(shown "$s")\" is not valid (valid: a-z, 0-9, _, starting with a letter)" ;; esac
  [ "${#s}" -le 48 ] || die "schema name \"$s\" is too long to set aside (valid: at most 48 characters)"
done
# Sorted once, not compared pairwise: hundreds of schemas (60 tenants x 7 modules) stay linear.
twice=$(printf '%s\n' $MOVE_SCHEMAS | LC_ALL=C sort | uniq -d | head -n 1)
[ -z "$twice" ] || die "schema \"$twice\" is listed twice in MOVE_SCHEMAS (valid: each schema once)"
for suffix in ${MOVE_SUFFIX:-}; do
  case "$suffix" in _mod_*[!a-z0-9_]* | _mod_) die "MOVE_SUFFIX \"$(shown "$suffix")\" is not valid (valid: _mod_<name>, space-separated)" ;; _mod_*) ;; *) die "MOVE_SUFFIX \"$(shown "$suffix")\" is not valid (valid: _mod_<name>, space-separated)" ;; esac
done
endpoint() {
  case "$1" in
    primary) h=${PRIMARY_HOST:-} p=${PRIMARY_PORT:-5432} hv=PRIMARY_HOST pv=PRIMARY_PORT ;;
    offload) h=${OFFLOAD_HOST:-} p=${OFFLOAD_PORT:-5432} hv=OFFLOAD_HOST pv=OFFLOAD_PORT ;;
  esac
  [ -n "$h" ] || die "$hv is not set (valid: the $1 cluster's endpoint)"
  case "$p" in '' | *[!0-9]*) die "$pv \"$(shown "$p")\" is not valid (valid: a port from 1 to 65535)" ;; esac
  [ "$p" -ge 1 ] && [ "$p" -le 65535 ] || die "$pv \"$p\" is not valid (valid: a port from 1 to 65535)"
}
endpoint "$MOVE_FROM"
SRC_HOST=$h SRC_PORT=$p
endpoint "$MOVE_TO"
TGT_HOST=$h TGT_PORT=$p
SOURCE="$SRC_HOST:$SRC_PORT"

export PGCONNECT_TIMEOUT=${PGCONNECT_TIMEOUT:-15} PGAPPNAME=folio-schema-mover
# Every session waits a bounded time for locks, and renders values the same way on both sides.
export PGOPTIONS="-c lock_timeout=$MOVE_LOCK_TIMEOUT -c statement_timeout=0 -c idle_in_transaction_session_timeout=0 -c TimeZone=UTC -c DateStyle=ISO -c IntervalStyle=postgres -c extra_float_digits=3 -c bytea_output=hex -c lc_monetary=C"
src() { psql -X -q -v ON_ERROR_STOP=1 -At -h "$SRC_HOST" -p "$SRC_PORT" "$@"; }
tgt() { psql -X -q -v ON_ERROR_STOP=1 -At -h "$TGT_HOST" -p "$TGT_PORT" "$@"; }
side_name() { if [ "$1" = src ]; then echo "source ($MOVE_FROM)"; else echo "target ($MOVE_TO)"; fi; }

# One query on a side; on error, the failure names the side, what was asked and why (and, for
# a lock that timed out, who holds it).
q() {
  side=$1 what=$2
  shift 2
  qf=${F:-$work/main}.q
  "$side" "$@" >"$qf.out" 2>"$qf.err" || {
    why=$(first_error "$qf.err")
    case "$why" in *"lock timeout"*) why="$why (waited $MOVE_LOCK_TIMEOUT; held by $(lock_holders "$side"))" ;; esac
    die "${S:+$S: }$what on the $(side_name "$side") failed: ${why:-$(head -n1 "$qf.err")}"
  }
  cat "$qf.out"
}

# Who holds a lock, other than the mover, on any relation of the schemas being moved.
lock_holders() {
  "$1" -c "SELECT coalesce(string_agg(DISTINCT format('pid %s (%s, %s, %s)', a.pid, a.usename, coalesce(nullif(a.application_name, ''), 'no application name'), a.state), '; '), 'an unknown session')
    FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE l.granted AND n.nspname IN ($SCHEMA_LIST) AND a.application_name <> 'folio-schema-mover' AND l.mode <> 'AccessShareLock'" 2>/dev/null || echo 'an unknown session'
}
SCHEMA_LIST=$(for s in $MOVE_SCHEMAS; do printf "'%s'," "$s"; done)
SCHEMA_LIST=${SCHEMA_LIST%,}

src -c 'SELECT 1' >/dev/null 2>"$work/err" || die "cannot connect to the source ($MOVE_FROM, $SOURCE): $(first_error "$work/err")"
tgt -c 'SELECT 1' >/dev/null 2>"$work/err" || die "cannot connect to the target ($MOVE_TO, $TGT_HOST:$TGT_PORT): $(first_error "$work/err")"
if [ "$MOVE_MODE" = online ]; then
  wal=$(src -c 'SHOW wal_level' 2>"$work/err") || die "reading wal_level on the source ($MOVE_FROM) failed: $(first_error "$work/err")"
  [ "$wal" = logical ] || die "the source's wal_level is $wal: online moves need logical replication, which Aurora turns on with rds.logical_replication = 1 in the cluster parameter group at the writer's next reboot (valid: wal_level logical, or MOVE_MODE fenced)"
fi

exists() { [ "$(q "$1" "looking for schema $2" -c "SELECT count(*) FROM pg_namespace WHERE nspname = '$2'")" = 1 ]; }

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
  why=$(first_error "$FB.log")
  case "$why" in *"lock timeout"*) why="$why (waited $MOVE_LOCK_TIMEOUT; held by $(lock_holders src))" ;; esac
  die "$BL: $1 on the source ($MOVE_FROM) failed: ${why:-the session ended}"
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

# --- What a schema holds, computed inside each server. ---------------------------------------
# "table <name> <rows> <hash sum>" per table with storage (a partitioned table's partitions in
# one scan, grouped by partition), "sequence <name> <value> <is_called>"; in the fence's
# snapshot on the source. A row's hash is its types' own hash functions (stable across
# versions) where every column's type is on a short list, else the hash of its text (rendered
# the same on both sides: PGOPTIONS); never for enums, whose hash is their label's OID, which
# differs between servers. Sorted here: the two servers' collations may differ.
content() {
  side=$1 out=$2 snap=${3:-}
  begin='' end=''
  [ -n "$snap" ] || [ "$side" = tgt ] || snap=$SNAP
  [ -z "$snap" ] || begin="BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET TRANSACTION SNAPSHOT '$snap';" end='COMMIT;'
  "$side" -F ' ' -f - >"$out.raw" 2>"$out.err" <<SQL || { echo "$(side_name "$side"): $(first_error "$out.err")" >"$out.failed"; return 0; }
$begin
WITH hashed AS (SELECT c.oid, c.relname, c.relkind, c.relispartition,
    CASE WHEN bool_and(e.oid IN ('uuid'::regtype, 'text'::regtype, 'varchar'::regtype, 'bpchar'::regtype, 'char'::regtype, 'name'::regtype,
        'int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'numeric'::regtype, 'bool'::regtype, 'jsonb'::regtype, 'timestamptz'::regtype, 'timestamp'::regtype,
        'date'::regtype, 'time'::regtype, 'interval'::regtype, 'bytea'::regtype, 'oid'::regtype))
      THEN 'hash_record_extended(folio_mover_row_, 0)' ELSE 'hashtextextended(folio_mover_row_::text, 0)' END AS h
    FROM pg_class c LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_type t ON t.oid = a.atttypid LEFT JOIN pg_type b ON b.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END
    LEFT JOIN pg_type e ON e.oid = CASE WHEN b.typcategory = 'A' AND b.typelem <> 0 THEN b.typelem ELSE b.oid END
    WHERE c.relnamespace = '$S'::regnamespace AND c.relkind IN ('r', 'p') GROUP BY c.oid, c.relname, c.relkind, c.relispartition)
SELECT q FROM (
  SELECT c.relname, format('SELECT %L, %L, count(*), coalesce(sum(%s::numeric), 0) FROM %I.%I folio_mover_row_', 'table', c.relname, c.h, '$S', c.relname) AS q
    FROM hashed c WHERE c.relkind = 'r' AND (NOT c.relispartition OR (SELECT relnamespace FROM pg_class WHERE oid = pg_partition_root(c.oid)) <> '$S'::regnamespace)
  UNION ALL
  SELECT c.relname, format('SELECT %L, c.relname, coalesce(x.n, 0), coalesce(x.h, 0) FROM pg_partition_tree(%L) p JOIN pg_class c ON c.oid = p.relid
      LEFT JOIN (SELECT tableoid, count(*) n, sum(%s::numeric) h FROM %I.%I folio_mover_row_ GROUP BY tableoid) x ON x.tableoid = c.oid
      WHERE p.isleaf AND c.relkind = %L', 'table', format('%I.%I', '$S', c.relname), c.h, '$S', c.relname, 'r')
    FROM hashed c WHERE c.relkind = 'p' AND NOT c.relispartition) queries ORDER BY relname \\gexec
SELECT format('SELECT %L, %L, last_value, is_called FROM %I.%I', 'sequence', c.relname, '$S', c.relname)
  FROM pg_class c WHERE c.relnamespace = '$S'::regnamespace AND c.relkind = 'S' ORDER BY c.relname \\gexec
$end
SQL
  LC_ALL=C sort "$out.raw" >"$out" || echo "$(side_name "$side"): sorting the content listing failed" >"$out.failed"
}

# The catalog's account of a schema, one line per fact, the same text on PostgreSQL 15 and 16.
shape() {
  side=$1 out=$2
  "$side" -f - >"$out.raw" 2>"$out.err" <<SQL || { echo "$(side_name "$side"): $(first_error "$out.err")" >"$out.failed"; return 0; }
WITH n AS (SELECT oid FROM pg_namespace WHERE nspname = '$S'),
rel AS (SELECT c.* FROM pg_class c WHERE c.relnamespace = (SELECT oid FROM n)),
acl(what, acl) AS (
  SELECT 'schema', nspacl FROM pg_namespace WHERE oid = (SELECT oid FROM n)
  UNION ALL SELECT c.relkind::text || ' ' || c.relname, c.relacl FROM rel c
  UNION ALL SELECT 'column ' || c.relname || '.' || a.attname, a.attacl FROM rel c JOIN pg_attribute a ON a.attrelid = c.oid WHERE a.attacl IS NOT NULL
  UNION ALL SELECT 'function ' || p.oid::regprocedure::text, p.proacl FROM pg_proc p WHERE p.pronamespace = (SELECT oid FROM n)
  UNION ALL SELECT 'type ' || t.typname, t.typacl FROM pg_type t WHERE t.typnamespace = (SELECT oid FROM n)),
objs(classid, objid) AS (
  SELECT 'pg_namespace'::regclass, oid FROM n
  UNION ALL SELECT 'pg_class'::regclass, oid FROM rel
  UNION ALL SELECT 'pg_proc'::regclass, oid FROM pg_proc WHERE pronamespace = (SELECT oid FROM n)
  UNION ALL SELECT 'pg_type'::regclass, oid FROM pg_type WHERE typnamespace = (SELECT oid FROM n)
  UNION ALL SELECT 'pg_constraint'::regclass, oid FROM pg_constraint WHERE connamespace = (SELECT oid FROM n)
  UNION ALL SELECT 'pg_trigger'::regclass, t.oid FROM pg_trigger t JOIN rel ON rel.oid = t.tgrelid
  UNION ALL SELECT 'pg_policy'::regclass, p.oid FROM pg_policy p JOIN rel ON rel.oid = p.polrelid
  UNION ALL SELECT 'pg_rewrite'::regclass, r.oid FROM pg_rewrite r JOIN rel ON rel.oid = r.ev_class)
SELECT line FROM (
  SELECT format('schema owner %s', pg_get_userbyid(nspowner)) AS line FROM pg_namespace WHERE oid = (SELECT oid FROM n)
  UNION ALL SELECT format('relation %s kind %s persistence %s owner %s options %s populated %s rls %s/%s replica %s',
      c.relname, c.relkind::text, c.relpersistence::text, pg_get_userbyid(c.relowner), coalesce(c.reloptions::text, '-'), c.relispopulated,
      c.relrowsecurity, c.relforcerowsecurity, c.relreplident::text) FROM rel c
  UNION ALL SELECT format('partition %s of %s for %s', c.relname, p.relname, pg_get_expr(c.relpartbound, c.oid))
    FROM rel c JOIN pg_inherits i ON i.inhrelid = c.oid JOIN pg_class p ON p.oid = i.inhparent WHERE c.relispartition
  UNION ALL SELECT format('inherits %s from %s.%s', c.relname, p.relnamespace::regnamespace, p.relname)
    FROM rel c JOIN pg_inherits i ON i.inhrelid = c.oid JOIN pg_class p ON p.oid = i.inhparent WHERE NOT c.relispartition
  UNION ALL SELECT format('partitioned %s by %s', c.relname, pg_get_partkeydef(c.oid)) FROM rel c WHERE c.relkind = 'p'
  UNION ALL SELECT format('column %s.%s %s notnull %s default %s identity %s generated %s collation %s', c.relname, a.attname,
      format_type(a.atttypid, a.atttypmod), a.attnotnull, coalesce(pg_get_expr(d.adbin, d.adrelid), '-'), nullif(a.attidentity::text, ''), nullif(a.attgenerated::text, ''),
      CASE WHEN a.attcollation <> 0 THEN (SELECT collname FROM pg_collation WHERE oid = a.attcollation) END)
    FROM rel c JOIN pg_attribute a ON a.attrelid = c.oid LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
    WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'c')
  UNION ALL SELECT format('index %s %s valid %s', c.relname, pg_get_indexdef(c.oid), i.indisvalid) FROM rel c JOIN pg_index i ON i.indexrelid = c.oid
  UNION ALL SELECT format('constraint %s on %s %s validated %s', co.conname, coalesce(r.relname, t.typname), pg_get_constraintdef(co.oid), co.convalidated)
    FROM pg_constraint co LEFT JOIN pg_class r ON r.oid = co.conrelid LEFT JOIN pg_type t ON t.oid = co.contypid WHERE co.connamespace = (SELECT oid FROM n)
  UNION ALL SELECT format('trigger %s enabled %s', pg_get_triggerdef(t.oid), t.tgenabled::text) FROM pg_trigger t JOIN rel ON rel.oid = t.tgrelid WHERE NOT t.tgisinternal
  UNION ALL SELECT format('rule %s', pg_get_ruledef(r.oid)) FROM pg_rewrite r JOIN rel ON rel.oid = r.ev_class WHERE r.rulename <> '_RETURN'
  UNION ALL SELECT format('view %s %s', c.relname, md5(pg_get_viewdef(c.oid))) FROM rel c WHERE c.relkind IN ('v', 'm')
  UNION ALL SELECT format('sequence %s %s start %s increment %s min %s max %s cache %s cycle %s', c.relname, format_type(s.seqtypid, NULL), s.seqstart, s.seqincrement, s.seqmin, s.seqmax, s.seqcache, s.seqcycle)
    FROM rel c JOIN pg_sequence s ON s.seqrelid = c.oid
  UNION ALL SELECT format('sequence %s owned by %s.%s', c.relname, t.relname, a.attname) FROM rel c JOIN pg_depend d ON d.objid = c.oid AND d.classid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
    JOIN pg_class t ON t.oid = d.refobjid AND d.refclassid = 'pg_class'::regclass JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid WHERE c.relkind = 'S'
  UNION ALL SELECT format('function %s kind %s owner %s %s', p.oid::regprocedure, p.prokind::text, pg_get_userbyid(p.proowner),
      CASE WHEN p.prokind = 'a' THEN '' ELSE md5(pg_get_functiondef(p.oid)) END) FROM pg_proc p WHERE p.pronamespace = (SELECT oid FROM n)
  UNION ALL SELECT format('type %s kind %s owner %s', t.typname, t.typtype::text, pg_get_userbyid(t.typowner)) FROM pg_type t
    WHERE t.typnamespace = (SELECT oid FROM n) AND t.typtype IN ('e', 'd', 'r', 'm', 'b')
  UNION ALL SELECT format('enum %s %s %s', t.typname, e.enumsortorder, e.enumlabel) FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid WHERE t.typnamespace = (SELECT oid FROM n)
  UNION ALL SELECT format('domain %s over %s notnull %s default %s', t.typname, format_type(t.typbasetype, t.typtypmod), t.typnotnull, coalesce(t.typdefault, '-'))
    FROM pg_type t WHERE t.typnamespace = (SELECT oid FROM n) AND t.typtype = 'd'
  UNION ALL SELECT format('policy %s on %s %s %s to %s using %s check %s', p.polname, c.relname, p.polcmd::text, CASE WHEN p.polpermissive THEN 'permissive' ELSE 'restrictive' END,
      (SELECT string_agg(x, ',' ORDER BY x) FROM (SELECT CASE WHEN r = 0 THEN 'public' ELSE pg_get_userbyid(r) END x FROM unnest(p.polroles) r) rs), pg_get_expr(p.polqual, p.polrelid), pg_get_expr(p.polwithcheck, p.polrelid))
    FROM pg_policy p JOIN rel c ON c.oid = p.polrelid
  UNION ALL SELECT format('grant %s to %s: %s%s', a.what, CASE WHEN x.grantee = 0 THEN 'public' ELSE pg_get_userbyid(x.grantee) END, x.privilege_type, CASE WHEN x.is_grantable THEN ' with grant option' ELSE '' END)
    FROM acl a, aclexplode(a.acl) x WHERE a.acl IS NOT NULL
  UNION ALL SELECT format('default privileges of %s on %s to %s: %s', pg_get_userbyid(d.defaclrole), d.defaclobjtype::text, CASE WHEN x.grantee = 0 THEN 'public' ELSE pg_get_userbyid(x.grantee) END, x.privilege_type)
    FROM pg_default_acl d, aclexplode(d.defaclacl) x WHERE d.defaclnamespace = (SELECT oid FROM n)
  UNION ALL SELECT format('comment on %s %s', pg_describe_object(d.classoid, d.objoid, d.objsubid), md5(d.description))
    FROM pg_description d JOIN objs o ON o.classid = d.classoid AND o.objid = d.objoid
) facts
SQL
  LC_ALL=C sort "$out.raw" >"$out" || { echo "$(side_name "$side"): sorting the catalog listing failed" >"$out.failed"; return 0; }
  [ -s "$out" ] || echo "$(side_name "$side"): the catalog query returned nothing" >"$out.failed"
}

# Both sides at once, content and shape ("reuse": the source's content was taken in the same
# snapshot already); "" when they agree, else the first differences in words.
compare() {
  [ "${1:-}" = reuse ] || rm -f "$F.src.content" "$F.src.content.failed"
  rm -f "$F.tgt.content.failed" "$F.src.shape.failed" "$F.tgt.shape.failed"
  p1=''
  if [ ! -e "$F.src.content" ]; then
    content src "$F.src.content" 3>&- &
    p1=$!
  fi
  content tgt "$F.tgt.content" 3>&- &
  p2=$!
  shape src "$F.src.shape" 3>&- &
  p3=$!
  shape tgt "$F.tgt.shape" 3>&- &
  p4=$!
  wait $p1 $p2 $p3 $p4 || true
  for f in "$F".*.failed; do [ ! -e "$f" ] || die "$S: verifying on the $(cat "$f")"; done
  if [ "$MOVE_KEEP_EXISTING" = true ]; then
    # A reference copy is taken while the module stays live: sequences move on after the snapshot.
    grep -v '^sequence ' "$F.src.content" >"$F.src.content.t" || true
    grep -v '^sequence ' "$F.tgt.content" >"$F.tgt.content.t" || true
    mv "$F.src.content.t" "$F.src.content"
    mv "$F.tgt.content.t" "$F.tgt.content"
  fi
  differences "$F.src.content" "$F.tgt.content" "$F.src.shape" "$F.tgt.shape"
}
# The first differences between two listings (content, then shape), at most three, in words.
differences() {
  awk 'NR == FNR { a[$1 " " $2] = $0; next }
    { k = $1 " " $2; if (!(k in a)) { print $1 " " $2 " is on the target only"; next }
      if (a[k] != $0) { split(a[k], s, " ");
        if ($1 == "table" && s[3] != $3) print "table " $2 " has " s[3] " rows on the source, " $3 " on the target";
        else if ($1 == "table") print "table " $2 " has the same " $3 " rows but different content";
        else print "sequence " $2 " is at " s[3] " (is_called " s[4] ") on the source, " $3 " (is_called " $4 ") on the target" }
      delete a[k] }
    END { for (k in a) print k " is on the source only" }' "$1" "$2" >"$F.diff.raw" || die "$S: comparing the two sides' listings failed"
  LC_ALL=C sort "$F.diff.raw" >"$F.diff" || die "$S: comparing the two sides' listings failed"
  LC_ALL=C comm -23 "$3" "$4" >"$F.diff.raw" || die "$S: comparing the two sides' catalogs failed"
  sed 's/^/source only: /' "$F.diff.raw" >>"$F.diff" || die "$S: comparing the two sides' catalogs failed"
  LC_ALL=C comm -13 "$3" "$4" >"$F.diff.raw" || die "$S: comparing the two sides' catalogs failed"
  sed 's/^/target only: /' "$F.diff.raw" >>"$F.diff" || die "$S: comparing the two sides' catalogs failed"
  # Decided on the file: the words below only describe a difference, they never hide one.
  [ -s "$F.diff" ] || return 0
  words=$(head -n 3 "$F.diff" | cut -c1-300 | paste -sd ';' - | sed 's/;/; /g')
  echo "${words:-the two sides differ (see $F.diff)}"
}
rows_of() { awk '$1 == "table" { n += $3 } END { print n + 0 }' "$1"; }
tables_of() { grep -c '^table ' "$1" || true; }

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
    state=$(q tgt "reading $S's record" -c "SELECT state FROM folio_mover.moves WHERE schema_name = '$S' AND source = '$SOURCE'")
    if exists tgt "$S"; then
      diff=$(compare)
      if [ -z "$diff" ] && [ -n "$state" ]; then
        record verified "$F.tgt.content"
        repoint_views
        if [ "$state" = verified ]; then
          say "$S: skipped, already copied from $MOVE_FROM and its content matches ($(tables_of "$F.tgt.content") tables, $(rows_of "$F.tgt.content") rows)"
        else
          say "$S: copied and verified by an earlier run that stopped before recording it, $(tables_of "$F.tgt.content") tables, $(rows_of "$F.tgt.content") rows"
        fi
        continue
      fi
      rows=$(rows_of "$F.tgt.content")
      if [ -z "$diff" ]; then
        record verified "$F.tgt.content"
        say "$S: skipped, the target already holds an identical copy that no mover recorded; recorded it as verified ($(tables_of "$F.tgt.content") tables, $rows rows)"
        continue
      elif [ "$state" = copying ]; then
        set_aside "an unverified copy from an earlier run that differs from the source now ($diff)"
      elif [ "$rows" = 0 ]; then
        set_aside "it holds no rows"
      elif [ "$MOVE_REPLACE" = true ]; then
        set_aside "--replace ($diff)"
      else
        die "$S: the target ($MOVE_TO) already holds this schema with $rows rows and it differs from the source ($diff); pass --replace to set it aside and copy afresh"
      fi
    fi
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
  restore_rc=$(cat "$FB.restore.rc" 2>/dev/null || echo unknown)
  dump_rc=$(cat "$FB.dump.rc" 2>/dev/null || echo unknown)
  if [ "$restore_rc" != 0 ]; then
    why=$(first_error "$FB.restore.err")
    [ -n "$why" ] || case "$restore_rc" in 1[3-9][0-9]) why="pg_restore was killed (signal $((restore_rc - 128)))" ;; *) why="pg_restore exited $restore_rc" ;; esac
    die "$BL: pg_restore into the target ($MOVE_TO, $TGT_HOST:$TGT_PORT) failed, nothing of it was kept: $why"
  fi
  if [ "$dump_rc" != 0 ]; then
    why=$(first_error "$FB.dump.err")
    [ -n "$why" ] || case "$dump_rc" in 1[3-9][0-9]) why="pg_dump was killed (signal $((dump_rc - 128)))" ;; *) why="pg_dump exited $dump_rc" ;; esac
    die "$BL: pg_dump from the source ($MOVE_FROM, $SOURCE) failed: $why"
  fi
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
  case "$rec" in
    "verified true") ;;
    "verified false") die "$S: the target's copy was verified by row counts only, by an older mover; run the move again to verify it by content, then --drop-source" ;;
    *) die "$S: the target ($MOVE_TO) has no verified copy from $MOVE_FROM; move it first" ;;
  esac
  exists tgt "$S" || die "$S: the target ($MOVE_TO) no longer holds the verified copy; refusing to drop the source"
  dependents src "$S" >"$F.deps" 2>"$F.err" || die "$S: listing the views that read it on the $(side_name src) failed: $(first_error "$F.err")"
  [ ! -s "$F.deps" ] || die "$S: views of other schemas on the source still read it: $(cut -d'|' -f3 "$F.deps" | paste -sd ' ' -)"
  busy=$(busy_sessions)
  [ -z "$busy" ] || [ "$MOVE_FORCE" = true ] || die "$S: still in use on the source: $busy"
  fence_open fence
  # The source must still be what was verified: compared inside the fence, then dropped by it.
  q tgt "reading $S's verified content" -c "SELECT content FROM folio_mover.moves WHERE schema_name = '$S'" >"$F.recorded"
  content src "$F.src.content"
  [ ! -e "$F.src.content.failed" ] || die "$S: checking the source on the $(cat "$F.src.content.failed")"
  LC_ALL=C sort "$F.recorded" >"$F.recorded.sorted" || die "$S: reading its verified content failed"
  [ -s "$F.recorded.sorted" ] || die "$S: the target's record holds no verified content; run the move again, then --drop-source"
  : >"$F.empty"
  # Its own exit status first (a failed comparison must not read as "no difference"), then the words.
  diff=$(differences "$F.recorded.sorted" "$F.src.content" "$F.empty" "$F.empty")
  [ -z "$diff" ] || diff=$(printf '%s' "$diff" | sed 's/on the source/in the verified copy/g; s/on the target/on the source now/g')
  [ -z "$diff" ] || die "$S: the source changed since its copy was verified ($diff); refusing to drop it"
  say "$S: the source still matches the verified copy; dropping it"
  fence_send 'dropping the schema' "DROP SCHEMA \"$S\" CASCADE;"
  fence_close commit
  say "$S: dropped from the source ($MOVE_FROM) after matching the verified copy, $(tables_of "$F.src.content") tables, $(rows_of "$F.src.content") rows"
}

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
  why=$(first_error "$W.$1.log")
  case "$why" in *"lock timeout"*) why="$why (waited $MOVE_LOCK_TIMEOUT; held by $(lock_holders src))" ;; esac
  die "$2 failed: ${why:-the session ended}"
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
# A beacon row written on the source after the fence: once the target holds it, it has applied
# every write the source committed before (replication applies in commit order).
caught_up() { # what
  token="$SUB-$1-$(date +%s)-$$"
  q src 'writing the beacon' -c "INSERT INTO folio_mover.beacon (token) VALUES ('$token')" >/dev/null
  waited=0
  while [ "$(q tgt 'waiting for the beacon' -c "SELECT count(*) FROM folio_mover.beacon WHERE token = '$token'")" != 1 ]; do
    errors=$(q tgt 'reading the apply worker' -c "SELECT coalesce(sum(apply_error_count + sync_error_count), 0) FROM pg_stat_subscription_stats WHERE subname = '$SUB'")
    [ "$errors" = 0 ] || online_fail "the target's apply worker failed $errors time(s) (its log says why: DDL on the source during the move, or a conflict on the target)"
    [ "$waited" -lt $((CATCHUP_S * 20)) ] || online_fail "the target fell behind: it had not applied the source's last write after $MOVE_CATCHUP_TIMEOUT ($(q tgt 'reading the apply worker' -c "SELECT coalesce(max(format('received %s, applied up to %s', received_lsn, latest_end_lsn)), 'no apply worker running') FROM pg_stat_subscription WHERE subname = '$SUB'"))"
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
      d=$(differences "$F.src.rows" "$F.tgt.rows" "$F.none" "$F.none")
    else
      d=$(differences "$F.none" "$F.none" "$F.src" "$F.tgt")
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
  t=0 routed='' quiet=0 behind=$MOVE_ROUTES seen=''
  while :; do
    if [ -z "$routed" ]; then
      behind=''
      for r in $MOVE_ROUTES; do
        case "$r" in *=*) c=$r ;; *) c="host=$r port=$TGT_PORT" ;; esac
        [ "$(PGCONNECT_TIMEOUT=2 psql -X -At -d "$c" -c "SELECT count(*) FROM folio_mover.switch WHERE token = '$token'" 2>/dev/null 3>&- 5>&- 6>&-)" = 1 ] || behind="$behind $r"
      done
      if [ -z "$behind" ]; then
        routed=$(q src 'reading the clock' -c "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint - $FENCE_T0")
        say "switched: every route leads to the target $routed ms after the fence locked; the module writes there. The source stays fenced until none of its sessions reaches it for $MOVE_ROUTE_GRACE"
      fi
    fi
    if [ -n "$routed" ] && [ $((t % 5)) = 0 ]; then
      # Sessions of the module on the source: its role, its locks (granted or waiting), or
      # waiting on the fence. The mover's own sessions and the subscription's are not.
      seen=$(q src 'looking for sessions of the module' -c "SELECT string_agg(format('pid %s (%s)', a.pid, coalesce(nullif(a.application_name, ''), a.usename)), '; ' ORDER BY a.pid)
        FROM pg_stat_activity a WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.application_name NOT IN ('folio-schema-mover', '$SUB')
        AND (a.usename IN ($SCHEMA_LIST) OR $FENCE_PID = ANY (pg_blocking_pids(a.pid))
          OR EXISTS (SELECT FROM pg_locks l JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace n ON n.oid = c.relnamespace WHERE l.pid = a.pid AND n.nspname IN ($SCHEMA_LIST)))")
      if [ -n "$seen" ]; then
        quiet=0
        [ $((t % 20)) != 0 ] || src -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE $FENCE_PID = ANY (pg_blocking_pids(pid))" >/dev/null 2>&1 || true
      fi
      [ $((quiet * 100)) -lt $((GRACE_S * 1000)) ] || break
    fi
    [ -z "$routed" ] || quiet=$((quiet + 1))
    [ "$(date +%s)" -lt "$deadline" ] || route_guard
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

online_move() {
  W="$work/online"
  F=$W
  S=''
  ID=$(printf '%s\n' $MOVE_SCHEMAS | LC_ALL=C sort | md5sum | cut -c1-12)
  case "$ID" in [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]) ;; *) die "naming the wave's publication failed (md5sum gave \"$(shown "$ID")\")" ;; esac
  PUB="folio_mover_$ID"
  SUB=$PUB
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
  done_list='' partial='' other=''
  for S in $MOVE_SCHEMAS; do
    st=$(q tgt "reading $S's record" -c "SELECT state FROM folio_mover.moves WHERE schema_name = '$S' AND source = '$SOURCE'")
    if exists tgt "$S"; then
      case "$st" in
        verified) done_list="$done_list $S" ;;
        replicating) partial="$partial $S" ;;
        # Past the switch the module writes on the target: never dropped, never copied over.
        switched) die "$S: an earlier run switched it to the target ($MOVE_TO) and stopped before comparing the two sides at the switch; the module writes there now, so nothing is copied again (the source ($MOVE_FROM) holds it as of the switch); if the module's routes still lead to the source, deploy the phase: its records lead to the target" ;;
        *) other="$other $S" ;;
      esac
    fi
  done
  [ -z "$other" ] || die "the target ($MOVE_TO) already holds$other with no online move of it recorded; an online move copies into an empty target (valid: MOVE_MODE fenced, which compares and can set a copy aside)"
  if [ -n "$done_list" ] && [ -z "$partial" ] && [ "$(echo $done_list)" = "$(echo $MOVE_SCHEMAS)" ]; then
    for S in $MOVE_SCHEMAS; do say "$S: skipped, already moved online from $MOVE_FROM and verified"; done
    return 0
  fi
  for S in $partial $done_list; do
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
    left=$(q tgt 'following the first copy' -c "SELECT count(*) FILTER (WHERE srsubstate NOT IN ('r', 's')) || ' ' || count(*) FROM pg_subscription_rel WHERE srsubid = (SELECT oid FROM pg_subscription WHERE subname = '$SUB')")
    errors=$(q tgt 'reading the apply worker' -c "SELECT coalesce(sum(apply_error_count + sync_error_count), 0) FROM pg_stat_subscription_stats WHERE subname = '$SUB'")
    [ "$errors" = 0 ] || die "the first copy failed on the target ($errors error(s) in its log); the source was not changed"
    [ "${left%% *}" != 0 ] || [ "${left#* }" = 0 ] || break
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
  per=$(( ($(echo $order | wc -w) + 4 * MOVE_JOBS - 1) / (4 * MOVE_JOBS) ))
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
