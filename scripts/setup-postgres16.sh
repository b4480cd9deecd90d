#!/usr/bin/env bash
# PostgreSQL 16 for the schema mover's tests (scripts/integration.env says from where and why),
# installed once per version into one directory: server/ (initdb, pg_ctl, postgres, pg_trgm)
# and client/ (psql, pg_dump, pg_restore). Safe to re-run: a complete install is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/integration.env
# Where harness/postgres.ts looks (postgres16Dir): keep the two in step.
if [ -n "${DB_BENCH_PG16:-}" ]; then dir=$DB_BENCH_PG16
elif [ "$(id -u)" -eq 0 ]; then dir=/opt/db-bench-infra/postgresql-16
else dir="${DB_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/db-bench-infra}/postgresql-16"; fi
want="$POSTGRES16_SERVER_PACKAGE $POSTGRES16_CLIENT_WHEEL"
[ "$(cat "$dir/.versions" 2>/dev/null)" = "$want" ] && exit 0

echo "setup-postgres16: installing $POSTGRES16_SERVER_PACKAGE and $POSTGRES16_CLIENT_WHEEL into $dir"
tmp="$dir.tmp"
rm -rf "$tmp"
mkdir -p "$tmp/npm" "$tmp/wheel"
(cd "$tmp/npm" && npm pack --silent "$POSTGRES16_SERVER_PACKAGE" >/dev/null)
tar xzf "$tmp"/npm/*.tgz -C "$tmp/npm"
mv "$tmp/npm/package/native" "$tmp/server"
# The package keeps its library symlinks in a list (npm cannot ship links).
node -e '
  const fs = require("fs"), path = require("path");
  for (const { source, target } of JSON.parse(fs.readFileSync(process.argv[1] + "/pg-symlinks.json", "utf8"))) {
    const at = path.join(process.argv[1], target.replace(/^native\//, ""));
    fs.rmSync(at, { force: true });
    fs.symlinkSync(path.basename(source), at);
  }' "$tmp/server"
python3 -m pip download --quiet --disable-pip-version-check --no-deps -d "$tmp/wheel" "$POSTGRES16_CLIENT_WHEEL"
python3 -m zipfile -e "$tmp"/wheel/*.whl "$tmp/wheel/x"
# The wheel's layout is kept: its binaries find libpq at $ORIGIN/../../../pgserver.libs.
mv "$tmp/wheel/x" "$tmp/client"
ln -s pgserver/pginstall/bin "$tmp/client/bin"
chmod -R a+rX "$tmp/server" "$tmp/client"
chmod a+x "$tmp"/server/bin/* "$tmp"/client/pgserver/pginstall/bin/*
rm -rf "$tmp/npm" "$tmp/wheel"
"$tmp/client/bin/pg_dump" --version >/dev/null
"$tmp/server/bin/postgres" --version >/dev/null
echo "$want" >"$tmp/.versions"
rm -rf "$dir"
mv "$tmp" "$dir"
echo "setup-postgres16: $("$dir/server/bin/postgres" --version), $("$dir/client/bin/pg_dump" --version)"
