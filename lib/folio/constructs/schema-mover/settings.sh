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
# Why a session fed through a FIFO ended (its log, the file holding psql's exit status): its
# first error, or else psql's status and its last line. A lost connection prints no error word
# ("server closed the connection unexpectedly"): 2 is that, 0 its input closed.
session_end() {
  why=$(first_error "$1")
  if [ -z "$why" ]; then
    rc=$(cat "$2" 2>/dev/null || echo unknown)
    case "$rc" in
      2) why="the connection to the server was lost (psql exit 2)" ;;
      0) why="the session ended, its input closed (psql exit 0)" ;;
      *) why="the session ended (psql exit $rc)" ;;
    esac
    last=$(grep -v '^[[:space:]]*$' "$1" 2>/dev/null | tail -n1 | cut -c1-200 || true)
    [ -z "$last" ] || why="$why: $last"
  fi
  printf '%s' "$why"
}

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
