#!/usr/bin/env bash
# Installs and builds what the integration suite runs, idempotently:
#   - PostgreSQL from the distribution's packages (server binaries, psql, pg_dump, pg_restore);
#   - Prometheus from the distribution's packages (the report reads a real one);
#   - bubblewrap from the distribution's packages (each program runs under its task's posture);
#   - the upstream Temporal server and its SQL tool at config's releases (servers.upstream: the
#     release, and the one the upgrade test starts from), from the Go module proxy, cached by
#     version (about 4 minutes each on 2 cores the first time); Go
#     fetches the toolchain the release's go.mod asks for from the same proxy (GOTOOLCHAIN=auto);
#   - the Temporal Web UI's server at config's images.ui release, from the same proxy, cached;
#   - the project's benchmark (benchmark/), rebuilt on every run (Go's cache makes it quick).
# Build outputs go to $DB_BENCH_CACHE (default ~/.cache/db-bench-infra).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/integration.env
# The release, then the one the upgrade test starts from (config's servers.upstream).
releases=$(node --import tsx scripts/temporal-release.ts)
cache="${DB_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/db-bench-infra}"
export GOFLAGS=-buildvcs=false GOTOOLCHAIN=auto

bash scripts/setup-postgres.sh
bash scripts/setup-postgres16.sh
bash scripts/setup-prometheus.sh
bash scripts/setup-bubblewrap.sh
command -v go >/dev/null || { echo "setup-integration: Go is not installed (https://go.dev/doc/install); it builds the Temporal server and the benchmark" >&2; exit 1; }

for version in $releases; do
  server="$cache/temporal-server-$version"
  if [ ! -x "$server/temporal-server" ] || [ ! -x "$server/temporal-sql-tool" ] || [ ! -d "$server/source" ]; then
    echo "setup-integration: building go.temporal.io/server@$version (cached in $server)"
    tmp="$server.tmp"; rm -rf "$tmp"; mkdir -p "$tmp"
    GOBIN="$tmp" go install "go.temporal.io/server/cmd/server@$version" "go.temporal.io/server/cmd/tools/sql@$version"
    mv "$tmp/server" "$tmp/temporal-server"; mv "$tmp/sql" "$tmp/temporal-sql-tool"
    # The module's own files: its stock development config, which the benchmark ladder compares against.
    ln -s "$(go env GOMODCACHE)/go.temporal.io/server@$version" "$tmp/source"
    rm -rf "$server"; mv "$tmp" "$server"
  fi
done

# The Web UI's server (it embeds the UI) at config's images.ui release (harness/ui-server pins
# it and its go.sum), with the image's own config template (config/docker.yaml, which reads
# the environment the stack renders).
ui_version=$(node --import tsx scripts/temporal-release.ts --ui)
ui="$cache/temporal-ui-$ui_version"
if [ ! -x "$ui/ui-server" ] || [ ! -f "$ui/config/docker.yaml" ]; then
  echo "setup-integration: building github.com/temporalio/ui-server/v2@$ui_version (cached in $ui)"
  tmp="$ui.tmp"; rm -rf "$tmp"; mkdir -p "$tmp/config"
  (cd harness/ui-server && go build -trimpath -o "$tmp/ui-server" github.com/temporalio/ui-server/v2/cmd/server)
  source_dir=$(cd harness/ui-server && go list -m -f '{{.Dir}}' github.com/temporalio/ui-server/v2)
  cp "$source_dir/config/docker.yaml" "$tmp/config/docker.yaml"
  rm -rf "$ui"; mv "$tmp" "$ui"
fi

echo "setup-integration: building the benchmark (benchmark/)"
(cd benchmark && go build -trimpath -o "$cache/benchmark/benchmark" .)
echo "setup-integration: ready (temporal $(echo $releases | tr '\n' ' '), ui $ui_version, $(ls -d /usr/lib/postgresql/*/bin | tail -n1))"
