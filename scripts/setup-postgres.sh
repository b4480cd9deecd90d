#!/usr/bin/env bash
# PostgreSQL from the distribution's packages, for the tests that start real servers (the
# schema mover's, the local Temporal cluster): initdb, pg_ctl, psql, pg_dump, pg_restore. Safe to
# re-run: installs only when no server binaries are there. The package's own cluster on 5432 is
# stopped; the tests start theirs on free loopback ports.
set -euo pipefail
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then exit 0; fi
echo "setup-postgres: installing PostgreSQL from the distribution's packages"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql postgresql-client >/dev/null
$sudo service postgresql stop >/dev/null 2>&1 || true
